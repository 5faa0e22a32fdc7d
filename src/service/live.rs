//! Games as live boards see them: a hub that tells watchers a game changed,
//! and [`LiveView`], everything a board page shows about a game for one
//! viewer (position, legal destinations, moves, clocks, offers, what the
//! viewer may do, the end), read from the store.
//!
//! A change notice carries only the game id: a watcher reads the state
//! again (a notice is a hint; the store is the truth). In one process the
//! hub is a `tokio::sync::broadcast` channel per watched game; with several
//! processes on PostgreSQL each change is also announced with `NOTIFY`, and
//! every process's listener feeds what it hears into its own hub
//! ([`Service::hear_change`]).

use std::{
    collections::{BTreeMap, HashMap},
    sync::{Arc, Mutex, OnceLock},
};

use shakmaty::{Color, Position};
use tokio::sync::{broadcast, mpsc};

use super::{
    buttons::{ButtonAction, GameButton},
    error::{refuse_msg, ServiceError},
    lang::default_notation,
    links::WebLinks,
    session::Session,
    Actor, Service,
};
use crate::{
    chess::{color_index, Notation},
    clock::{clocks_paused, TimeControl},
    i18n::Lang,
    msg,
    rating::Points,
    store::Backend,
    t,
};

/// Most game changes announced in one statement.
const ANNOUNCE_BATCH: usize = 256;

/// The least time between two announcing statements. A change that comes
/// after a quiet spell goes at once; under load, the changes committed
/// during this gap share the next statement. Other processes hear of a
/// change at most this much later: 10 ms, far below what a watcher of a
/// board can see. Each statement is a transaction that notifies, and its
/// cost shows in every move: with no gap at all, 4 moves in flight made 0.78
/// statements a move; with 2 ms, 0.13, and announcing nothing at all would
/// have saved 0.03 ms of CPU a move (docs/benchmarks.md, "the announcements'
/// share").
const ANNOUNCE_GAP: std::time::Duration = std::time::Duration::from_millis(10);

/// Watchers per game, and the announcer of changes to other processes.
#[derive(Default)]
pub(super) struct Hub {
    games: Mutex<HashMap<i64, Watched>>,
    announcer: OnceLock<mpsc::UnboundedSender<i64>>,
    links: OnceLock<WebLinks>,
    /// Notices for the club pages: the server something changed on
    /// (`None`: any server, as when another process changed a game).
    clubs: OnceLock<broadcast::Sender<Option<String>>>,
    /// Set once the board runs as a Discord Activity too.
    activity: OnceLock<()>,
}

/// A watched game: its watchers, and the state they are shown, read once
/// per change (a change starts a new, empty cell).
struct Watched {
    changes: broadcast::Sender<()>,
    snapshot: Arc<tokio::sync::OnceCell<Option<Arc<LiveSnapshot>>>>,
    /// Whether the game belongs to a tournament (it never changes), once read.
    in_tournament: Option<bool>,
}

impl Watched {
    fn new() -> Watched {
        Watched {
            changes: broadcast::channel(4).0,
            snapshot: Arc::default(),
            in_tournament: None,
        }
    }

    /// Tells the watchers, who will read the state anew (or find it in
    /// `snapshot`); `false` once none is left.
    fn changed(&mut self, snapshot: Option<LiveSnapshot>) -> bool {
        self.snapshot = Arc::new(match snapshot {
            Some(s) => tokio::sync::OnceCell::new_with(Some(Some(Arc::new(s)))),
            None => tokio::sync::OnceCell::new(),
        });
        self.changes.send(()).is_ok()
    }
}

/// A game as stored, with what its live views need besides (read once per
/// change; each viewer's [`LiveView`] is made from it without the store).
pub struct LiveSnapshot {
    record: crate::store::GameRecord,
    game: crate::chess::Game,
    players: [Option<crate::store::PlayerRecord>; 2],
    ratings: Option<[crate::store::RatingChangeRecord; 2]>,
    /// The server's notation setting (`None`: by the reader's language).
    notation: Option<String>,
    in_tournament: bool,
    /// The times no clock ran (adjournments, see `adjourn.rs`).
    pauses: Vec<crate::clock::Pause>,
    /// The game is adjourned: nobody moves until it resumes.
    adjourned: bool,
    /// While adjourned: the sealer, and the sealed move in SAN once sealed
    /// (shown to the sealer's own view only).
    sealing: Option<(Color, Option<String>)>,
}

