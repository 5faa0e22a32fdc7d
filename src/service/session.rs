//! Game sessions: finding the game of a channel, rebuilding it from its
//! stored moves (with a cache keyed by version, so a busy game is not
//! replayed on every move), the per-game lock that serialises actions in this
//! process, and the one place where a changed game is committed.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex,
    },
};

use shakmaty::Color;

use super::{
    error::{refuse, refuse_msg, ServiceError},
    Actor, Service,
};
use crate::{
    chess::{color_index, color_name, Ending, Game, GameResult, Termination},
    msg,
    store::{
        Adjournment, Applied, GameChange, GameRecord, GameState, MoveRecord, Mover, PlayView,
        PlayerRecord, Score, ServerSettings, StoreError, Vacation, ViewCheck,
    },
    t,
};

/// Locks and cached games of this process.
#[derive(Default)]
pub(super) struct Sessions {
    locks: Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>,
    /// The last game rebuilt for each id, with the version it was rebuilt at.
    cache: Mutex<HashMap<i64, (i64, Game)>>,
    /// The game last found active in each channel: a hint that saves the
    /// channel lookup on every move. It is checked against the row read
    /// under the game's lock, so a stale hint only costs the lookup.
    channel_games: Mutex<HashMap<String, i64>>,
    /// What the last move in each game read along with it, brought up to
    /// the state that move committed (PostgreSQL, whose views carry
    /// stamps): the next move in the game is judged on it without reading,
    /// and its commit checks the stamps (`Store::apply_checked`).
    kept: Mutex<HashMap<i64, PlayView>>,
    /// Moves judged on a kept view: committed, and judged again on a fresh
    /// read because a stamp had changed or the view did not decide them.
    kept_used: AtomicU64,
    kept_stale: AtomicU64,
    /// Refusals decided on a kept view confirmed current
    /// ([`Service::confirm_kept`]) instead of on a fresh read.
    kept_confirmed: AtomicU64,
}

/// Upper bound on kept views; past it they start over (each is read again
/// on its game's next move).
const KEPT_VIEWS: usize = 100_000;

/// Upper bound on remembered channels; past it the hints start over.
const CHANNEL_HINTS: usize = 100_000;

/// A stored game and the rules object rebuilt from it.
pub(super) struct Session {
    pub record: GameRecord,
    pub game: Game,
    /// The server's settings, read at most once per command (see
    /// [`Service::settings_of`]).
    settings: tokio::sync::OnceCell<ServerSettings>,
    /// What was read along with the game, if it was read for play.
    pub read_along: Option<ReadAlong>,
    /// The move committed is a conditional answer: its player is not at
    /// the board, so a running vacation of theirs goes on.
    pub answer_in_advance: bool,
    /// The game's adjournments (封棋), oldest first.
    pub adjournments: Vec<Adjournment>,
    /// The move committed is the sealed move of this adjournment, played at
    /// the resumption (committed with the adjournment's close).
    pub resuming: Option<i64>,
    /// The session was made from a kept view, not read (see
    /// [`Sessions::kept`]): its commit checks the view's stamps, and the
    /// move path hands anything but a plain move back to a fresh read.
    pub kept: bool,
}

/// The players' rows and vacations read in the same query as the game
/// ([`PlayView`]).
pub(super) struct ReadAlong {
    /// White's and Black's ladder rows.
    pub players: [Option<PlayerRecord>; 2],
    /// White's and Black's vacations ending after `since_ms`.
    vacations: [Vec<Vacation>; 2],
    since_ms: i64,
    /// Whether a player had conditional moves stored for the game.
    pub conditional: bool,
    /// Whether vacations pause this game (a tournament may say no).
    pub vacations_pause: bool,
    /// The read's stamps (PostgreSQL).
    check: Option<ViewCheck>,
}

impl Session {
    /// The server's settings if this command has read them already.
    pub fn settings_read(&self) -> Option<&ServerSettings> {
        self.settings.get()
    }

    /// The adjournment still open (the game is adjourned), if any.
    pub fn open_adjournment(&self) -> Option<&Adjournment> {
        self.adjournments.last().filter(|a| a.is_open())
    }

    /// The last adjournment the game resumed from, if any.
    pub fn last_resumed(&self) -> Option<&Adjournment> {
        self.adjournments
            .iter()
            .rev()
            .find(|a| a.resumed_ms.is_some())
    }

