//! `/puzzle`: a puzzle near the player's puzzle points, answered with
//! `/move` while the attempt is open; the bot plays the other side's
//! replies; a wrong move ends the attempt and shows the solution; a hint
//! names the piece to move. Every ended attempt is rated, the solver
//! against the puzzle, with the club scheme (`store/puzzles.rs`), and the
//! points make a ladder apart from the games' (`/leaderboard puzzles`).
//!
//! Puzzle replies are private: a puzzle is the asker's own, and nobody
//! else's answer should spoil it. A server's pool starts with the starter
//! set (`assets/puzzles/starter.tsv`), loaded the first time it is asked
//! for.

use shakmaty::{
    san::SanPlus, uci::UciMove, CastlingMode, Chess, Color, EnPassantMode, Move, Position,
};

use super::{
    buttons::ButtonAction,
    error::{refuse, refuse_msg, ServiceError},
    ladder::points_text,
    Actor, Button, ButtonStyle, Card, Reply, Service,
};
use crate::{
    chess::{color_text, input::parse_move, input::piece_name, notation::Notation},
    i18n::Lang,
    msg,
    puzzle::{starter, Theme},
    rating::Points,
    render::{Frame, Theme as BoardTheme},
    store::{AttemptRecord, NewPuzzle, PuzzleRecord, StoreError},
    t,
};

/// How far from the player's puzzle points a puzzle may be (hundredths):
/// 200 points, two levels either side.
pub const NEAR_WINDOW: i64 = 20_000;
/// Puzzle-ladder rows per page.
const PAGE_SIZE: i64 = 10;
/// An answer this soon after an attempt ended is told so, rather than
/// that there is no game here.
const ENDED_RECENTLY_MS: i64 = 60 * 60 * 1000;

/// An attempt being solved: a rated one (`/puzzle`) or a day's (the
/// daily puzzle, `daily.rs`); answers, hints and the board work alike.
#[derive(Clone, Copy, Debug)]
pub(super) struct Open {
    pub puzzle_id: i64,
    /// Plies of the solution played.
    pub progress: i64,
    /// The daily puzzle's day, for a daily attempt.
    pub day: Option<i64>,
}

impl From<&AttemptRecord> for Open {
    fn from(a: &AttemptRecord) -> Open {
        Open {
            puzzle_id: a.puzzle_id,
            progress: a.progress,
            day: None,
        }
    }
}

/// A stored puzzle made ready to play: its start and the position after
/// `progress` plies.
struct Board {
    start: Chess,
    now: Chess,
    solution: Vec<Move>,
}

fn board_of(puzzle: &PuzzleRecord, progress: usize) -> Result<Board, ServiceError> {
    let broken = || ServiceError::Internal(format!("puzzle {} is damaged", puzzle.id));
    let start: Chess = puzzle
        .fen
        .parse::<shakmaty::fen::Fen>()
        .map_err(|_| broken())?
        .into_position(CastlingMode::Standard)
        .map_err(|_| broken())?;
    let mut position = start.clone();
    let mut solution = Vec::new();
    for uci in &puzzle.moves {
        let mv = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(&position).ok())
            .ok_or_else(broken)?;
        position.play_unchecked(mv);
        solution.push(mv);
    }
    let mut now = start.clone();
    for mv in solution.iter().take(progress) {
        now.play_unchecked(*mv);
    }
    Ok(Board {
        start,
        now,
        solution,
    })
}

fn notation(lang: Lang) -> Notation {
    match lang {
        Lang::ZhCn => Notation::Chinese,
        Lang::En => Notation::Letters,
    }
}

/// `mv` in `position`, as the reader writes moves.
fn san(lang: Lang, position: &Chess, mv: Move) -> String {
    let san = SanPlus::from_move(position.clone(), mv).to_string();
    notation(lang).write(&san).into_owned()
}

/// The moves from `position` numbered as a game's (`4. Qxf7#`, `4... Kd8`).
fn line_text(lang: Lang, position: &Chess, moves: &[Move]) -> String {
    let mut pos = position.clone();
    let mut out = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let number = pos.fullmoves();
        let text = san(lang, &pos, *mv);
        match (pos.turn(), i) {
            (Color::White, _) => out.push(format!("{number}. {text}")),
            (Color::Black, 0) => out.push(format!("{number}... {text}")),
            (Color::Black, _) => out.push(text),
        }
        pos.play_unchecked(*mv);
    }
    out.join(" ")
}

/// A puzzle's whole solution, numbered as a game's moves.
pub(super) fn solution_text(lang: Lang, puzzle: &PuzzleRecord) -> Result<String, ServiceError> {
    let board = board_of(puzzle, 0)?;
    Ok(line_text(lang, &board.start, &board.solution))
}