impl LiveSnapshot {
    /// The server the game belongs to.
    pub fn server_id(&self) -> &str {
        &self.record.game.server_id
    }
}

/// A game's state for one viewer of its live board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveView {
    pub game_id: i64,
    pub server_id: String,
    /// The game's channel (where its boards are posted).
    pub channel_id: Option<String>,
    /// Bumped by every change (offers and extra time too).
    pub version: i64,
    /// Plies played: what a move or an action from the board names.
    pub ply: i64,
    pub fen: String,
    pub turn: Color,
    /// The viewer's side, `None` for a spectator.
    pub viewer: Option<Color>,
    /// The side at the bottom.
    pub orientation: Color,
    pub last_move: Option<(String, String)>,
    pub check: bool,
    /// Legal destinations, only when the viewer is to move in a running game.
    pub dests: BTreeMap<String, Vec<String>>,
    /// The variant and what its board shows besides the pieces.
    pub variant: LiveVariant,
    /// Every move, in the viewer's notation.
    pub moves: Vec<String>,
    /// The opening so far, as the board's caption names it
    /// (`C50 Italian Game: Giuoco Pianissimo`), in the viewer's language.
    pub opening: Option<String>,
    /// Live games' clocks as of now.
    pub clock: Option<LiveClock>,
    /// Correspondence: when the side to move runs out of time.
    pub deadline_ms: Option<i64>,
    /// White's and Black's names and points as shown.
    pub players: [(String, String); 2],
    pub draw_offer: Option<Color>,
    pub takeback_by: Option<Color>,
    pub rematch_by: Option<Color>,
    /// The game a rematch started.
    pub rematch_game: Option<i64>,
    pub can: Allowed,
    /// Whose move it is, or how the game ended, in the viewer's language.
    pub status: String,
    pub end: Option<LiveEnd>,
    /// The page's title: both players.
    pub title: String,
}

/// The variant of a game as a live board needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveVariant {
    /// lichess's key (`standard`, `crazyhouse`, …).
    pub key: &'static str,
    /// Its name in the viewer's language.
    pub name: String,
    /// Crazyhouse: the pieces White and Black hold, counted in the order
    /// pawn, knight, bishop, rook, queen.
    pub pockets: Option<[[u8; 5]; 2]>,
    /// Crazyhouse: legal drops as `piece → [square, …]` (`N` → `f3`), only
    /// when the viewer is to move, as [`LiveView::dests`].
    pub drops: BTreeMap<String, Vec<String>>,
    /// Three-check: the checks White and Black have given.
    pub checks_given: Option<[u8; 2]>,
}

/// The roles a pocket holds, in the order [`LiveVariant::pockets`] counts.
pub const POCKET_ROLES: [shakmaty::Role; 5] = [
    shakmaty::Role::Pawn,
    shakmaty::Role::Knight,
    shakmaty::Role::Bishop,
    shakmaty::Role::Rook,
    shakmaty::Role::Queen,
];

/// Both clocks of a live game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveClock {
    pub white_ms: i64,
    pub black_ms: i64,
    /// The side whose clock runs.
    pub running: Option<Color>,
}

/// What the viewer may do now (all false for a spectator).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Allowed {
    pub resign: bool,
    pub draw_offer: bool,
    pub draw_claim: bool,
    pub takeback: bool,
    pub abort: bool,
    pub give_time: bool,
    pub rematch: bool,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveEnd {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub text: String,
    /// One line per player whose points changed.
    pub points: Vec<String>,
}

/// An action on a game from a live board (the board's own buttons).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BoardAction {
    /// A board button, as on Discord (resign-confirm, draw-offer, …).
    Button(GameButton),
    Abort,
}

impl BoardAction {
    /// The action a board names (`draw-offer`, `abort`, …).
    pub fn from_id(id: &str) -> Option<BoardAction> {
        match id {
            "abort" => Some(BoardAction::Abort),
            // Resigning needs its confirmation on the board itself.
            "resign" => None,
            _ => GameButton::from_id(id).map(BoardAction::Button),
        }
    }
}

