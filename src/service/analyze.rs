//! `/analyze [game]`: the engine's review of a finished game — never of a
//! game still being played, for anyone (fair play). (A pasted game:
//! `analyze_pasted.rs`; the answer itself: `review.rs`.)
//!
//! A job is stored, queued per server (a few at a time; the engine pool
//! bounds the total) and run in the background; it stores the evaluation
//! of each position as it goes and posts its progress by editing one
//! message (`Reply::edits`), then the result: the advantage chart, each
//! player's accuracy and counts of inaccuracies, mistakes and blunders,
//! the worst moves with the engine's better move, and an annotated PGN.
//! A restart resumes unfinished jobs where they stopped; a second
//! `/analyze` of an analysed game answers at once from what is stored.

use std::{collections::HashSet, sync::Arc};

use shakmaty::{variant::VariantPosition, Color, Position};

use super::{
    engine_text as text,
    error::{refuse_msg, ServiceError},
    review::{better_move, review_reply, ReviewInput, Reviewed, MATED_CP},
    session::Session,
    Actor, Notice, Reply, Service,
};
use crate::{
    chess::Game,
    engine::{analysis::review, analysis::GameReview, Engine, Limits, Score, ANALYSIS_SKILL},
    store::{AnalysisRecord, AnalysisStatus, StoredEval},
};

/// Progress is posted every this many positions (an edit each time: kept
/// well inside Discord's limit of five edits per five seconds).
pub(super) const PROGRESS_EVERY: usize = 10;

