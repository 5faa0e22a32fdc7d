//! `/analyze [game]`: the engine's review of a finished game — never of a
//! game still being played, for anyone (fair play).
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

use shakmaty::{san::SanPlus, uci::UciMove, Chess, Color, Position};

use super::{
    engine_text as text,
    error::{refuse_msg, ServiceError},
    session::Session,
    Actor, Attachment, Image, Notice, Reply, Service,
};
use crate::{
    chess::pgn::{self, PlyNote},
    engine::{
        analysis::{review, GameReview, Judgement},
        Score, ANALYSIS_SKILL,
    },
    render::advantage::{advantage_chart, Mark},
    store::{AnalysisRecord, AnalysisStatus, StoredEval},
};

/// A checkmated position, in centipawns from the winner's side: beyond
/// every real evaluation (the chart and the maths clip it to ±10 pawns).
const MATED_CP: i32 = 100_000;
/// Progress is posted every this many positions (an edit each time: kept
/// well inside Discord's limit of five edits per five seconds).
const PROGRESS_EVERY: usize = 10;
/// Worst moves listed in the result.
const WORST_MOVES: usize = 3;

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
        let positions = positions_of(session);
        if evals.len() != positions.len() {
            return Ok(None);
        }
        let scores: Vec<Score> = evals.iter().map(score_of).collect();
        let review = review(session.game.initial_position().turn(), &scores);
        let better = (0..session.game.plies().len())
            .map(|ply| {
                let uci = evals.get(ply)?.best_uci.as_deref()?;
                let position = positions.get(ply)?;
                let mv = UciMove::from_ascii(uci.as_bytes())
                    .ok()?
                    .to_move(position)
                    .ok()?;
                Some(SanPlus::from_move(position.clone(), mv).to_string())
            })
            .collect();
        Ok(Some(StoredReview {
            scores,
            review,
            better,
        }))
    }

    pub(super) async fn analyze(
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
        if let Some(job) = self.store().analysis(game_id).await? {
            if job.status == AnalysisStatus::Done {
                return self.analysis_result(&session, lang).await;
            }
        }
        let engine = self.require_engine()?;
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
        if self.engine().is_none() {
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
    fn analysis_slots(&self, server: &str, per_server: usize) -> Arc<tokio::sync::Semaphore> {
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
        let engine = self.require_engine()?;
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
        let positions = positions_of(&session);
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
            let eval = match terminal_score(position) {
                Some(score) => stored_eval(ply, score, None, 0),
                None => {
                    let fen =
                        shakmaty::fen::Fen::from_position(position, shakmaty::EnPassantMode::Legal)
                            .to_string();
                    let found = engine
                        .pool
                        .search(&fen, ANALYSIS_SKILL, &limits)
                        .await
                        .map_err(|e| ServiceError::Internal(format!("engine: {e}")))?;
                    let score = found
                        .score
                        .unwrap_or(Score::Cp(0))
                        .for_white(position.turn());
                    stored_eval(ply, score, found.best, found.depth)
                }
            };
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
        let positions = positions_of(session);
        if evals.len() != positions.len() {
            return Err(ServiceError::Internal(format!(
                "analysis of game {game_id} has {} of {} positions",
                evals.len(),
                positions.len()
            )));
        }
        let scores: Vec<Score> = evals.iter().map(score_of).collect();
        let first = session.game.initial_position().turn();
        let reviewed = review(first, &scores);
        let tags = self.pgn_tags(session).await?;
        let server = &session.record.game.server_id;
        let names = [
            self.name_in(server, &session.record.game.white_id, lang)
                .await?,
            self.name_in(server, &session.record.game.black_id, lang)
                .await?,
        ];
        let result = session
            .game
            .ending()
            .map_or("*", |e| e.result.pgn())
            .to_owned();
        // The engine's better move before each judged move, in SAN.
        let better = |ply: usize| -> Option<String> {
            let uci = evals.get(ply)?.best_uci.as_deref()?;
            let position = positions.get(ply)?;
            let mv = UciMove::from_ascii(uci.as_bytes())
                .ok()?
                .to_move(position)
                .ok()?;
            Some(SanPlus::from_move(position.clone(), mv).to_string())
        };
        let start_move = u32::from(session.game.initial_position().fullmoves());
        let numbered = |ply: usize, san: &str| move_label(first, start_move, ply, san);
        let mut lines = vec![text::result_title(
            lang, game_id, &names[0], &names[1], &result,
        )];
        if let Some(opening) = crate::chess::opening::classify(&session.game) {
            lines.push(crate::t!(
                lang,
                "engine-opening",
                opening = opening.text(lang)
            ));
        }
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            lines.push(text::player_line(
                lang,
                &names[i],
                color,
                reviewed.accuracy[i],
                reviewed.counts[i],
            ));
        }
        let worst = reviewed.worst(WORST_MOVES);
        let (_, notation) = self.session_words(session).await?;
        if !worst.is_empty() {
            lines.push(text::worst_moves_heading(lang));
            for m in worst {
                let Some(ply) = session.game.plies().get(m.ply) else {
                    continue;
                };
                // Written as the server writes moves (`马f6`); the PGN below
                // keeps the letters.
                let played = numbered(
                    m.ply,
                    &format!("{}{}", notation.write(&ply.san), nag(m.judgement)),
                );
                let best = better(m.ply).map(|san| numbered(m.ply, &notation.write(&san)));
                lines.push(text::worst_move(
                    lang,
                    &played,
                    &m.before.human(),
                    &m.after.human(),
                    best.as_deref(),
                ));
            }
        }
        let notes = annotations(lang, &reviewed, &scores, better);
        let mut tags = tags;
        tags.extra.push(("Annotator".to_owned(), text::annotator()));
        let annotated = pgn::export_annotated(&session.game, &tags, &notes);
        let pawns: Vec<f64> = scores
            .iter()
            .map(|s| f64::from(s.clipped_cp()) / 100.0)
            .collect();
        let marks: Vec<(usize, Mark)> = reviewed
            .moves
            .iter()
            .filter_map(|m| Some((m.ply + 1, mark(m.judgement?))))
            .collect();
        let description = chart_description(lang, game_id, &pawns, marks.len());
        let title = text::chart_title(game_id, &names[0], &names[1]);
        let png = tokio::task::spawn_blocking(move || advantage_chart(&pawns, &marks, &title))
            .await
            .map_err(|e| ServiceError::Internal(format!("chart task: {e}")))?
            .map_err(|e| ServiceError::Internal(format!("chart: {e}")))?;
        let mut reply = Reply {
            text: lines.join("\n"),
            image: Some(Image {
                file_name: format!("analysis-{game_id}.png"),
                png,
                description,
            }),
            files: vec![Attachment {
                file_name: format!("game-{game_id}-analysis.pgn"),
                bytes: annotated.into_bytes(),
            }],
            ..Reply::default()
        };
        self.link_page(server, &format!("/game/{game_id}"), lang, &mut reply)
            .await?;
        Ok(reply)
    }
}