impl LiveSnapshot {
    fn side_of(&self, user: &str) -> Option<Color> {
        if self.record.game.white_id == user {
            Some(Color::White)
        } else if self.record.game.black_id == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The game as `viewer` sees it in `lang` at `now_ms` (its clocks).
    pub fn view(&self, viewer: Option<&str>, lang: Lang, now_ms: i64) -> LiveView {
        let (game, record, players, ratings) =
            (&self.game, &self.record, &self.players, &self.ratings);
        let over = game.is_over();
        let notation = self
            .notation
            .as_deref()
            .and_then(Notation::from_id)
            .unwrap_or_else(|| default_notation(lang));
        let viewer_side = viewer.and_then(|user| self.side_of(user));
        let ([white, black], points) =
            super::view::names_and_points(lang, record, players, ratings.as_ref());
        let shown_points = |hundredths: i64| {
            let p = Points::from_hundredths(hundredths);
            format!("{} {p}", p.level().name(lang))
        };
        let turn = game.turn();
        let tc: Option<TimeControl> = record.game.time_control.parse().ok();
        let clock = match &tc {
            Some(TimeControl::Live(live)) => {
                let times: Vec<i64> = game.plies().iter().map(|p| p.at_ms).collect();
                let state = clocks_paused(live, &times, &self.pauses);
                let at = if over {
                    record
                        .state
                        .ended_ms
                        .or(state.running_since_ms)
                        .unwrap_or(0)
                } else {
                    now_ms
                };
                let [white_ms, black_ms] = state.remaining_at(at).map(|ms| ms.max(0));
                let running =
                    (!over && state.running_since_ms.is_some()).then_some(state.side_to_move);
                Some(LiveClock {
                    white_ms,
                    black_ms,
                    running,
                })
            }
            _ => None,
        };
        let correspondence = matches!(tc, Some(TimeControl::Correspondence(_)));
        let in_tournament = self.in_tournament;
        let side_of_user = |user: &str| self.side_of(user);
        let takeback_by = record.takeback_by().and_then(side_of_user);
        let rematch_by = record.offers.rematch_by.as_deref().and_then(side_of_user);
        let can = match viewer_side {
            None => Allowed::default(),
            Some(side) if !over => Allowed {
                resign: true,
                draw_offer: game.draw_offer().is_none(),
                draw_claim: !self.adjourned && game.claimable_draw().is_some(),
                takeback: !self.adjourned
                    && !record.game.rated
                    && !in_tournament
                    && takeback_by.is_none()
                    && super::takeback::plies_kept(game, side).is_some(),
                abort: !in_tournament && game.can_abort(),
                give_time: correspondence && turn != side,
                rematch: false,
            },
            Some(side) => Allowed {
                rematch: !in_tournament
                    && record.offers.rematch_game_id.is_none()
                    && rematch_by != Some(side),
                ..Allowed::default()
            },
        };
        // While adjourned, only the sealer's board moves: the move it makes
        // is sealed, not played.
        let may_move = viewer_side.is_some_and(|side| {
            !over && side == turn && (!self.adjourned || self.sealing == Some((side, None)))
        });
        let position = game.position();
        let (dests, drops) = if may_move {
            // Only Crazyhouse drops: the others need no second move list.
            let drops = if position.pockets().is_some() {
                crate::chess::dests::legal_drops(position)
            } else {
                BTreeMap::new()
            };
            (crate::chess::dests::legal_destinations(position), drops)
        } else {
            (BTreeMap::new(), BTreeMap::new())
        };
        let variant = LiveVariant {
            key: game.variant().key(),
            name: game.variant().name(lang),
            pockets: position.pockets().map(|pockets| {
                [Color::White, Color::Black].map(|c| POCKET_ROLES.map(|role| pockets[c][role]))
            }),
            drops,
            checks_given: position.remaining_checks().map(|remaining| {
                [Color::White, Color::Black].map(|c| 3 - u8::from(remaining[c]).min(3))
            }),
        };
        let orientation = match viewer_side {
            Some(side) => {
                let pinned = players[color_index(side)]
                    .as_ref()
                    .is_some_and(|p| p.board_white);
                if pinned {
                    Color::White
                } else {
                    side
                }
            }
            None => Color::White,
        };
        let name = |c: Color| match c {
            Color::White => white.as_str(),
            Color::Black => black.as_str(),
        };
        let (status, end) = match game.ending() {
            None if self.adjourned => (
                match (&self.sealing, viewer_side) {
                    (Some((sealer, None)), Some(side)) if *sealer == side => {
                        t!(lang, "board-adjourned-seal-here")
                    }
                    (Some((sealer, Some(san))), Some(side)) if *sealer == side => {
                        t!(lang, "seal-yours", san = notation.write(san).into_owned())
                    }
                    _ => t!(
                        lang,
                        "board-adjourned",
                        name = name(turn),
                        color = crate::chess::color_text(lang, turn)
                    ),
                },
                None,
            ),
            None => (
                t!(
                    lang,
                    "board-to-move",
                    name = name(turn),
                    color = crate::chess::color_text(lang, turn)
                ),
                None,
            ),
            Some(ending) => {
                let text = ending.text(lang);
                let points = ratings
                    .iter()
                    .flat_map(|[w, b]| [(white.as_str(), w), (black.as_str(), b)])
                    .map(|(who, change)| {
                        let after = Points::from_hundredths(change.after);
                        let change = t!(
                            lang,
                            "board-points-change",
                            before = Points::from_hundredths(change.before).to_string(),
                            after = after.to_string(),
                            delta = Points::from_hundredths(change.delta).signed().to_string(),
                            level = after.level().name(lang)
                        );
                        format!("{who}: {change}")
                    })
                    .collect();
                (
                    text.clone(),
                    Some(LiveEnd {
                        result: ending.result.pgn().to_owned(),
                        text,
                        points,
                    }),
                )
            }
        };
        LiveView {
            game_id: record.id,
            server_id: record.game.server_id.clone(),
            channel_id: record.game.channel_id.clone(),
            version: record.version,
            ply: super::play::board_position(game),
            fen: game.fen(),
            turn,
            viewer: viewer_side,
            orientation,
            last_move: game.last_ply().map(|ply| {
                let (from, to) = super::view::move_squares(&ply.mv);
                (from.to_string(), to.to_string())
            }),
            // A mated king too, as the board's image and lichess show it.
            check: game.position().is_check(),
            dests,
            variant,
            moves: game
                .plies()
                .iter()
                .map(|p| notation.write(&p.san).into_owned())
                .collect(),
            opening: crate::chess::opening::classify(game).map(|o| o.text(lang)),
            clock,
            deadline_ms: if correspondence && !over {
                record.state.deadline_ms
            } else {
                None
            },
            players: [
                (white.clone(), shown_points(points[0])),
                (black.clone(), shown_points(points[1])),
            ],
            draw_offer: game.draw_offer(),
            takeback_by,
            rematch_by,
            rematch_game: record.offers.rematch_game_id,
            can,
            status,
            end,
            title: t!(lang, "web-title", white = &white, black = &black),
        }
    }
}

impl Service {
    /// Lets this process make links to the web board (a board message
    /// then carries Watch live and Play in browser).
    pub fn enable_web_links(&self, links: WebLinks) {
        let _ = self.inner.hub.links.set(links);
    }