fn themes_text(lang: Lang, keys: &[String]) -> String {
    let names: Vec<String> = keys
        .iter()
        .filter_map(|k| Theme::from_key(k))
        .map(|theme| theme_name(lang, theme))
        .collect();
    names.join(match lang {
        Lang::ZhCn => "、",
        Lang::En => ", ",
    })
}

fn theme_name(lang: Lang, theme: Theme) -> String {
    match theme {
        Theme::MateIn1 => t!(lang, "puzzle-theme-mate-in-1"),
        Theme::MateIn2 => t!(lang, "puzzle-theme-mate-in-2"),
        Theme::MateIn3OrMore => t!(lang, "puzzle-theme-mate-in-3-plus"),
        Theme::Promotion => t!(lang, "puzzle-theme-promotion"),
        Theme::Material => t!(lang, "puzzle-theme-material"),
        Theme::Endgame => t!(lang, "puzzle-theme-endgame"),
        Theme::Fork => t!(lang, "puzzle-theme-fork"),
        Theme::Pin => t!(lang, "puzzle-theme-pin"),
    }
}

/// The hint button of puzzle `id`.
fn hint_button(lang: Lang, id: i64) -> Button {
    Button {
        id: ButtonAction::PuzzleHint { id }.id(),
        label: t!(lang, "puzzle-hint-button"),
        style: ButtonStyle::Secondary,
    }
}

impl Service {
    /// `/puzzle`: the open attempt again, or a new puzzle near the asker's
    /// puzzle points.
    pub(super) async fn puzzle(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let lang = actor.lang();
        let store = self.store();
        if let Some(open) = store.open_attempt(&actor.server, &actor.user).await? {
            let Some(puzzle) = store.puzzle(open.puzzle_id).await? else {
                return refuse_msg(msg!("puzzle-not-found"));
            };
            let text = t!(lang, "puzzle-still-open", id = puzzle.id);
            return self
                .puzzle_position(actor, &puzzle, open.progress, text)
                .await;
        }
        // One puzzle at a time: an open daily attempt is shown again.
        if let Some(reply) = self.daily_still_open(actor).await? {
            return Ok(reply);
        }
        if store.puzzle_count(&actor.server).await? == 0 {
            self.load_starter_set(&actor.server).await?;
        }
        let mine = store.puzzle_player(&actor.server, &actor.user).await?;
        let points = mine.as_ref().map_or(0, |p| p.points);
        let Some(puzzle) = store
            .puzzle_near(&actor.server, &actor.user, points, NEAR_WINDOW)
            .await?
        else {
            return refuse_msg(msg!(
                "puzzle-none-left",
                points = Points::from_hundredths(points).to_string()
            ));
        };
        let name = super::display_name(&actor.name);
        let attempt = match store
            .start_attempt(&actor.server, &actor.user, &name, puzzle.id, self.now_ms())
            .await
        {
            Ok(attempt) => attempt,
            // Another `/puzzle` of the same person got there first.
            Err(StoreError::Conflict) => return refuse_msg(msg!("puzzle-already-open")),
            Err(e) => return Err(e.into()),
        };
        let text = t!(
            lang,
            "puzzle-new",
            id = puzzle.id,
            points = Points::from_hundredths(puzzle.points).to_string()
        );
        self.puzzle_position(actor, &puzzle, attempt.progress, text)
            .await
    }

    /// Loads the starter set into `server`'s pool.
    pub(super) async fn load_starter_set(&self, server: &str) -> Result<(), ServiceError> {
        let found = starter::read(starter::STARTER)
            .map_err(|e| ServiceError::Internal(format!("the starter set: {e}")))?;
        let puzzles: Vec<NewPuzzle> = found
            .iter()
            .map(|f| NewPuzzle::found(f, "starter"))
            .collect();
        let added = self
            .store()
            .add_puzzles(server, &puzzles, self.now_ms())
            .await?;
        tracing::info!(server, added, "starter puzzles loaded");
        Ok(())
    }