/// The advantage chart in one line for screen readers: where the game
/// ended, its extremes (White's view, in pawns) and the bad moves marked.
fn chart_description(
    lang: crate::i18n::Lang,
    game_id: i64,
    pawns: &[f64],
    marked: usize,
) -> String {
    let shown = |p: f64| format!("{p:+.1}");
    let last = pawns.last().copied().unwrap_or(0.0);
    let low = pawns.iter().copied().fold(f64::INFINITY, f64::min);
    let high = pawns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let text = crate::t!(
        lang,
        "alt-advantage-chart",
        id = game_id,
        count = pawns.len().saturating_sub(1),
        last = shown(last),
        low = shown(if low.is_finite() { low } else { 0.0 }),
        high = shown(if high.is_finite() { high } else { 0.0 }),
        marked = marked
    );
    crate::chess::describe::cut(&text, crate::chess::describe::MAX_DESCRIPTION)
}

/// Every position of the game: the start, then one after each ply.
pub(super) fn positions_of(session: &Session) -> Vec<Chess> {
    let mut position = session.game.initial_position().clone();
    let mut all = Vec::with_capacity(session.game.plies().len() + 1);
    all.push(position.clone());
    for ply in session.game.plies() {
        position.play_unchecked(ply.mv);
        all.push(position.clone());
    }
    all
}

/// The evaluation of a position without moves (White's view): a
/// checkmate is decided, a stalemate is level. `None` if it has moves.
fn terminal_score(position: &Chess) -> Option<Score> {
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

fn nag(judgement: Option<Judgement>) -> &'static str {
    judgement.map_or("", Judgement::nag)
}

fn mark(judgement: Judgement) -> Mark {
    match judgement {
        Judgement::Inaccuracy => Mark::Inaccuracy,
        Judgement::Mistake => Mark::Mistake,
        Judgement::Blunder => Mark::Blunder,
    }
}

/// `12. Nf3` or `12... Nf6` for the ply at `index` of a game that began
/// at full move `start` with `first` to move.
fn move_label(first: Color, start: u32, index: usize, san: &str) -> String {
    let offset = usize::from(first == Color::Black);
    let number = start as usize + (index + offset) / 2;
    if (index + offset).is_multiple_of(2) {
        format!("{number}. {san}")
    } else {
        format!("{number}... {san}")
    }
}

/// One note per ply: the evaluation after it as `[%eval]` (lichess's form:
/// pawns from White's view, `#N` for a mate; none after a checkmate, whose
/// `#` says it all), and for a judged move its glyph and the better move.
fn annotations(
    lang: crate::i18n::Lang,
    reviewed: &GameReview,
    scores: &[Score],
    better: impl Fn(usize) -> Option<String>,
) -> Vec<PlyNote> {
    reviewed
        .moves
        .iter()
        .map(|m| {
            let after = scores.get(m.ply + 1).copied();
            let mut comment = match after {
                Some(Score::Cp(cp)) if cp.abs() >= MATED_CP => None,
                Some(score) => Some(format!("[%eval {}]", score.pgn_eval())),
                None => None,
            };
            if let Some(j) = m.judgement {
                let words = text::judgement_comment(lang, j, better(m.ply).as_deref());
                comment = Some(match comment {
                    Some(eval) => format!("{eval} {words}"),
                    None => words,
                });
            }
            PlyNote {
                nag: m.judgement.map(Judgement::nag),
                comment,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_labels() {
        assert_eq!(move_label(Color::White, 1, 0, "e4"), "1. e4");
        assert_eq!(move_label(Color::White, 1, 1, "e5"), "1... e5");
        assert_eq!(move_label(Color::White, 1, 2, "Nf3"), "2. Nf3");
        assert_eq!(move_label(Color::Black, 10, 0, "Nf6"), "10... Nf6");
        assert_eq!(move_label(Color::Black, 10, 1, "Nf3"), "11. Nf3");
    }

    #[test]
    fn stored_scores_round_trip() {
        for score in [Score::Cp(35), Score::Cp(-MATED_CP), Score::Mate(-3)] {
            assert_eq!(score_of(&stored_eval(4, score, None, 12)), score);
        }
    }
}