    /// Lets board messages offer the board as a Discord Activity.
    pub fn enable_activity(&self) {
        let _ = self.inner.hub.activity.set(());
    }

    /// Whether the board runs as a Discord Activity.
    pub fn activity_enabled(&self) -> bool {
        self.inner.hub.activity.get().is_some()
    }

    /// The web board's links, if the web board is on.
    pub fn web_links(&self) -> Option<&WebLinks> {
        self.inner.hub.links.get()
    }

    /// Notices of changes to game `game_id` from now on (a notice only: read
    /// the game again with [`Service::live_view`]). A watcher that falls
    /// behind gets `Lagged`, which means the same thing.
    pub fn watch(&self, game_id: i64) -> broadcast::Receiver<()> {
        let mut games = self
            .inner
            .hub
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        games
            .entry(game_id)
            .or_insert_with(Watched::new)
            .changes
            .subscribe()
    }

    /// Notices that something a club page shows changed on a server (a
    /// notice only: read the page again). `None` in a notice: any server.
    pub fn club_changes(&self) -> broadcast::Receiver<Option<String>> {
        self.club_channel().subscribe()
    }

    fn club_channel(&self) -> &broadcast::Sender<Option<String>> {
        self.inner
            .hub
            .clubs
            .get_or_init(|| broadcast::channel(64).0)
    }

    /// Tells the club pages open on this process that `server` changed.
    pub(super) fn club_changed(&self, server: Option<&str>) {
        if let Some(clubs) = self.inner.hub.clubs.get() {
            let _ = clubs.send(server.map(str::to_owned));
        }
    }

