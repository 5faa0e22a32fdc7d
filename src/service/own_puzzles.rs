//! Puzzles from a player's own mistakes: once `/analyze` has judged a
//! stored game, each mistake or blunder of a player (not the computer)
//! made where a winning line was there to be found becomes a "find the
//! better move" puzzle for that player alone: the position before the
//! mistake, screened and cooked with the same rules as every puzzle
//! ([`crate::puzzle::probe`], [`crate::engine::puzzles::cook`]), from the
//! evaluations the analysis stored. `/puzzle source:mine` gives them, oldest
//! first; they are rated as any puzzle, and never given to anyone else.

use shakmaty::{Color, Position};

use super::{
    analyze::{chess_positions, score_of},
    error::{refuse_msg, ServiceError},
    session::Session,
    Actor, Reply, Service,
};
use crate::{
    engine::{
        analysis::{review, Judgement},
        puzzles::{cook, PuzzleLimits},
        Engine, Level, Score,
    },
    i18n::Lang,
    msg,
    puzzle::{probe, Found},
    store::{NewPuzzle, StoreError},
    t,
};

/// The source of the puzzles from game `id`'s mistakes.
fn source(game_id: i64) -> String {
    format!("mistake:{game_id}")
}

/// `score` (White's view) from `side`'s.
fn seen_by(score: Score, side: Color) -> Score {
    match side {
        Color::White => score,
        Color::Black => score.flip(),
    }
}

impl Service {
    /// After the analysis of `session`'s game: the puzzles of its players'
    /// mistakes, stored for each of them. Engine trouble is logged, not
    /// fatal: the analysis itself is done.
    pub(super) async fn puzzles_from_mistakes(&self, session: &Session, engine: &Engine) {
        if let Err(e) = self.try_puzzles_from_mistakes(session, engine).await {
            tracing::warn!(game_id = session.record.id, error = %e, "no puzzles from the game's mistakes");
        }
    }

    async fn try_puzzles_from_mistakes(
        &self,
        session: &Session,
        engine: &Engine,
    ) -> Result<(), ServiceError> {
        if session.game.variant() != crate::chess::Variant::Standard {
            // Puzzles are standard chess (see `mining.rs`).
            return Ok(());
        }
        let game_id = session.record.id;
        let evals = self.store().evals(game_id).await?;
        let positions = chess_positions(&session.game);
        if evals.len() != positions.len() {
            return Ok(());
        }
        let scores: Vec<Score> = evals.iter().map(score_of).collect();
        let judged = review(session.game.initial_position().turn(), &scores);
        let limits = PuzzleLimits::default();
        for m in judged.moves {
            if m.judgement < Some(Judgement::Mistake) {
                continue;
            }
            let player = session.player_id(m.mover).to_owned();
            if Level::of_player(&player).is_some() {
                continue;
            }
            let Some(position) = positions.get(m.ply) else {
                continue;
            };
            // The same screen as a game mined for the pool: the mover's
            // evaluation before the opponent's last move and now.
            let before = match m.ply.checked_sub(1).and_then(|p| scores.get(p)) {
                Some(score) => seen_by(*score, m.mover),
                None => Score::Cp(20),
            };
            let Some(kind) = probe(position, before, seen_by(m.before, m.mover)) else {
                continue;
            };
            let cooked = cook(&engine.pool, position, kind, &limits.line)
                .await
                .map_err(|e| ServiceError::Internal(format!("engine: {e}")))?;
            let Ok(solution) = cooked else {
                continue;
            };
            let found = Found::new(position, &solution);
            let puzzle = NewPuzzle::found(&found, &source(game_id));
            self.store()
                .add_puzzles_for(
                    &session.record.game.server_id,
                    &[puzzle],
                    Some(&player),
                    self.now_ms(),
                )
                .await?;
        }
        Ok(())
    }

    /// The review's line for each player with puzzles from this game's
    /// mistakes.
    pub(super) async fn own_puzzles_lines(
        &self,
        session: &Session,
        names: &[String; 2],
        lang: Lang,
    ) -> Result<Vec<String>, ServiceError> {
        let server = &session.record.game.server_id;
        let counts = self
            .store()
            .own_puzzle_counts(server, &source(session.record.id))
            .await?;
        let mut lines = Vec::new();
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let id = session.player_id(color);
            if let Some((_, count)) = counts.iter().find(|(user, _)| user == id) {
                lines.push(t!(
                    lang,
                    "mistakes-puzzles",
                    name = names[i].as_str(),
                    count = *count
                ));
            }
        }
        Ok(lines)
    }

    /// `/puzzle source:mine`: the oldest puzzle from the asker's own
    /// mistakes they have not tried.
    pub(super) async fn mistake_puzzle(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let store = self.store();
        if store
            .open_attempt(&actor.server, &actor.user)
            .await?
            .is_some()
        {
            return self.puzzle(actor).await;
        }
        if let Some(reply) = self.daily_still_open(actor).await? {
            return Ok(reply);
        }
        let Some(puzzle) = store.own_puzzle(&actor.server, &actor.user).await? else {
            return refuse_msg(msg!("mistakes-none"));
        };
        let name = super::display_name(&actor.name);
        match store
            .start_attempt(&actor.server, &actor.user, &name, puzzle.id, self.now_ms())
            .await
        {
            Ok(_) => {}
            Err(StoreError::Conflict) => return refuse_msg(msg!("puzzle-already-open")),
            Err(e) => return Err(e.into()),
        }
        let game = puzzle
            .source
            .strip_prefix("mistake:")
            .unwrap_or_default()
            .to_owned();
        let text = t!(actor.lang(), "mistakes-puzzle", id = puzzle.id, game = game);
        self.puzzle_position(actor, &puzzle, 0, text).await
    }
}