    /// The times no clock ran: from each sealing to its resumption.
    pub fn pauses(&self) -> Vec<crate::clock::Pause> {
        self.adjournments
            .iter()
            .filter_map(|a| {
                Some(crate::clock::Pause {
                    from_ms: a.sealed_ms?,
                    to_ms: a.resumed_ms,
                })
            })
            .collect()
    }

    /// The colour `user` plays in this game, if any.
    pub fn side_of(&self, user: &str) -> Option<Color> {
        if self.record.game.white_id == user {
            Some(Color::White)
        } else if self.record.game.black_id == user {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The colour `actor` plays, or a clear refusal.
    pub fn side_of_actor(&self, actor: &Actor) -> Result<Color, ServiceError> {
        match self.side_of(&actor.user) {
            Some(side) => Ok(side),
            None => refuse_msg(msg!("game-not-playing")),
        }
    }

    pub fn player_id(&self, color: Color) -> &str {
        match color {
            Color::White => &self.record.game.white_id,
            Color::Black => &self.record.game.black_id,
        }
    }

    /// The vacations of `color`'s player that end after `since_ms`, if they
    /// were read along with the game (and the read covers `since_ms`).
    fn known_vacations(&self, color: Color, since_ms: i64) -> Option<Vec<Vacation>> {
        let read = self
            .read_along
            .as_ref()
            .filter(|r| r.since_ms <= since_ms)?;
        let all = &read.vacations[crate::chess::color_index(color)];
        Some(
            all.iter()
                .filter(|v| v.ends_ms > since_ms)
                .copied()
                .collect(),
        )
    }
}

impl Service {
    /// Takes the lock of one game (held across load → commit → reply).
    pub(super) async fn lock_game(&self, game_id: i64) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self
                .inner
                .sessions
                .locks
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            locks.entry(game_id).or_default().clone()
        };
        lock.lock_owned().await
    }

    /// The game this process last saw active in `channel`, if any.
    pub(super) fn channel_hint(&self, channel: &str) -> Option<i64> {
        let hints = self
            .inner
            .sessions
            .channel_games
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        hints.get(channel).copied()
    }

    pub(super) fn remember_channel(&self, channel: &str, game_id: i64) {
        let mut hints = self
            .inner
            .sessions
            .channel_games
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if hints.len() >= CHANNEL_HINTS {
            hints.clear();
        }
        hints.insert(channel.to_owned(), game_id);
    }

    /// Keeps `game` as the rebuilt game of `game_id` at `version` (after a
    /// change committed outside [`Service::commit`], e.g. a takeback).
    pub(super) fn remember_game(&self, game_id: i64, version: i64, game: &Game) {
        self.forget_kept(game_id);
        let mut cache = self
            .inner
            .sessions
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        cache.insert(game_id, (version, game.clone()));
    }

    /// The active game of the actor's channel, or a clear refusal.
    pub(super) async fn active_game_here(&self, actor: &Actor) -> Result<GameRecord, ServiceError> {
        if let Some(record) = self.store().active_game_in(&actor.channel).await? {
            return Ok(record);
        }
        // Asked in the wrong place: point to where the asker's game is.
        if let Some(pointer) = self.where_games_are(actor).await? {
            return refuse(pointer);
        }
        match self.store().latest_game_in(&actor.channel).await? {
            Some(finished) => {
                let lang = actor.lang();
                let ending = stored_ending(&finished.state)
                    .map_or_else(|| t!(lang, "game-finished"), |e| e.text(lang));
                refuse(t!(lang, "game-over-in-channel", ending = ending))
            }
            None => refuse_msg(msg!("game-none-in-progress")),
        }
    }