    /// The position of an open attempt: the board from the solver's side,
    /// "White to play and win", the FEN, the hint button.
    pub(super) async fn puzzle_position(
        &self,
        actor: &Actor,
        puzzle: &PuzzleRecord,
        progress: i64,
        text: String,
    ) -> Result<Reply, ServiceError> {
        let lang = actor.lang();
        let board = board_of(puzzle, progress as usize)?;
        let solver = board.start.turn();
        let mut lines = vec![text];
        if progress > 0 {
            let played = &board.solution[..progress as usize];
            lines.push(t!(
                lang,
                "puzzle-so-far",
                line = line_text(lang, &board.start, played)
            ));
        }
        lines.push(t!(lang, "puzzle-to-play", color = color_text(lang, solver)));
        let image = self
            .puzzle_image(&actor.server, lang, &board.now, solver, None)
            .await?;
        let fen = shakmaty::fen::Fen::from_position(&board.now, EnPassantMode::Legal).to_string();
        Ok(Reply {
            text: lines.join("\n"),
            card: Some(Card {
                title: t!(lang, "puzzle-title", id = puzzle.id),
                fields: vec![("FEN".to_owned(), fen)],
                ..Card::default()
            }),
            image: Some(image),
            buttons: vec![hint_button(lang, puzzle.id)],
            ephemeral: true,
            ..Reply::default()
        })
    }

    pub(super) async fn puzzle_image(
        &self,
        server: &str,
        lang: Lang,
        position: &Chess,
        solver: Color,
        last: Option<Move>,
    ) -> Result<super::Image, ServiceError> {
        let settings = self.store().server(server).await?;
        let mut frame = Frame::from_position(position);
        frame.orientation = solver;
        frame.theme = BoardTheme::by_name(&settings.theme).unwrap_or_default();
        frame.last_move = last.and_then(|m| Some((m.from()?, m.to())));
        let mut image = self.draw_now((frame, "puzzle.png".to_owned()))?;
        let game = crate::chess::Game::from_fen(
            &shakmaty::fen::Fen::from_position(position, EnPassantMode::Legal).to_string(),
        )
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
        image.description = super::view::board_description(lang, &game);
        Ok(image)
    }

    /// The open attempt of `actor` (rated or daily), if `/move` should go
    /// to it: they have one and no game of theirs is being played in this
    /// channel.
    pub(super) async fn puzzle_for_move(
        &self,
        actor: &Actor,
    ) -> Result<Option<Open>, ServiceError> {
        let Some(open) = self.open_puzzle(actor).await? else {
            return Ok(None);
        };
        if self.plays_here(actor).await?.0 {
            return Ok(None);
        }
        Ok(Some(open))
    }

    /// The open attempt of `actor` (rated first, else the day's), wherever
    /// their games are.
    pub(super) async fn open_puzzle(&self, actor: &Actor) -> Result<Option<Open>, ServiceError> {
        let rated = self
            .store()
            .open_attempt(&actor.server, &actor.user)
            .await?;
        Ok(match rated {
            Some(attempt) => Some(Open::from(&attempt)),
            None => self.open_daily(actor).await?,
        })
    }

    /// Whether `actor` plays the game being played in their channel, and
    /// whether there is one at all.
    pub(super) async fn plays_here(&self, actor: &Actor) -> Result<(bool, bool), ServiceError> {
        Ok(match self.store().active_game_in(&actor.channel).await? {
            Some(game) => (
                game.game.white_id == actor.user || game.game.black_id == actor.user,
                true,
            ),
            None => (false, false),
        })
    }

    /// Legal moves (SAN) of the open puzzle position of `user`, for `/move`'s
    /// autocomplete; `None` when `/move` there goes to a game instead (or
    /// anything fails: no suggestions beat a failed box).
    pub async fn puzzle_move_suggestions(
        &self,
        server: &str,
        channel: &str,
        user: &str,
        prefix: &str,
        limit: usize,
    ) -> Option<Vec<String>> {
        let actor = Actor {
            server: server.to_owned(),
            channel: channel.to_owned(),
            user: user.to_owned(),
            name: String::new(),
            locale: None,
            server_locale: None,
            is_moderator: false,
        };
        let open = self.puzzle_for_move(&actor).await.ok()??;
        let puzzle = self.store().puzzle(open.puzzle_id).await.ok()??;
        let board = board_of(&puzzle, open.progress as usize).ok()?;
        Some(crate::chess::input::suggest(&board.now, prefix, limit))
    }

    /// Whether `actor`'s last attempt ended lately (a `/move` with no game
    /// and no open attempt is then an answer too late).
    pub(super) async fn puzzle_ended_lately(&self, actor: &Actor) -> Result<bool, ServiceError> {
        let latest = self
            .store()
            .latest_attempt(&actor.server, &actor.user)
            .await?;
        let now = self.now_ms();
        Ok(latest.is_some_and(|a| a.ended_ms.is_some_and(|end| now - end < ENDED_RECENTLY_MS)))
    }