    /// Tells this process's watchers of `game_id` that it changed (`None`:
    /// every game, after a listener lost its connection and may have missed
    /// notices).
    pub fn hear_change(&self, game_id: Option<i64>) {
        let mut games = self
            .inner
            .hub
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match game_id {
            Some(id) => {
                if let Some(watched) = games.get_mut(&id)
                    && !watched.changed(None)
                {
                    games.remove(&id);
                }
            }
            None => games.retain(|_, watched| watched.changed(None)),
        }
    }

    /// A change to the session's game was committed by [`Store::apply`],
    /// leaving it `game`: its watchers here are told and handed the state
    /// the commit wrote (nothing to read again). The other processes'
    /// watchers hear of it from the announcing task, after the commit.
    ///
    /// [`Store::apply`]: crate::store::Store::apply
    pub(super) async fn game_committed(
        &self,
        session: &Session,
        game: &crate::chess::Game,
        ratings: Option<[crate::store::RatingChangeRecord; 2]>,
    ) {
        let id = session.record.id;
        self.club_changed(Some(&session.record.game.server_id));
        let known = {
            let games = self
                .inner
                .hub
                .games
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            games.get(&id).map(|w| w.in_tournament)
        };
        // Watched here, and all a snapshot needs at hand: the players read
        // along for play, the server's settings read by this command.
        let snapshot = match (known, &session.read_along, session.settings_read()) {
            (Some(Some(in_tournament)), Some(read), Some(settings)) => Some(LiveSnapshot {
                record: session.record.clone(),
                game: game.clone(),
                players: read.players.clone(),
                ratings,
                notation: settings.notation.clone(),
                in_tournament,
                pauses: session.pauses(),
                adjourned: session.open_adjournment().is_some(),
                sealing: super::adjourn::sealing(session, game),
            }),
            _ => None,
        };
        match snapshot {
            Some(snapshot) => {
                let mut games = self
                    .inner
                    .hub
                    .games
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                if let Some(watched) = games.get_mut(&id)
                    && !watched.changed(Some(snapshot))
                {
                    games.remove(&id);
                }
                drop(games);
            }
            None => {
                // The club pages were told above, with the server.
                self.hear_change(Some(id));
            }
        }
        // The other processes (PostgreSQL): after the commit, by the
        // announcing task (`Store::apply` does not notify in its statement:
        // see `store/apply.rs`).
        self.announce(id);
    }

    /// A change to `game_id` was committed: its watchers here are told, and
    /// on PostgreSQL the other processes' (after the commit, in order, by
    /// one task, never holding up the answer).
    pub(super) fn game_changed(&self, game_id: i64) {
        // A change outside a command's commit (a time loss, a takeback, a
        // rematch): rare, and its server not at hand, so every club page
        // looks again.
        self.club_changed(None);
        self.hear_change(Some(game_id));
        self.announce(game_id);
    }

    /// Tells the other processes (PostgreSQL) that `game_id` changed.
    fn announce(&self, game_id: i64) {
        if self.store().backend() != Backend::Postgres {
            return;
        }
        let announcer = self.inner.hub.announcer.get_or_init(|| {
            let (sender, mut changes) = mpsc::unbounded_channel::<i64>();
            let store = self.store().clone();
            tokio::spawn(async move {
                let mut batch = Vec::new();
                let mut last_sent: Option<tokio::time::Instant> = None;
                // Whatever was committed while the last batch was on its
                // way, or within `ANNOUNCE_GAP` of it, goes in the next
                // one: one statement for all of them.
                while changes.recv_many(&mut batch, ANNOUNCE_BATCH).await > 0 {
                    if let Some(next) = last_sent.map(|at| at + ANNOUNCE_GAP)
                        && next > tokio::time::Instant::now() {
                            tokio::time::sleep_until(next).await;
                            while batch.len() < ANNOUNCE_BATCH {
                                match changes.try_recv() {
                                    Ok(id) => batch.push(id),
                                    Err(_) => break,
                                }
                            }
                        }
                    // A game changed twice meanwhile is announced once.
                    batch.sort_unstable();
                    batch.dedup();
                    last_sent = Some(tokio::time::Instant::now());
                    if let Err(e) = store.announce_changes(&batch).await {
                        tracing::warn!(games = ?batch, error = %e, "changes not announced to other processes");
                    }
                    batch.clear();
                }
            });
            sender
        });
        let _ = announcer.send(game_id);
    }