fn edit_key(game_id: i64) -> String {
    format!("analysis:{game_id}")
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A finished analysis as read back: the evaluation of every position,
/// the review of every move, and the engine's better move before each ply
/// (SAN), where it named one.
pub(super) struct StoredReview {
    pub scores: Vec<Score>,
    pub review: GameReview,
    pub better: Vec<Option<String>>,
}

impl Service {
    /// The stored analysis of `session`'s game, if one is done.
    pub(super) async fn stored_review(
        &self,
        session: &Session,
    ) -> Result<Option<StoredReview>, ServiceError> {
        let game_id = session.record.id;
        match self.store().analysis(game_id).await? {
            Some(job) if job.status == AnalysisStatus::Done => {}
            _ => return Ok(None),
        }
        let evals = self.store().evals(game_id).await?;
        let positions = positions_of(&session.game);
        if evals.len() != positions.len() {
            return Ok(None);
        }
        let scores: Vec<Score> = evals.iter().map(score_of).collect();
        let review = review(session.game.initial_position().turn(), &scores);
        let better = (0..session.game.plies().len())
            .map(|ply| better_move(positions.get(ply)?, evals.get(ply)?.best_uci.as_deref()?))
            .collect();
        Ok(Some(StoredReview {
            scores,
            review,
            better,
        }))
    }

    /// `/analyze`: a stored game (by number, or this channel's latest), or
    /// a pasted one (`analyze_pasted.rs`).
    pub(super) async fn analyze(
        &self,
        actor: &Actor,
        game: Option<i64>,
        pgn: Option<String>,
    ) -> Result<Reply, ServiceError> {
        match (game, pgn) {
            (None, Some(pgn)) => self.analyze_pasted(actor, &pgn).await,
            (Some(_), Some(_)) => refuse_msg(crate::msg!("engine-analyze-one-of")),
            (game, None) => self.analyze_stored(actor, game).await,
        }
    }

    async fn analyze_stored(
        &self,
        actor: &Actor,
        game: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let Some(record) = self.named_game(actor, game).await? else {
            return refuse_msg(match game {
                Some(id) => text::no_such_game(id),
                None => text::no_game_here(),
            });
        };
        if record.is_active() {
            return refuse_msg(text::analysis_of_active_game(record.id));
        }
        let session = self.load(record).await?;
        let plies = session.game.plies().len();
        if plies == 0 {
            return refuse_msg(text::nothing_to_analyse(session.record.id));
        }
        let game_id = session.record.id;
        // Posted in the channel: the server's language.
        let lang = self.server_lang(&actor.server).await;
        if let Some(job) = self.store().analysis(game_id).await?
            && job.status == AnalysisStatus::Done
        {
            return self.analysis_result(&session, lang).await;
        }
        let engine = self.require_engine_for(session.game.variant())?;
        {
            let analysing = lock(&self.engine_state().analysing);
            if analysing.contains_key(&game_id) {
                return Ok(Reply::private(text::already_analysing(
                    actor.lang(),
                    game_id,
                )));
            }
            let waiting = analysing.values().filter(|s| **s == actor.server).count();
            if waiting >= engine.options.analysis_queue_per_server {
                return refuse_msg(text::queue_full(waiting));
            }
        }
        let job = self
            .store()
            .queue_analysis(&AnalysisRecord {
                game_id,
                server_id: actor.server.clone(),
                channel_id: actor.channel.clone(),
                requested_by: actor.user.clone(),
                status: AnalysisStatus::Queued,
                positions: plies as i64 + 1,
                created_ms: self.now_ms(),
                finished_ms: None,
            })
            .await?;
        let done = self.store().evals(game_id).await?.len().saturating_sub(1);
        self.start_analysis(job);
        Ok(Reply {
            text: text::progress(lang, game_id, done.min(plies), plies),
            edits: Some(edit_key(game_id)),
            ..Reply::default()
        })
    }

    /// At start-up: analyses queued or running before a restart go on
    /// where they stopped.
    pub(super) async fn resume_analyses(&self) -> Result<(), ServiceError> {
        if !self.has_any_engine() {
            return Ok(());
        }
        for job in self.store().unfinished_analyses().await? {
            self.start_analysis(job);
        }
        Ok(())
    }

    /// Runs a job in the background (once per game in this process).
    fn start_analysis(&self, job: AnalysisRecord) {
        {
            let mut analysing = lock(&self.engine_state().analysing);
            if analysing.contains_key(&job.game_id) {
                return;
            }
            analysing.insert(job.game_id, job.server_id.clone());
        }
        let service = self.clone();
        self.spawn_background(async move {
            let lang = service.server_lang(&job.server_id).await;
            let outcome = service.run_analysis(&job, lang).await;
            lock(&service.engine_state().analysing).remove(&job.game_id);
            let reply = match outcome {
                Ok(reply) => reply,
                Err(e) => {
                    tracing::error!(game_id = job.game_id, error = %e, "analysis failed");
                    let now = service.now_ms();
                    if let Err(e) = service
                        .store()
                        .set_analysis_status(job.game_id, AnalysisStatus::Failed, now)
                        .await
                    {
                        tracing::error!(game_id = job.game_id, error = %e, "could not mark the analysis failed");
                    }
                    Reply {
                        text: text::analysis_failed(lang, job.game_id),
                        edits: Some(edit_key(job.game_id)),
                        ..Reply::default()
                    }
                }
            };
            service.post(Notice {
                channel: Some(job.channel_id.clone()),
                dm_user: None,
                reply,
            });
        });
    }

    /// The server's share of analysis slots.
    pub(super) fn analysis_slots(
        &self,
        server: &str,
        per_server: usize,
    ) -> Arc<tokio::sync::Semaphore> {
        lock(&self.engine_state().server_slots)
            .entry(server.to_owned())
            .or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(per_server.max(1))))
            .clone()
    }

    async fn run_analysis(
        &self,
        job: &AnalysisRecord,
        lang: crate::i18n::Lang,
    ) -> Result<Reply, ServiceError> {
        let variant = match self.store().game(job.game_id).await? {
            Some(record) => record.game.variant,
            None => crate::chess::Variant::Standard,
        };
        let engine = self.require_engine_for(variant)?;
        let slots = self.analysis_slots(&job.server_id, engine.options.analyses_per_server);
        let _slot = slots
            .acquire_owned()
            .await
            .map_err(|e| ServiceError::Internal(format!("analysis slots: {e}")))?;
        let now = self.now_ms();
        self.store()
            .set_analysis_status(job.game_id, AnalysisStatus::Running, now)
            .await?;
        let Some(record) = self.store().game(job.game_id).await? else {
            return Err(ServiceError::Internal(format!(
                "game {} of an analysis is gone",
                job.game_id
            )));
        };
        let session = self.load(record).await?;
        let positions = positions_of(&session.game);
        let plies = positions.len() - 1;
        let stored: HashSet<i64> = self
            .store()
            .evals(job.game_id)
            .await?
            .iter()
            .map(|e| e.ply)
            .collect();
        let limits = engine.options.analysis.limits();
        for (ply, position) in positions.iter().enumerate() {
            if stored.contains(&(ply as i64)) {
                continue;
            }
            let eval = evaluate(&engine, ply, position, &limits).await?;
            self.store().save_eval(job.game_id, &eval).await?;
            if ply > 0 && ply % PROGRESS_EVERY == 0 && ply < plies {
                self.post(Notice {
                    channel: Some(job.channel_id.clone()),
                    dm_user: None,
                    reply: Reply {
                        text: text::progress(lang, job.game_id, ply, plies),
                        edits: Some(edit_key(job.game_id)),
                        ..Reply::default()
                    },
                });
            }
        }
        self.store()
            .set_analysis_status(job.game_id, AnalysisStatus::Done, self.now_ms())
            .await?;
        self.puzzles_from_mistakes(&session, &engine).await;
        let mut reply = self.analysis_result(&session, lang).await?;
        reply.edits = Some(edit_key(job.game_id));
        Ok(reply)
    }

    /// The result of a finished analysis, from the stored evaluations.
    async fn analysis_result(
        &self,
        session: &Session,
        lang: crate::i18n::Lang,
    ) -> Result<Reply, ServiceError> {
        let game_id = session.record.id;
        let evals = self.store().evals(game_id).await?;
        let positions = positions_of(&session.game);
        if evals.len() != positions.len() {
            return Err(ServiceError::Internal(format!(
                "analysis of game {game_id} has {} of {} positions",
                evals.len(),
                positions.len()
            )));
        }
        let server = &session.record.game.server_id;
        let names: [String; 2] = [
            self.name_in(server, &session.record.game.white_id, lang)
                .await?,
            self.name_in(server, &session.record.game.black_id, lang)
                .await?,
        ];
        let (_, notation) = self.session_words(session).await?;
        let mut reply = review_reply(
            lang,
            ReviewInput {
                subject: Reviewed::Game(game_id),
                game: &session.game,
                names: names.clone(),
                tags: self.pgn_tags(session).await?,
                notation,
                scores: evals.iter().map(score_of).collect(),
                best_uci: evals.into_iter().map(|e| e.best_uci).collect(),
            },
        )
        .await?;
        let own = self.own_puzzles_lines(session, &names, lang).await?;
        if !own.is_empty() {
            reply.text = format!("{}\n{}", reply.text, own.join("\n"));
        }
        self.link_page(server, &format!("/game/{game_id}"), lang, &mut reply)
            .await?;
        Ok(reply)
    }
}

