//! Moving a tournament on: the start (pairing numbers, the first round),
//! then after every game that ends the step the core decides (the next
//! round, the next game of a knockout match, the end with the final
//! standings).
//!
//! Steps run when a tournament game ends (in the background, after the
//! ending is committed), after a moderator's result or a withdrawal, and on
//! every scheduler tick for any tournament with nothing pending (so a step
//! a crash interrupted is finished at the next tick, and a start time is
//! kept). Each step is one compare-and-set transaction in the store: with
//! several processes, or a step tried twice, a round is paired once.
//!
//! Each new game is announced in the tournament's channel and gets a
//! thread of its own, opened by the adapter (a notice with
//! [`OpenThread`]); games whose thread was never opened (a crash in
//! between) are offered again at start-up.

use super::{view::entrant_label, Loaded};
use crate::{
    i18n::{join_sentences, Lang},
    msg,
    service::{
        error::{refuse_msg, ServiceError},
        Actor, Notice, OpenThread, Reply, Service, TournamentRef,
    },
    store::{GameRecord, NewBoard, NewGame, Seeding, StoreError, TournamentStatus},
    t,
    tournament::{
        berger::snake_groups,
        event::{
            next::{self, Step},
            Board, Format,
        },
        model::Colour,
    },
};

/// The most boards an announcement lists; the rest are in `/tournament
/// pairings`.
const ANNOUNCED_BOARDS: usize = 30;

impl Service {
    /// A colour drawn by lot.
    fn coin(&self) -> Colour {
        if self.draw_lot() {
            Colour::White
        } else {
            Colour::Black
        }
    }