    /// Listens for the changes other processes announce (PostgreSQL) and
    /// tells this process's watchers; returns at once on SQLite (one
    /// process). Runs until the process ends.
    pub async fn listen_for_changes(&self) -> Result<(), ServiceError> {
        if self.store().backend() != Backend::Postgres {
            return Ok(());
        }
        let service = self.clone();
        self.store()
            .listen_changes(move |game| {
                // Another process's change: its server is not known here.
                service.club_changed(None);
                service.hear_change(game)
            })
            .await?;
        Ok(())
    }

    /// The game a channel or thread shows (its latest), for the board
    /// opened there as a Discord Activity.
    pub async fn game_in_channel(&self, channel: &str) -> Result<Option<i64>, ServiceError> {
        if channel.is_empty() {
            return Ok(None);
        }
        Ok(self.store().latest_game_in(channel).await?.map(|g| g.id))
    }

    /// Game `game_id` as `viewer` (a player, or `None`: a spectator) sees
    /// it on a live board, in `lang`; `None` if there is no such game.
    pub async fn live_view(
        &self,
        game_id: i64,
        viewer: Option<&str>,
        lang: Lang,
    ) -> Result<Option<LiveView>, ServiceError> {
        let Some(snapshot) = self.live_snapshot(game_id).await? else {
            return Ok(None);
        };
        Ok(Some(snapshot.view(viewer, lang, self.now_ms())))
    }

    /// What every viewer's [`LiveView`] of game `game_id` is made from, read
    /// once per change of the game however many pages watch it (kept while
    /// the game has watchers, until its next change).
    pub async fn live_snapshot(
        &self,
        game_id: i64,
    ) -> Result<Option<Arc<LiveSnapshot>>, ServiceError> {
        let cell = {
            let mut games = self
                .inner
                .hub
                .games
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            games
                .get_mut(&game_id)
                .map(|watched| watched.snapshot.clone())
        };
        let Some(cell) = cell else {
            return self.read_snapshot(game_id).await.map(|s| s.map(Arc::new));
        };
        let snapshot = cell
            .get_or_try_init(|| async {
                self.read_snapshot(game_id).await.map(|s| s.map(Arc::new))
            })
            .await?;
        Ok(snapshot.clone())
    }

    async fn read_snapshot(&self, game_id: i64) -> Result<Option<LiveSnapshot>, ServiceError> {
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        let session = self.load(record).await?;
        let players = self.players_for(&session).await?;
        let ratings = if session.game.is_over() {
            self.ratings_of(&session).await?
        } else {
            None
        };
        let notation = self.settings_of(&session).await?.notation.clone();
        let in_tournament = self
            .store()
            .tournament_of_game(session.record.id)
            .await?
            .is_some();
        if let Some(watched) = self
            .inner
            .hub
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&game_id)
        {
            watched.in_tournament = Some(in_tournament);
        }
        let pauses = session.pauses();
        let adjourned = session.open_adjournment().is_some();
        let sealing = super::adjourn::sealing(&session, &session.game);
        Ok(Some(LiveSnapshot {
            record: session.record,
            game: session.game,
            players,
            ratings,
            notation,
            in_tournament,
            pauses,
            adjourned,
            sealing,
        }))
    }

    /// The actor a live board's player acts as: the player in the game's
    /// own channel, in their stored language. `None` if `user` does not
    /// play game `game_id` or the game has no channel yet.
    pub async fn board_actor(
        &self,
        game_id: i64,
        user: &str,
    ) -> Result<Option<Actor>, ServiceError> {
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        if record.game.white_id != user && record.game.black_id != user {
            return Ok(None);
        }
        let Some(channel) = record.game.channel_id.clone() else {
            return Ok(None);
        };
        let row = self.store().player(&record.game.server_id, user).await?;
        Ok(Some(Actor {
            server: record.game.server_id.clone(),
            channel,
            user: user.to_owned(),
            name: row
                .as_ref()
                .map_or_else(|| user.to_owned(), |p| p.display_name.clone()),
            locale: row.and_then(|p| p.locale),
            server_locale: None,
            is_moderator: false,
        }))
    }

