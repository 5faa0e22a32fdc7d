//! `/analyze pgn:<text or .pgn file>`: the engine's review of any game,
//! pasted as PGN (a game from another site, an over-the-board game typed
//! in). The same review as for a stored game (`review.rs`), from the same
//! engine pool and the same per-server queue, but nothing is stored: a
//! pasted game is a question, not a game of this server. Its progress is
//! edited into one message and the result replaces it; a restart forgets
//! a pasted analysis still running (paste it again).
//!
//! A PGN that cannot be read is answered privately with what is wrong in
//! it, exactly as `/show` answers it (`show::read_pasted`).

use std::sync::atomic::Ordering;

use super::{
    analyze::{evaluate, positions_of, score_of, PROGRESS_EVERY},
    engine_text as text,
    error::{refuse_msg, ServiceError},
    ladder::opening_tags,
    lang::settings_notation,
    review::{review_reply, ReviewInput, Reviewed},
    show::{pasted_is_named, pasted_names, read_pasted},
    Actor, Notice, Reply, Service,
};
use crate::{
    chess::{
        notation::Notation,
        pgn::{ImportedGame, PgnTags},
    },
    i18n::Lang,
    msg,
};

/// The longest pasted game analysed, in half-moves: longer than any real
/// game but for a handful in history, and a bound on one request's
/// engine time.
pub const MAX_PASTED_PLIES: usize = 600;

/// A pasted analysis waiting for, or holding, an engine slot.
struct PastedJob {
    /// Its place in the service's table of analyses (negative: stored
    /// games have positive numbers).
    key: i64,
    server: String,
    channel: String,
    imported: ImportedGame,
    names: [String; 2],
    /// What the answer calls it (named or not).
    reviewed: Reviewed,
    lang: Lang,
    notation: Notation,
}

impl PastedJob {
    fn edit_key(&self) -> String {
        format!("analysis:pasted:{}", -self.key)
    }
}

impl Service {
    /// `/analyze pgn:…` (see the module documentation).
    pub(super) async fn analyze_pasted(
        &self,
        actor: &Actor,
        text: &str,
    ) -> Result<Reply, ServiceError> {
        let imported = read_pasted(actor.lang(), text)?;
        let plies = imported.game.plies().len();
        if plies > MAX_PASTED_PLIES {
            return refuse_msg(msg!(
                "engine-pasted-too-long",
                plies = plies,
                max = MAX_PASTED_PLIES
            ));
        }
        let engine = self.require_engine_for(imported.game.variant())?;
        let lang = self.show_lang(actor).await?;
        let notation = settings_notation(&self.store().server(&actor.server).await?);
        let state = self.engine_state();
        let key = -state.pasted.fetch_add(1, Ordering::Relaxed) - 1;
        {
            let mut analysing = state.analysing.lock().unwrap_or_else(|e| e.into_inner());
            let waiting = analysing.values().filter(|s| **s == actor.server).count();
            if waiting >= engine.options.analysis_queue_per_server {
                return refuse_msg(text::queue_full(waiting));
            }
            analysing.insert(key, actor.server.clone());
        }
        let job = PastedJob {
            key,
            server: actor.server.clone(),
            channel: actor.channel.clone(),
            names: pasted_names(lang, &imported),
            reviewed: Reviewed::Pasted {
                named: pasted_is_named(&imported),
            },
            imported,
            lang,
            notation,
        };
        let reply = Reply {
            text: job.reviewed.progress(lang, 0, plies),
            edits: Some(job.edit_key()),
            ..Reply::default()
        };
        let service = self.clone();
        self.spawn_background(async move {
            let outcome = service.run_pasted(&job).await;
            service
                .engine_state()
                .analysing
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&job.key);
            let reply = match outcome {
                Ok(reply) => reply,
                Err(e) => {
                    tracing::error!(error = %e, "analysis of a pasted game failed");
                    Reply::text(job.reviewed.failed(job.lang))
                }
            };
            service.post(Notice {
                channel: Some(job.channel.clone()),
                dm_user: None,
                reply: Reply {
                    edits: Some(job.edit_key()),
                    ..reply
                },
            });
        });
        Ok(reply)
    }

    async fn run_pasted(&self, job: &PastedJob) -> Result<Reply, ServiceError> {
        let engine = self.require_engine_for(job.imported.game.variant())?;
        let slots = self.analysis_slots(&job.server, engine.options.analyses_per_server);
        let _slot = slots
            .acquire_owned()
            .await
            .map_err(|e| ServiceError::Internal(format!("analysis slots: {e}")))?;
        let game = &job.imported.game;
        let positions = positions_of(game);
        let plies = positions.len() - 1;
        let limits = engine.options.analysis.limits();
        let mut evals = Vec::with_capacity(positions.len());
        for (ply, position) in positions.iter().enumerate() {
            evals.push(evaluate(&engine, ply, position, &limits).await?);
            if ply > 0 && ply % PROGRESS_EVERY == 0 && ply < plies {
                self.post(Notice {
                    channel: Some(job.channel.clone()),
                    dm_user: None,
                    reply: Reply {
                        text: job.reviewed.progress(job.lang, ply, plies),
                        edits: Some(job.edit_key()),
                        ..Reply::default()
                    },
                });
            }
        }
        review_reply(
            job.lang,
            ReviewInput {
                subject: job.reviewed,
                game,
                names: job.names.clone(),
                tags: pasted_tags(&job.imported),
                notation: job.notation,
                scores: evals.iter().map(score_of).collect(),
                best_uci: evals.into_iter().map(|e| e.best_uci).collect(),
            },
        )
        .await
    }
}

/// The pasted game's own tags for the annotated PGN, with the opening as
/// this bot names it in place of whatever the paste said.
fn pasted_tags(imported: &ImportedGame) -> PgnTags {
    const WRITTEN: [&str; 14] = [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "TimeControl",
        "SetUp",
        "FEN",
        "ECO",
        "Opening",
        "WhiteTitle",
        "BlackTitle",
    ];
    let tag = |name: &str| imported.tag(name).unwrap_or_default().to_owned();
    PgnTags {
        event: tag("Event"),
        site: tag("Site"),
        date: tag("Date"),
        round: tag("Round"),
        white: tag("White"),
        black: tag("Black"),
        time_control: imported.tag("TimeControl").map(str::to_owned),
        white_title: imported.tag("WhiteTitle").map(str::to_owned),
        black_title: imported.tag("BlackTitle").map(str::to_owned),
        white_points: None,
        black_points: None,
        extra: imported
            .tags
            .iter()
            .filter(|(name, _)| !WRITTEN.contains(&name.as_str()) && name != "Annotator")
            .cloned()
            .chain(opening_tags(&imported.game))
            .collect(),
    }
}