/// Every position of the game: the start, then one after each ply.
pub(super) fn positions_of(game: &Game) -> Vec<VariantPosition> {
    let mut position = game.initial_position().clone();
    let mut all = Vec::with_capacity(game.plies().len() + 1);
    all.push(position.clone());
    for ply in game.plies() {
        position.play_unchecked(ply.mv);
        all.push(position.clone());
    }
    all
}

/// [`positions_of`] for a game of chess (standard or Chess960): the
/// positions as shakmaty's `Chess`, which puzzle finding reads. Empty for
/// lichess's other variants (puzzles are standard chess).
pub(super) fn chess_positions(game: &Game) -> Vec<shakmaty::Chess> {
    positions_of(game)
        .into_iter()
        .map_while(|position| match position {
            VariantPosition::Chess(chess) => Some(chess),
            _ => None,
        })
        .collect()
}

/// The engine's evaluation of `position`, the `ply`th of its game (White's
/// view, with the engine's best move), or the decided score of a position
/// without moves.
pub(super) async fn evaluate(
    engine: &Engine,
    ply: usize,
    position: &VariantPosition,
    limits: &Limits,
) -> Result<StoredEval, ServiceError> {
    if let Some(score) = terminal_score(position) {
        return Ok(stored_eval(ply, score, None, 0));
    }
    let fen =
        shakmaty::fen::Fen::from_position(position, shakmaty::EnPassantMode::Legal).to_string();
    // Fairy-Stockfish is told the variant (its `UCI_Variant` names are
    // shakmaty's); Stockfish plays chess and needs no such option.
    let rules = position.variant();
    let uci_variant = (rules != shakmaty::variant::Variant::Chess).then_some(rules.uci());
    let found = engine
        .pool
        .search_variant(
            uci_variant,
            position.castles().mode(),
            &fen,
            ANALYSIS_SKILL,
            limits,
        )
        .await
        .map_err(|e| ServiceError::Internal(format!("engine: {e}")))?;
    let score = found
        .score
        .unwrap_or(Score::Cp(0))
        .for_white(position.turn());
    Ok(stored_eval(ply, score, found.best, found.depth))
}

/// The evaluation of a position without moves (White's view): a
/// checkmate is decided, a stalemate is level. `None` if it has moves.
fn terminal_score(position: &VariantPosition) -> Option<Score> {
    // A variant's own ending (an exploded king, the hill, the third check,
    // antichess's empty or stalemated side) is decided.
    if let shakmaty::Outcome::Known(known) = position.variant_outcome() {
        return Some(match known.winner() {
            Some(Color::White) => Score::Cp(MATED_CP),
            Some(Color::Black) => Score::Cp(-MATED_CP),
            None => Score::Cp(0),
        });
    }
    if !position.legal_moves().is_empty() {
        return None;
    }
    Some(if position.is_checkmate() {
        match position.turn() {
            Color::White => Score::Cp(-MATED_CP),
            Color::Black => Score::Cp(MATED_CP),
        }
    } else {
        Score::Cp(0)
    })
}

fn stored_eval(ply: usize, score: Score, best: Option<String>, depth: u32) -> StoredEval {
    let (cp, mate) = match score {
        Score::Cp(cp) => (Some(i64::from(cp)), None),
        Score::Mate(n) => (None, Some(i64::from(n))),
    };
    StoredEval {
        ply: ply as i64,
        cp,
        mate,
        best_uci: best,
        depth: i64::from(depth),
    }
}

pub(super) fn score_of(eval: &StoredEval) -> Score {
    let clamp = |v: i64| i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX });
    match (eval.cp, eval.mate) {
        (_, Some(n)) => Score::Mate(clamp(n)),
        (Some(cp), None) => Score::Cp(clamp(cp)),
        (None, None) => Score::Cp(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_scores_round_trip() {
        for score in [Score::Cp(35), Score::Cp(-MATED_CP), Score::Mate(-3)] {
            assert_eq!(score_of(&stored_eval(4, score, None, 12)), score);
        }
    }
}