    /// Where the actor's games in progress on this server are, if they are
    /// in other channels: "Your game with bob is in its thread “alice vs
    /// bob” (<#…>): …", in the actor's language. Channels are written
    /// `<#id>`, which adapters show as a link (Discord) or `#name`
    /// (console).
    async fn where_games_are(&self, actor: &Actor) -> Result<Option<String>, ServiceError> {
        const SHOWN: i64 = 3;
        let games = self
            .store()
            .games_of(&actor.server, &actor.user, true, SHOWN + 1)
            .await?;
        let lang = actor.lang();
        let mut places = Vec::new();
        for g in &games {
            let Some(channel) = g.game.channel_id.as_deref() else {
                continue;
            };
            let white = self.name_in(&actor.server, &g.game.white_id, lang).await?;
            let black = self.name_in(&actor.server, &g.game.black_id, lang).await?;
            let opponent = if g.game.white_id == actor.user {
                &black
            } else {
                &white
            };
            // A thread is named once, in the server's language when the game
            // started (a tournament's with its round): Discord shows the
            // mention with the name it has now, so the name is not repeated.
            let place = if channel == g.game.home_channel_id {
                crate::t!(lang, "fixes-game-place-channel", channel = channel)
            } else {
                crate::t!(lang, "fixes-game-place-thread", channel = channel)
            };
            places.push((opponent.clone(), place));
        }
        Ok(match places.as_slice() {
            [] => None,
            [(opponent, place)] => Some(crate::t!(
                lang,
                "fixes-game-elsewhere-one",
                opponent = opponent.as_str(),
                place = place.as_str()
            )),
            many => Some(crate::t!(
                lang,
                "fixes-game-elsewhere-many",
                places = many
                    .iter()
                    .take(SHOWN as usize)
                    .map(|(opponent, place)| crate::t!(
                        lang,
                        "fixes-game-place-with",
                        opponent = opponent.as_str(),
                        place = place.as_str()
                    ))
                    .collect::<Vec<_>>()
                    .join(&crate::t!(lang, "settings-separator"))
            )),
        })
    }

    /// Rebuilds a game read for play, keeping what was read along with it.
    pub(super) async fn load_for_play(
        &self,
        view: PlayView,
        since_ms: i64,
    ) -> Result<Session, ServiceError> {
        let PlayView {
            record,
            settings,
            players,
            vacations,
            conditional,
            vacations_pause,
            adjourned,
            check,
        } = view;
        let mut session = self.load_with(record, Some(settings), adjourned).await?;
        session.read_along = Some(ReadAlong {
            players,
            vacations,
            since_ms,
            conditional,
            vacations_pause,
            check,
        });
        Ok(session)
    }

    /// The game of the actor's channel as this process kept it after its
    /// last move there (see [`Sessions::kept`]), locked; `None` if none is
    /// kept or it is not this channel's active game on the actor's server.
    pub(super) async fn kept_session(
        &self,
        actor: &Actor,
    ) -> Option<(tokio::sync::OwnedMutexGuard<()>, Session)> {
        let game_id = self.channel_hint(&actor.channel)?;
        if !lock_map(&self.inner.sessions.kept).contains_key(&game_id) {
            return None;
        }
        let guard = self.lock_game(game_id).await;
        // Taken under the lock: the move before may have replaced it.
        let view = lock_map(&self.inner.sessions.kept).get(&game_id).cloned()?;
        let record = &view.record;
        let holds = record.is_active()
            && record.game.server_id == actor.server
            && record.game.channel_id.as_deref() == Some(actor.channel.as_str());
        let since = view.check.as_ref()?.since_ms;
        if !holds {
            return None;
        }
        let mut session = self.load_for_play(view, since).await.ok()?;
        session.kept = true;
        Some((guard, session))
    }

    /// Makes a session made from a kept view as good as a fresh read, if
    /// none of the rows the view was read from has changed (one small
    /// statement instead of the read): a refusal is then decided on it.
    /// Otherwise [`ServiceError::KeptViewStale`], and the caller reads again.
    pub(super) async fn confirm_kept(&self, session: &mut Session) -> Result<(), ServiceError> {
        let check = session.read_along.as_ref().and_then(|r| r.check.as_ref());
        let current = match check {
            Some(check) => {
                self.store()
                    .view_is_current(session.record.id, check)
                    .await?
            }
            None => false,
        };
        if !current {
            return Err(ServiceError::KeptViewStale);
        }
        self.inner
            .sessions
            .kept_confirmed
            .fetch_add(1, Ordering::Relaxed);
        session.kept = false;
        Ok(())
    }

    /// The shown name of `color`'s player of the session's game, from the
    /// rows read along with it where it has them.
    pub(super) async fn player_name(
        &self,
        session: &Session,
        color: Color,
        lang: crate::i18n::Lang,
    ) -> Result<String, ServiceError> {
        let user = session.player_id(color);
        match session.read_along.as_ref() {
            Some(read) => Ok(super::shown_name(
                lang,
                user,
                read.players[color_index(color)]
                    .as_ref()
                    .map(|p| p.titled_name())
                    .as_deref(),
            )),
            None => {
                self.name_in(&session.record.game.server_id, user, lang)
                    .await
            }
        }
    }

    /// Moves judged on a kept view since the service started: `(used,
    /// stale)`, where `stale` ones were judged again on a fresh read.
    pub fn kept_view_stats(&self) -> (u64, u64) {
        let sessions = &self.inner.sessions;
        (
            sessions.kept_used.load(Ordering::Relaxed),
            sessions.kept_stale.load(Ordering::Relaxed),
        )
    }