    pub(super) async fn start_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
    ) -> Result<Reply, ServiceError> {
        self.moderators_only(actor)?;
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.clone();
        let name = name.as_str();
        match t.record.status {
            TournamentStatus::Open => {}
            TournamentStatus::Running | TournamentStatus::Paused => {
                return refuse_msg(msg!("tournament-started-already", name = name))
            }
            _ => return refuse_msg(msg!("tournament-over", name = name)),
        }
        let field = if t.format() == Format::Team {
            t.entrants
                .iter()
                .filter_map(|e| e.section.as_ref())
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        } else {
            t.entrants.len()
        };
        if field < 2 {
            return refuse_msg(if t.format() == Format::Team {
                msg!("tournament-start-teams", name = name)
            } else {
                msg!("tournament-start-few", name = name, count = field)
            });
        }
        let _guard = self.lock_tournament(t.record.id).await;
        match self.begin(t).await? {
            Some((reply, threads)) => {
                for n in threads {
                    self.post(n);
                }
                Ok(reply)
            }
            None => refuse_msg(msg!("tournament-started-already", name = name)),
        }
    }

    /// Starts an open tournament: pairing numbers by club points, then name
    /// (SPEC §4: seeded by club points), groups by snake seeding, and the
    /// first boards. The announcement and the threads to open; `None` if
    /// another process started it first.
    async fn begin(&self, mut t: Loaded) -> Result<Option<(Reply, Vec<Notice>)>, ServiceError> {
        let format = t.format();
        if format == Format::Team {
            // Teams in the order given, players in board order.
            t.entrants.sort_by_key(|e| e.joined_ms);
        } else {
            t.entrants.sort_by(|a, b| {
                b.points
                    .cmp(&a.points)
                    .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
                    .then_with(|| a.user_id.cmp(&b.user_id))
            });
        }
        for (i, e) in t.entrants.iter_mut().enumerate() {
            e.pno = Some(i as i64 + 1);
        }
        if format == Format::Groups {
            let seeds: Vec<u32> = (1..=t.entrants.len() as u32).collect();
            let groups = snake_groups(&seeds, t.record.tournament.groups_count.max(1) as usize);
            for (g, members) in groups.iter().enumerate() {
                let letter = char::from(b'A' + (g as u8 % 26)).to_string();
                for &pno in members {
                    t.entrants[pno as usize - 1].section = Some(letter.clone());
                }
            }
        }
        let event = t.event();
        let all_at_once = t.record.tournament.schedule == "all";
        let boards = match next::start(&event, all_at_once, &mut || self.coin()) {
            Ok(boards) => boards,
            Err(why) => {
                tracing::error!(
                    tournament = t.record.id,
                    why,
                    "the first round cannot be paired"
                );
                return refuse_msg(msg!("tournament-cannot-pair", reason = why));
            }
        };
        let seeding: Vec<Seeding> = t
            .entrants
            .iter()
            .map(|e| Seeding {
                user_id: e.user_id.clone(),
                pno: e.pno.unwrap_or(0),
                section: e.section.clone(),
            })
            .collect();
        let rounds = i64::from(event.planned_rounds());
        let paired = boards.iter().map(|b| i64::from(b.round)).max().unwrap_or(1);
        let new_boards = self.new_boards(&t, &boards).await?;
        let games = match self
            .store()
            .start_tournament(t.record.id, rounds, paired, &seeding, &new_boards)
            .await
        {
            Ok(games) => games,
            Err(StoreError::Conflict) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let Some(t) = self.load_tournament(t.record.id).await? else {
            return Ok(None);
        };
        let lang = self.server_lang(&t.record.tournament.server_id).await;
        let started = t!(
            lang,
            "tournament-started",
            name = t.record.tournament.name.as_str(),
            players = t.entrants.len(),
            rounds = rounds
        );
        let (mut reply, threads) = self.announce_boards(&t, lang, &boards, games).await?;
        reply.text = join_sentences(lang, [started, reply.text]);
        Ok(Some((reply, threads)))
    }

    /// Runs tournament `id`'s next step in the background (after a game
    /// ends, a result is set, a player withdraws), posting what it says.
    pub(in crate::service) fn advance_later(&self, id: i64) {
        let service = self.clone();
        self.spawn_background(async move {
            match service.advance_tournament(id).await {
                Ok(notices) => notices.into_iter().for_each(|n| service.post(n)),
                Err(e) => tracing::error!(tournament = id, error = %e, "tournament step failed"),
            }
        });
    }

    /// After a game ended: its tournament's next step, if it is in one.
    pub(in crate::service) fn tournament_game_ended(&self, game_id: i64) {
        let service = self.clone();
        self.spawn_background(async move {
            match service.store().tournament_of_game(game_id).await {
                Ok(Some((id, _))) => service.advance_later(id),
                Ok(None) => {}
                Err(e) => tracing::error!(game_id, error = %e, "looking up a game's tournament"),
            }
        });
    }

    /// The scheduler's part: every tournament with something to do (a
    /// round over, a start time come) takes its steps.
    pub(in crate::service) async fn tournament_tick(
        &self,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let mut notices = Vec::new();
        for id in self.store().tournaments_due(now).await? {
            notices.extend(self.advance_tournament(id).await?);
        }
        Ok(notices)
    }

    /// At start-up: tournament games still waiting for their thread.
    pub(in crate::service) async fn reopen_tournament_threads(
        &self,
    ) -> Result<Vec<Notice>, ServiceError> {
        let mut notices = Vec::new();
        for game_id in self.store().tournament_games_without_place().await? {
            let Some(record) = self.store().game(game_id).await? else {
                continue;
            };
            let Some((id, board)) = self.store().tournament_of_game(game_id).await? else {
                continue;
            };
            let Some(t) = self.load_tournament(id).await? else {
                continue;
            };
            let lang = self.server_lang(&t.record.tournament.server_id).await;
            notices.push(thread_notice(&t, lang, &record, board.round));
        }
        Ok(notices)
    }

    /// Takes the steps tournament `id` is due, one after another.
    pub(super) async fn advance_tournament(&self, id: i64) -> Result<Vec<Notice>, ServiceError> {
        let notices = self.advance_steps(id).await?;
        if !notices.is_empty() {
            // A round paired, a tournament started or ended: its page shows it.
            if let Some(t) = self.store().tournament(id).await? {
                self.club_changed(Some(&t.tournament.server_id));
            }
        }
        Ok(notices)
    }

    async fn advance_steps(&self, id: i64) -> Result<Vec<Notice>, ServiceError> {
        let _guard = self.lock_tournament(id).await;
        let mut notices = Vec::new();
        // A step rarely leads straight to another (a round of byes only);
        // a bound keeps a surprise from looping.
        for _ in 0..4 {
            let Some(t) = self.load_tournament(id).await? else {
                break;
            };
            let lang = self.server_lang(&t.record.tournament.server_id).await;
            let channel = Some(t.record.tournament.channel_id.clone());
            let say = |reply: Reply| Notice {
                channel: channel.clone(),
                dm_user: None,
                reply,
            };
            match t.record.status {
                TournamentStatus::Open => {
                    let due = t
                        .record
                        .tournament
                        .starts_ms
                        .is_some_and(|at| at <= self.now_ms());
                    if !due {
                        break;
                    }
                    if t.entrants.len() < 2 {
                        let cancelled = self
                            .store()
                            .set_tournament_status(
                                id,
                                &[TournamentStatus::Open],
                                TournamentStatus::Cancelled,
                                self.now_ms(),
                            )
                            .await?;
                        if cancelled {
                            let name = t.record.tournament.name.as_str();
                            notices.push(say(Reply::text(t!(
                                lang,
                                "tournament-start-time-few",
                                name = name,
                                count = t.entrants.len()
                            ))));
                        }
                        break;
                    }
                    match self.begin(t).await {
                        Ok(Some((reply, threads))) => {
                            notices.push(say(reply));
                            notices.extend(threads);
                        }
                        Ok(None) => break,
                        Err(ServiceError::User(e)) => {
                            notices.push(say(Reply::text(e.0.text(lang))));
                            break;
                        }
                        Err(e) => return Err(e),
                    }
                    continue;
                }
                TournamentStatus::Running => {}
                _ => break,
            }
            let event = t.event();
            match next::next(&event, &mut || self.coin()) {
                Step::Wait => break,
                Step::Pair { round, boards } => {
                    match self.place_boards(&t, lang, &boards, Some(round)).await? {
                        Some((reply, threads)) => {
                            notices.push(say(reply));
                            notices.extend(threads);
                        }
                        None => break,
                    }
                }
                Step::Add(boards) => match self.place_boards(&t, lang, &boards, None).await? {
                    Some((reply, threads)) => {
                        notices.push(say(reply));
                        notices.extend(threads);
                    }
                    None => break,
                },
                Step::Finished | Step::Stuck(_) => {
                    let ended = self
                        .store()
                        .set_tournament_status(
                            id,
                            &[TournamentStatus::Running],
                            TournamentStatus::Finished,
                            self.now_ms(),
                        )
                        .await?;
                    if !ended {
                        break;
                    }
                    let Some(t) = self.load_tournament(id).await? else {
                        break;
                    };
                    let mut reply = self.final_standings(&t, lang)?;
                    if let Step::Stuck(why) = next::next(&t.event(), &mut || self.coin()) {
                        tracing::warn!(tournament = id, why, "a round could not be paired");
                        let stuck = t!(lang, "tournament-stuck", reason = why);
                        reply.text = join_sentences(lang, [stuck, reply.text]);
                    }
                    notices.push(say(reply));
                    break;
                }
            }
        }
        Ok(notices)
    }

    /// Writes new boards and their games (as round `round`, or added to
    /// the current round) and announces them; `None` if another writer got
    /// there first.
    async fn place_boards(
        &self,
        t: &Loaded,
        lang: Lang,
        boards: &[Board],
        round: Option<u32>,
    ) -> Result<Option<(Reply, Vec<Notice>)>, ServiceError> {
        let new_boards = self.new_boards(t, boards).await?;
        let id = t.record.id;
        let written = match round {
            Some(round) => {
                self.store()
                    .pair_tournament_round(id, i64::from(round), &new_boards)
                    .await
            }
            None => self.store().add_tournament_boards(id, &new_boards).await,
        };
        let games = match written {
            Ok(games) => games,
            Err(StoreError::Conflict) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        Ok(Some(self.announce_boards(t, lang, boards, games).await?))
    }

    /// The rows to write for `boards`: a game for each board still to be
    /// played, the result for a bye or forfeit.
    async fn new_boards(
        &self,
        t: &Loaded,
        boards: &[Board],
    ) -> Result<Vec<NewBoard>, ServiceError> {
        let tt = &t.record.tournament;
        let now = self.now_ms();
        let deadline = if tt.first_move_ms > 0 {
            Some(now + tt.first_move_ms)
        } else {
            crate::service::time::first_deadline(&tt.time_control, now)
        };
        // The first reminder is written with the game, in the round's one
        // transaction (correspondence only, as for any game).
        let settings = self.store().server(&tt.server_id).await?;
        let correspondence = matches!(
            tt.time_control.parse::<crate::clock::TimeControl>(),
            Ok(crate::clock::TimeControl::Correspondence(_))
        );
        let first_reminder_ms =
            crate::service::time::next_reminder_at(deadline, now, &settings.reminder_hours, now)
                .filter(|_| correspondence);
        let user = |pno| {
            t.user_of(pno)
                .map_or_else(String::new, |e| e.user_id.clone())
        };
        let starts = self.round_starts_for(t, boards, now).await?;
        Ok(boards
            .iter()
            .map(|b| {
                let white_id = user(b.white);
                let black_id = b.black.map(user);
                let game = match (&black_id, b.result) {
                    (Some(black), None) => Some(NewGame {
                        server_id: tt.server_id.clone(),
                        home_channel_id: tt.channel_id.clone(),
                        // Its own thread, opened by the adapter.
                        channel_id: None,
                        white_id: white_id.clone(),
                        black_id: black.clone(),
                        rated: tt.rated,
                        time_control: tt.time_control.clone(),
                        initial_fen: starts
                            .get(&b.round)
                            .and_then(|&n| crate::chess::chess960::start_fen(n)),
                        variant: tt.variant,
                        start_number: starts.get(&b.round).copied(),
                        deadline_ms: deadline,
                        created_ms: now,
                    }),
                    _ => None,
                };
                NewBoard {
                    round: i64::from(b.round),
                    board: i64::from(b.board),
                    game_no: i64::from(b.game_no),
                    white_id,
                    black_id,
                    result: b.result.map(|r| r.id().to_owned()),
                    first_reminder_ms: game.as_ref().and(first_reminder_ms),
                    game,
                }
            })
            .collect())
    }

    /// The start position of each round among `boards` in a Chess960
    /// event: the one on record, or one drawn by lot now and recorded, so
    /// every board of a round starts from the same position. Empty for
    /// standard chess.
    async fn round_starts_for(
        &self,
        t: &Loaded,
        boards: &[Board],
        now: i64,
    ) -> Result<std::collections::BTreeMap<u32, u16>, ServiceError> {
        let mut starts = std::collections::BTreeMap::new();
        if !t.record.tournament.variant.numbered_starts() {
            return Ok(starts);
        }
        for round in boards.iter().map(|b| b.round) {
            if starts.contains_key(&round) {
                continue;
            }
            let drawn = self.draw_number(crate::chess::chess960::POSITIONS);
            let number = self
                .store()
                .round_start(t.record.id, i64::from(round), drawn, now)
                .await?;
            starts.insert(round, number);
        }
        Ok(starts)
    }

    /// Announces new boards (with the paired players mentioned), and the
    /// threads their games need.
    async fn announce_boards(
        &self,
        t: &Loaded,
        lang: Lang,
        boards: &[Board],
        games: Vec<GameRecord>,
    ) -> Result<(Reply, Vec<Notice>), ServiceError> {
        let armed = games;
        let name = t.record.tournament.name.as_str();
        let knockout = t.format() == Format::Knockout;
        let tt = &t.record.tournament;
        // A knockout game past these is a sudden-death game.
        let regular_games = u32::try_from(tt.match_games + 2 * tt.decider_pairs).unwrap_or(0);
        let rounds: std::collections::BTreeSet<u32> = boards.iter().map(|b| b.round).collect();
        let head = match (rounds.iter().next(), rounds.len()) {
            (Some(&round), 1) if knockout && boards.iter().all(|b| b.game_no > 1) => {
                t!(lang, "tournament-match-games", name = name, round = round)
            }
            (Some(&round), 1) => t!(
                lang,
                "tournament-round-paired",
                name = name,
                round = round,
                rounds = t.record.tournament.rounds
            ),
            _ => t!(
                lang,
                "tournament-all-paired",
                name = name,
                count = armed.len()
            ),
        };
        let mut lines = vec![head];
        if tt.variant.numbered_starts() {
            // The round's start, drawn by lot: one line a round.
            for (round, number) in self.store().round_starts(t.record.id).await? {
                if u32::try_from(round).is_ok_and(|r| rounds.contains(&r)) {
                    lines.push(t!(
                        lang,
                        "tournament-round-start",
                        round = round,
                        start = tt.variant.with_start(lang, Some(number))
                    ));
                }
            }
        }
        let mut mentions = Vec::new();
        // A player with the bye has no game to be told of, but is told all
        // the same (after the players of the games): a pairing they take
        // no part in is still news of their tournament.
        let mut byes = Vec::new();
        for b in boards.iter().take(ANNOUNCED_BOARDS) {
            let white = entrant_label(t, b.white);
            lines.push(match b.black {
                None => {
                    byes.extend(t.user_of(b.white).map(|e| e.user_id.clone()));
                    t!(lang, "tournament-line-bye", player = white)
                }
                Some(black) => {
                    let black = entrant_label(t, black);
                    match b.result {
                        Some(r) => t!(
                            lang,
                            "tournament-line-forfeit",
                            board = b.board,
                            white = white,
                            black = black,
                            result = super::direct::result_text(r)
                        ),
                        None if knockout && b.game_no > regular_games => t!(
                            lang,
                            "tournament-line-sudden-death",
                            board = b.board,
                            game = b.game_no,
                            white = white,
                            black = black
                        ),
                        None if knockout => t!(
                            lang,
                            "tournament-line-match-game",
                            board = b.board,
                            game = b.game_no,
                            white = white,
                            black = black
                        ),
                        None if rounds.len() > 1 => t!(
                            lang,
                            "tournament-line-round-board",
                            round = b.round,
                            board = b.board,
                            white = white,
                            black = black
                        ),
                        None => t!(
                            lang,
                            "tournament-line-board",
                            board = b.board,
                            white = white,
                            black = black
                        ),
                    }
                }
            });
        }
        if boards.len() > ANNOUNCED_BOARDS {
            lines.push(t!(
                lang,
                "tournament-more-boards",
                count = boards.len() - ANNOUNCED_BOARDS
            ));
        }
        if !armed.is_empty() {
            lines.push(t!(lang, "tournament-threads-note"));
        }
        let players = armed
            .iter()
            .flat_map(|g| [&g.game.white_id, &g.game.black_id])
            .chain(&byes);
        for id in players {
            if !mentions.contains(id) {
                mentions.push(id.clone());
            }
        }
        let threads = armed
            .iter()
            .map(|g| {
                let round = boards
                    .iter()
                    .find(|b| {
                        t.user_of(b.white)
                            .is_some_and(|e| e.user_id == g.game.white_id)
                            && b.black.and_then(|x| t.user_of(x)).map(|e| &e.user_id)
                                == Some(&g.game.black_id)
                    })
                    .map_or(1, |b| b.round);
                thread_notice(t, lang, g, i64::from(round))
            })
            .collect();
        Ok((
            Reply {
                text: lines.join("\n"),
                mentions,
                ..Reply::default()
            },
            threads,
        ))
    }
}

/// A request to open a game's thread in the tournament's channel (no
/// message of its own: the round's announcement says it all).
fn thread_notice(t: &Loaded, lang: Lang, game: &GameRecord, round: i64) -> Notice {
    let name_of = |user: &str| {
        t.entrant(user)
            .map_or_else(|| user.to_owned(), |e| t.titled_name(e))
    };
    Notice {
        channel: Some(t.record.tournament.channel_id.clone()),
        dm_user: None,
        reply: Reply {
            open_thread: Some(OpenThread {
                game_id: game.id,
                name: t!(
                    lang,
                    "tournament-thread-name",
                    name = t.record.tournament.name.as_str(),
                    round = round,
                    white = name_of(&game.game.white_id),
                    black = name_of(&game.game.black_id)
                ),
            }),
            ..Reply::default()
        },
    }
}