    /// A move from a live board: played only if game `game_id` is still
    /// the channel's game at `ply` plies, so a move sent twice (a page that
    /// reconnected) is applied once.
    pub(super) async fn play_board_move(
        &self,
        actor: &Actor,
        game_id: i64,
        ply: i64,
        text: &str,
    ) -> Result<super::Reply, ServiceError> {
        match self.store().active_game_in(&actor.channel).await? {
            Some(record) if record.id == game_id && record.game.server_id == actor.server => {}
            Some(_) | None => return refuse_msg(msg!("game-moved-on")),
        }
        let Ok(at) = usize::try_from(ply) else {
            return refuse_msg(msg!("game-moved-on"));
        };
        // The sealer's move on an adjourned game's board is sealed.
        if let Some(reply) = self.seal_from_board(actor, game_id, at, text).await? {
            return Ok(reply);
        }
        let (reply, moved) = self.play_move_at(actor, text, false, Some(at)).await?;
        match moved {
            Some(moved) => Ok(self.after_move(actor, reply, moved).await),
            None => Ok(reply),
        }
    }

    /// An action from a live board's buttons, as the same button on a
    /// Discord board (shown at `ply` plies).
    pub(super) async fn board_action(
        &self,
        actor: &Actor,
        game_id: i64,
        ply: i64,
        action: BoardAction,
    ) -> Result<super::Reply, ServiceError> {
        match action {
            BoardAction::Abort => self.abort_at(actor, Some((game_id, ply))).await,
            BoardAction::Button(action) => {
                let id = ButtonAction::Game {
                    id: game_id,
                    action,
                    version: ply,
                }
                .id();
                self.button(actor, &id).await
            }
        }
    }

    /// A press on Play in browser under a board of game `game_id`.
    pub(super) async fn browser_link_of(
        &self,
        actor: &Actor,
        game_id: i64,
    ) -> Result<super::Reply, ServiceError> {
        let record = match self.store().game(game_id).await? {
            Some(record) if record.game.server_id == actor.server => record,
            _ => return refuse_msg(msg!("game-not-found")),
        };
        let session = self.load(record).await?;
        self.browser_link(actor, &session)
    }

    /// The buttons a board message gets when the web board is on: Watch
    /// live (a link anyone may open) and Play in browser (answered with the
    /// presser's own link), or the game's page once it is over. `game` is
    /// the game as the board shows it (after a move or an ending), which the
    /// session's own may not be yet.
    pub(super) fn web_buttons(
        &self,
        session: &Session,
        game: &crate::chess::Game,
        lang: Lang,
    ) -> Vec<super::Button> {
        let Some(links) = self.web_links() else {
            return Vec::new();
        };
        let mut buttons = vec![super::Button {
            id: links.watch_url(session.record.id),
            label: t!(lang, "web-button-watch"),
            style: super::ButtonStyle::Link,
        }];
        if !game.is_over() {
            buttons.push(self.game_button(
                session,
                game,
                GameButton::Browser,
                &t!(lang, "web-button-play"),
                super::ButtonStyle::Secondary,
            ));
            if self.activity_enabled() {
                buttons.push(super::Button {
                    id: super::buttons::ACTIVITY_LAUNCH_ID.to_owned(),
                    label: t!(lang, "web-button-activity"),
                    style: super::ButtonStyle::Secondary,
                });
            }
        } else if let Some(url) = session
            .settings_read()
            .and_then(|s| self.club_url(s, &format!("/game/{}", session.record.id)))
        {
            buttons.push(super::Button {
                id: url,
                label: t!(lang, "web-button-page"),
                style: super::ButtonStyle::Link,
            });
        }
        buttons
    }

    /// A player's private link to their game's live board.
    pub(super) fn browser_link(
        &self,
        actor: &Actor,
        session: &Session,
    ) -> Result<super::Reply, ServiceError> {
        let Some(links) = self.web_links() else {
            return refuse_msg(msg!("web-off"));
        };
        session.side_of_actor(actor)?;
        let url = links.play_url(
            session.record.id,
            &actor.user,
            self.now_ms() + super::links::LINK_VALID_MS,
        );
        let lang = actor.lang();
        Ok(super::Reply {
            text: t!(lang, "web-link-private"),
            buttons: vec![super::Button {
                id: url,
                label: t!(lang, "web-button-play"),
                style: super::ButtonStyle::Link,
            }],
            ephemeral: true,
            ..super::Reply::default()
        })
    }
}