    /// Attempts on a kept view that were not plain moves and were decided
    /// on it once it was confirmed current, without a read.
    pub fn kept_views_confirmed(&self) -> u64 {
        self.inner.sessions.kept_confirmed.load(Ordering::Relaxed)
    }

    /// The view of `game_id` this process keeps for its next move, if any
    /// (for tests: it must be what a read would give).
    #[doc(hidden)]
    pub fn kept_view(&self, game_id: i64) -> Option<PlayView> {
        lock_map(&self.inner.sessions.kept).get(&game_id).cloned()
    }

    /// Forgets the kept view of `game_id`: its next move reads it again.
    pub(super) fn forget_kept(&self, game_id: i64) {
        lock_map(&self.inner.sessions.kept).remove(&game_id);
    }

    /// Keeps what `session` read along with its game, at the state just
    /// committed with `applied`, for the game's next move; or forgets it
    /// when it cannot be kept: the game is over, the move ended the mover's
    /// vacation (its row changed), the game has adjournments (read apart),
    /// or there are no stamps (SQLite).
    fn keep_view(&self, session: &Session, applied: &Applied, keep: bool) {
        let id = session.record.id;
        if keep && self.keep_view_in_place(session, applied) {
            return;
        }
        let view = match (&session.read_along, session.settings_read(), &applied.stamp) {
            (Some(read), Some(settings), Some(stamp))
                if keep && session.adjournments.is_empty() && session.resuming.is_none() =>
            {
                read.check.as_ref().map(|check| PlayView {
                    record: {
                        let mut record = session.record.clone();
                        // Both read from the one column.
                        record.game.deadline_ms = record.state.deadline_ms;
                        record
                    },
                    settings: settings.clone(),
                    players: read.players.clone(),
                    vacations: read.vacations.clone(),
                    conditional: read.conditional,
                    vacations_pause: read.vacations_pause,
                    adjourned: false,
                    check: Some(ViewCheck {
                        game: stamp.clone(),
                        ..check.clone()
                    }),
                })
            }
            _ => None,
        };
        let mut kept = lock_map(&self.inner.sessions.kept);
        match view {
            Some(view) => {
                if kept.len() >= KEPT_VIEWS && !kept.contains_key(&id) {
                    kept.clear();
                }
                kept.insert(id, view);
            }
            None => {
                kept.remove(&id);
            }
        }
    }

    /// [`Service::keep_view`] for a change judged on the kept view itself and
    /// committed with its stamps checked (a plain move, the common case):
    /// the server's settings, the players' rows and their vacations are the
    /// ones kept, so only the game row's part (version, state, stamp) is
    /// written over, instead of copying all of it out of the session again.
    /// `false` (nothing done) if the view kept is not the one the session
    /// was made from, or the change was of another kind.
    fn keep_view_in_place(&self, session: &Session, applied: &Applied) -> bool {
        let (true, Some(read), Some(stamp)) = (session.kept, &session.read_along, &applied.stamp)
        else {
            return false;
        };
        if read.check.is_none()
            || !session.adjournments.is_empty()
            || session.resuming.is_some()
            || session.settings_read().is_none()
        {
            return false;
        }
        let record = &session.record;
        let mut kept = lock_map(&self.inner.sessions.kept);
        let Some(view) = kept.get_mut(&record.id) else {
            return false;
        };
        // The same stamps (the game row's included, which no other version
        // of the row shares) and the same fixed parts: the view the
        // session was made from, still as it was.
        let same = view.check == read.check
            && view.record.id == record.id
            && view.record.offers == record.offers
            && view.record.game == record.game;
        if !same {
            return false;
        }
        view.record.version = record.version;
        view.record.state.clone_from(&record.state);
        // Both read from the one column.
        view.record.game.deadline_ms = record.state.deadline_ms;
        if let Some(check) = view.check.as_mut() {
            check.game.clone_from(stamp);
        }
        true
    }

    /// Rebuilds a stored game.
    pub(super) async fn load(&self, record: GameRecord) -> Result<Session, ServiceError> {
        self.load_with(record, None, true).await
    }