    /// `/move` while a puzzle attempt (rated or daily) is open.
    pub(super) async fn puzzle_answer(
        &self,
        actor: &Actor,
        open: Open,
        text: &str,
    ) -> Result<Reply, ServiceError> {
        let lang = actor.lang();
        let Some(puzzle) = self.store().puzzle(open.puzzle_id).await? else {
            return refuse_msg(msg!("puzzle-not-found"));
        };
        let progress = open.progress as usize;
        let board = board_of(&puzzle, progress)?;
        let Some(&expected) = board.solution.get(progress) else {
            return Err(ServiceError::Internal(format!(
                "attempt at puzzle {} is past its solution",
                puzzle.id
            )));
        };
        // An unreadable or illegal move is not an answer: said, not rated.
        let played = match parse_move(&board.now, text) {
            Ok(mv) => mv,
            Err(e) => return refuse(e.text_in(lang, notation(lang))),
        };
        let mut after = board.now.clone();
        after.play_unchecked(played);
        let solver = board.start.turn();
        let played_text = san(lang, &board.now, played);
        // Any mating move is right (lichess's puzzles accept every mate).
        let right = played == expected || after.is_checkmate();
        let now = self.now_ms();
        if !right {
            let ended = self.finish_open(open, &puzzle, actor, false, now).await?;
            let rest = &board.solution[progress..];
            let mut end = board.now.clone();
            for mv in rest {
                end.play_unchecked(*mv);
            }
            let lines = [
                t!(lang, "puzzle-wrong", played = played_text),
                t!(
                    lang,
                    "puzzle-solution",
                    line = line_text(lang, &board.start, &board.solution)
                ),
                ended.result,
                t!(
                    lang,
                    "puzzle-themes",
                    themes = themes_text(lang, &puzzle.themes)
                ),
                ended.next,
            ];
            let image = self
                .puzzle_image(&actor.server, lang, &end, solver, rest.last().copied())
                .await?;
            return Ok(Reply {
                text: lines.join("\n"),
                image: Some(image),
                ephemeral: true,
                ..Reply::default()
            });
        }
        if progress + 1 >= board.solution.len() || after.is_checkmate() {
            let ended = self.finish_open(open, &puzzle, actor, true, now).await?;
            let lines = [
                t!(lang, "puzzle-solved", played = played_text),
                ended.result,
                t!(
                    lang,
                    "puzzle-themes",
                    themes = themes_text(lang, &puzzle.themes)
                ),
                ended.next,
            ];
            let image = self
                .puzzle_image(&actor.server, lang, &after, solver, Some(played))
                .await?;
            return Ok(Reply {
                text: lines.join("\n"),
                image: Some(image),
                ephemeral: true,
                ..Reply::default()
            });
        }
        // Right, and the line goes on: the bot plays the reply.
        let reply_move = board.solution[progress + 1];
        let reply_text = san(lang, &after, reply_move);
        let (from, to) = (progress as i64, progress as i64 + 2);
        let advanced = match open.day {
            None => {
                self.store()
                    .advance_attempt(puzzle.id, &actor.user, from, to)
                    .await
            }
            Some(day) => {
                self.store()
                    .advance_daily_attempt(&actor.server, day, &actor.user, from, to)
                    .await
            }
        };
        match advanced {
            Ok(()) => {}
            Err(StoreError::Conflict) => return refuse_msg(msg!("puzzle-moved-on")),
            Err(e) => return Err(e.into()),
        }
        let mut next = after.clone();
        next.play_unchecked(reply_move);
        let image = self
            .puzzle_image(&actor.server, lang, &next, solver, Some(reply_move))
            .await?;
        let fen = shakmaty::fen::Fen::from_position(&next, EnPassantMode::Legal).to_string();
        Ok(Reply {
            text: [
                t!(
                    lang,
                    "puzzle-right",
                    played = played_text,
                    reply = reply_text
                ),
                t!(lang, "puzzle-to-play", color = color_text(lang, solver)),
            ]
            .join("\n"),
            card: Some(Card {
                title: t!(lang, "puzzle-title", id = puzzle.id),
                fields: vec![("FEN".to_owned(), fen)],
                ..Card::default()
            }),
            image: Some(image),
            buttons: vec![hint_button(lang, puzzle.id)],
            ephemeral: true,
            ..Reply::default()
        })
    }