    /// Rebuilds a stored game, with its server's settings if already read.
    async fn load_with(
        &self,
        record: GameRecord,
        settings: Option<ServerSettings>,
        adjourned: bool,
    ) -> Result<Session, ServiceError> {
        let cached = {
            let cache = self
                .inner
                .sessions
                .cache
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            cache
                .get(&record.id)
                .filter(|(version, _)| *version == record.version)
                .map(|(_, game)| game.clone())
        };
        let (game, settings) = match (cached, settings) {
            (Some(game), settings) => (game, settings),
            (None, Some(server)) => (self.replay(&record, &server).await?, Some(server)),
            (None, None) => {
                let server = self.store().server(&record.game.server_id).await?;
                (self.replay(&record, &server).await?, Some(server))
            }
        };
        let adjournments = if adjourned {
            // Boxed: every game load's future stays as small as it was.
            Box::pin(self.store().adjournments(record.id)).await?
        } else {
            Vec::new()
        };
        Ok(Session {
            record,
            game,
            settings: settings.map_or_else(tokio::sync::OnceCell::new, Into::into),
            read_along: None,
            answer_in_advance: false,
            adjournments,
            resuming: None,
            kept: false,
        })
    }

    /// The vacations of `color`'s player in `session` that end after
    /// `since_ms`: as read along with the game, else from the store.
    pub(super) async fn vacations_of(
        &self,
        session: &Session,
        color: Color,
        since_ms: i64,
    ) -> Result<Vec<Vacation>, ServiceError> {
        if let Some(known) = session.known_vacations(color, since_ms) {
            return Ok(known);
        }
        Ok(self
            .store()
            .vacations(
                &session.record.game.server_id,
                session.player_id(color),
                since_ms,
            )
            .await?)
    }

    /// Whether the players' vacations pause this game's deadlines: yes,
    /// unless it is a game of a tournament created with `vacations:false`.
    pub(super) async fn vacations_pause(&self, session: &Session) -> Result<bool, ServiceError> {
        match &session.read_along {
            Some(read) => Ok(read.vacations_pause),
            None => Ok(self.store().vacations_pause(session.record.id).await?),
        }
    }