    /// Ends the attempt (a rated one is rated): the line saying what it
    /// brought and the one saying what next.
    async fn finish_open(
        &self,
        open: Open,
        puzzle: &PuzzleRecord,
        actor: &Actor,
        solved: bool,
        now: i64,
    ) -> Result<Ended, ServiceError> {
        if let Some(day) = open.day {
            return self
                .finish_daily(actor, day, open.progress, solved, now)
                .await;
        }
        let lang = actor.lang();
        let rated = match self
            .store()
            .finish_attempt(puzzle.id, &actor.user, open.progress, solved, now)
            .await
        {
            Ok(rated) => rated,
            Err(StoreError::Conflict) => return refuse_msg(msg!("puzzle-moved-on")),
            Err(e) => return Err(e.into()),
        };
        let after = Points::from_hundredths(rated.solver_points);
        let before = Points::from_hundredths(rated.solver_points - rated.delta);
        Ok(Ended {
            result: t!(
                lang,
                "puzzle-points",
                before = before.to_string(),
                change = signed(rated.delta),
                points = after.to_string(),
                level = after.level().name(lang)
            ),
            next: t!(lang, "puzzle-next"),
        })
    }

    /// The hint button: the piece to move, privately.
    pub(super) async fn puzzle_hint(&self, actor: &Actor, id: i64) -> Result<Reply, ServiceError> {
        let lang = actor.lang();
        let rated = self
            .store()
            .open_attempt(&actor.server, &actor.user)
            .await?
            .map(|a| Open::from(&a));
        let open = match rated {
            Some(open) => Some(open),
            None => self.open_daily(actor).await?,
        };
        let Some(open) = open.filter(|o| o.puzzle_id == id) else {
            return refuse_msg(msg!("puzzle-over"));
        };
        let Some(puzzle) = self.store().puzzle(id).await? else {
            return refuse_msg(msg!("puzzle-not-found"));
        };
        let progress = open.progress as usize;
        let board = board_of(&puzzle, progress)?;
        let Some(mv) = board.solution.get(progress) else {
            return refuse_msg(msg!("puzzle-over"));
        };
        match open.day {
            None => self.store().mark_hinted(id, &actor.user).await?,
            Some(day) => {
                self.store()
                    .mark_daily_hinted(&actor.server, day, &actor.user)
                    .await?
            }
        };
        let from = mv.from().map(|s| s.to_string()).unwrap_or_default();
        Ok(Reply::private(t!(
            lang,
            "puzzle-hint",
            piece = piece_name(lang, mv.role()),
            square = from
        )))
    }

    /// `/leaderboard puzzles`: the puzzle ladder.
    pub(super) async fn puzzle_leaderboard(
        &self,
        actor: &Actor,
        page: i64,
    ) -> Result<Reply, ServiceError> {
        if page < 1 {
            return refuse_msg(msg!("ladder-page-range", pages = 1));
        }
        let lang = self.server_lang(&actor.server).await;
        let offset = (page - 1) * PAGE_SIZE;
        let players = self
            .store()
            .puzzle_ladder(&actor.server, offset, PAGE_SIZE)
            .await?;
        if players.is_empty() {
            if page > 1 {
                return refuse_msg(msg!("puzzle-ladder-no-page", page = page));
            }
            return Ok(Reply::text(t!(lang, "puzzle-ladder-empty")));
        }
        let mut lines = vec![t!(lang, "puzzle-ladder-title", page = page)];
        for (i, p) in players.iter().enumerate() {
            lines.push(t!(
                lang,
                "puzzle-ladder-line",
                rank = offset + i as i64 + 1,
                name = &p.display_name,
                points = points_text(p.points, p.attempts),
                level = Points::from_hundredths(p.points).level().name(lang),
                solved = p.solved,
                attempts = p.attempts
            ));
        }
        Ok(Reply::text(lines.join("\n")))
    }

    /// The puzzle line of `/profile`, if the player has a rated attempt.
    pub(super) async fn puzzle_profile_line(
        &self,
        server: &str,
        user: &str,
        lang: Lang,
    ) -> Result<Option<String>, ServiceError> {
        let Some(p) = self.store().puzzle_player(server, user).await? else {
            return Ok(None);
        };
        if p.attempts == 0 {
            return Ok(None);
        }
        Ok(Some(t!(
            lang,
            "puzzle-profile-line",
            points = points_text(p.points, p.attempts),
            level = Points::from_hundredths(p.points).level().name(lang),
            solved = p.solved,
            attempts = p.attempts
        )))
    }
}

/// How an attempt ended, in words: its result (points, or the day's
/// streak) and what to do next.
pub(super) struct Ended {
    pub result: String,
    pub next: String,
}

/// A change with its sign: `+10`, `-11`, `0`.
fn signed(hundredths: i64) -> String {
    let shown = Points::from_hundredths(hundredths.abs()).to_string();
    match hundredths.signum() {
        1 => format!("+{shown}"),
        -1 => format!("-{shown}"),
        _ => shown,
    }
}