    /// The settings of the session's server, read on first use.
    pub(super) async fn settings_of<'s>(
        &self,
        session: &'s Session,
    ) -> Result<&'s ServerSettings, ServiceError> {
        let server = &session.record.game.server_id;
        Ok(session
            .settings
            .get_or_try_init(|| self.store().server(server))
            .await?)
    }

    async fn replay(
        &self,
        record: &GameRecord,
        settings: &ServerSettings,
    ) -> Result<Game, ServiceError> {
        let moves = self.store().moves(record.id).await?;
        let mut game = Game::replay_in(
            record.game.variant,
            record.game.initial_fen.as_deref(),
            moves.iter().map(|m| (m.uci.as_str(), m.played_ms)),
        )
        .map_err(|e| ServiceError::Internal(format!("game {} does not replay: {e}", record.id)))?;
        game.set_strict_illegal_moves(settings.strict_illegal_moves);
        let draw_offer = match record.state.draw_offer.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        let ending = stored_ending(&record.state);
        game.restore(
            draw_offer,
            [
                u8::try_from(record.state.illegal_white).unwrap_or(u8::MAX),
                u8::try_from(record.state.illegal_black).unwrap_or(u8::MAX),
            ],
            ending,
        );
        Ok(game)
    }

    /// Commits `game` (the session's game after one action) with the move it
    /// added, if any. A stale version means another action got there first.
    ///
    /// On success the session's record is brought up to the committed
    /// version, so buttons built from it afterwards are current.
    pub(super) async fn commit(
        &self,
        session: &mut Session,
        game: &Game,
        new_move: bool,
    ) -> Result<Applied, ServiceError> {
        let now = self.now_ms();
        let ending = game.ending();
        let new_move = if new_move {
            game.last_ply().map(|ply| MoveRecord {
                ply: game.plies().len() as i64,
                uci: ply.uci.to_string(),
                san: ply.san.to_string(),
                played_ms: ply.at_ms,
            })
        } else {
            None
        };
        let [illegal_white, illegal_black] = game.illegal_king_moves();
        let deadline_ms = if ending.is_some() {
            None
        } else if new_move.is_some() {
            // The server's settings (reminder hours here, the board's theme
            // after the commit) and the vacations of the player now to move:
            // read along with the game for a move, else read side by side.
            let (deadline, settings) = tokio::join!(
                self.deadline_for(session, game, 0),
                self.settings_of(session)
            );
            settings?;
            deadline?
        } else {
            session.record.state.deadline_ms
        };
        let next_reminder_ms = if ending.is_some() {
            None
        } else if new_move.is_some() {
            self.next_reminder_for(session, game, deadline_ms, now)
                .await?
        } else {
            session.record.state.next_reminder_ms
        };
        let state = GameState {
            result: ending.map(|e| e.result.pgn().to_owned()),
            termination: ending.map(|e| e.termination.id().to_owned()),
            draw_offer: game
                .draw_offer()
                .map(|c| color_name(c).to_ascii_lowercase()),
            illegal_white: i64::from(illegal_white),
            illegal_black: i64::from(illegal_black),
            deadline_ms,
            next_reminder_ms,
            // Extra time belongs to one turn: a move ends it.
            bonus_ms: if new_move.is_some() {
                0
            } else {
                session.record.state.bonus_ms
            },
            ended_ms: ending.map(|_| now),
        };
        let rating = match ending {
            Some(e) if session.record.game.rated && e.is_rated_result() => {
                Some((score_of(e), super::ladder::settle as crate::store::Settle))
            }
            _ => None,
        };
        // The player who moved is back from any vacation.
        let mover = match &new_move {
            Some(_) if !session.answer_in_advance => {
                let color = !game.turn();
                let running = self
                    .vacations_of(session, color, now)
                    .await?
                    .iter()
                    .any(|v| v.starts_ms <= now && v.ends_ms > now);
                Some(Mover {
                    user_id: session.player_id(color).to_owned(),
                    vacation_running: running,
                })
            }
            _ => None,
        };
        let change = GameChange {
            game_id: session.record.id,
            expected_version: session.record.version,
            new_move,
            state: state.clone(),
            rating,
            mover,
            at_ms: now,
        };
        let started = std::time::Instant::now();
        // A session made from a kept view commits only if none of the rows
        // the view was read from has changed since.
        let kept_check = match (session.kept, &session.read_along) {
            (true, Some(read)) => read.check.as_ref(),
            _ => None,
        };
        let applied = match (session.resuming, kept_check) {
            (Some(adjournment), _) => self.store().resume_adjourned(&change, adjournment).await,
            (None, Some(check)) => self.store().apply_checked(&change, check).await,
            (None, None) => self.store().apply(&change).await,
        };
        let sessions = &self.inner.sessions;
        if session.kept {
            sessions.kept_used.fetch_add(1, Ordering::Relaxed);
        }
        self.inner
            .timings
            .record(super::timing::Stage::Commit, started);
        match applied {
            Ok(applied) => {
                if change.new_move.is_some() {
                    crate::metrics::move_applied();
                }
                {
                    let mut cache = self
                        .inner
                        .sessions
                        .cache
                        .lock()
                        .unwrap_or_else(|e| e.into_inner());
                    if ending.is_some() {
                        cache.remove(&session.record.id);
                    } else {
                        cache.insert(session.record.id, (applied.version, game.clone()));
                    }
                }
                session.record.version = applied.version;
                session.record.state = state;
                self.keep_view(
                    session,
                    &applied,
                    ending.is_none() && !applied.vacation_ended,
                );
                // Later changes in this command are checked by version alone.
                session.kept = false;
                if ending.is_some() {
                    // A tournament moves on when its games end.
                    self.tournament_game_ended(session.record.id);
                }
                self.game_committed(session, game, applied.ratings.clone())
                    .await;
                if change.new_move.is_some() && ending.is_none() {
                    // A move may end a session: the game is adjourned.
                    self.adjourn_if_session_over(session, game).await;
                }
                Ok(applied)
            }
            Err(StoreError::Conflict) if session.kept => {
                sessions.kept_stale.fetch_add(1, Ordering::Relaxed);
                self.forget_kept(session.record.id);
                Err(ServiceError::KeptViewStale)
            }
            Err(StoreError::Conflict) => refuse_msg(msg!("game-moved-on")),
            Err(e) => Err(e.into()),
        }
    }
}

/// Locks one of the sessions' maps (a panic elsewhere leaves it usable).
fn lock_map<T>(map: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    map.lock().unwrap_or_else(|e| e.into_inner())
}

/// The ending kept in a game row.
pub(super) fn stored_ending(state: &GameState) -> Option<Ending> {
    let result = GameResult::from_pgn(state.result.as_deref()?)?;
    let termination = Termination::from_id(state.termination.as_deref()?)?;
    Some(Ending {
        result,
        termination,
    })
}

fn score_of(ending: Ending) -> Score {
    match ending.result {
        GameResult::WhiteWins => Score::WhiteWins,
        GameResult::BlackWins => Score::BlackWins,
        GameResult::Draw | GameResult::NoResult => Score::Draw,
    }
}
