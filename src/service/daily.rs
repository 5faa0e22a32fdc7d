//! The daily puzzle: at the hour a server's moderators chose
//! (`/settings puzzle_channel`, `puzzle_time`, in the server's time zone)
//! the scheduler posts the day's puzzle in that channel, with a Solve
//! button; whoever presses it (or asks `/puzzle source:daily`) gets a
//! private attempt, answered with `/move` as any puzzle, so nobody's answer
//! spoils it. The next day's post first gives the day before's solution
//! and its solvers with their streaks. The calendar is a pure core
//! (`puzzle/daily.rs`); the store makes each day's post happen once.
//!
//! A daily attempt is not rated: everyone gets the same puzzle whatever
//! their level. It counts for the day's solvers and for streaks. A puzzle
//! that has been a daily puzzle is no longer given by `/puzzle` (its
//! solution is public).

use std::collections::BTreeSet;

use shakmaty::{CastlingMode, Chess, Position};

use super::{
    buttons::ButtonAction,
    error::{refuse_msg, ServiceError},
    puzzles::{Ended, Open},
    Actor, Button, ButtonStyle, Card, Notice, Reply, Service,
};
use crate::{
    chess::color_text,
    i18n::{join_list, Lang, Msg},
    msg,
    puzzle::daily::{self, day_text},
    store::{
        AttemptStatus, DailyAttempt, DailyRecord, DailyStartError, DailyStatus, PuzzleRecord,
        ServerSettings, StoreError,
    },
    t,
};

/// An answer to a daily attempt that the day's close ended, this soon
/// after, is told so (rather than that there is no game here).
const CLOSED_LATELY_MS: i64 = daily::DAY_MS;

/// `09:00 UTC+8`: the hour of the daily post in the server's time zone.
fn hour_text(settings: &ServerSettings) -> String {
    format!(
        "{:02}:00 {}",
        settings.puzzle_hour,
        crate::clock::offset_text(settings.utc_offset_minutes)
    )
}

fn solver_of(puzzle: &PuzzleRecord) -> Option<shakmaty::Color> {
    let start: Chess = puzzle
        .fen
        .parse::<shakmaty::fen::Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()?;
    Some(start.turn())
}

impl Service {
    /// The scheduler's part: posts each server's due day (see
    /// `puzzle::daily`). A server whose post fails is logged and tried
    /// again at the next tick; the others go on.
    pub(super) async fn daily_tick(&self, now: i64) -> Result<Vec<Notice>, ServiceError> {
        let mut notices = Vec::new();
        for settings in self.store().servers_with_daily().await? {
            let latest = self.store().latest_daily(&settings.server_id).await?;
            let Some(day) = daily::to_post(
                latest.map(|d| d.day),
                now,
                settings.puzzle_hour,
                settings.utc_offset_minutes,
            ) else {
                continue;
            };
            match self.post_daily(&settings, day, now).await {
                Ok(posted) => notices.extend(posted),
                Err(e) => {
                    tracing::error!(server = %settings.server_id, day, error = %e, "could not post the daily puzzle");
                }
            }
        }
        Ok(notices)
    }

    /// When the next daily post falls on any server (for a simulated clock).
    pub(super) async fn next_daily_event(&self) -> Option<i64> {
        let now = self.now_ms();
        let mut next: Option<i64> = None;
        for settings in self.store().servers_with_daily().await.ok()? {
            let latest = self
                .store()
                .latest_daily(&settings.server_id)
                .await
                .ok()?
                .map(|d| d.day);
            let at = daily::next_post_ms(
                latest,
                now,
                settings.puzzle_hour,
                settings.utc_offset_minutes,
            );
            next = Some(next.map_or(at, |n| n.min(at)));
        }
        next
    }

    /// Records day `day`'s puzzle and closes the day before; the solution
    /// of each day closed, then the new day's post.
    async fn post_daily(
        &self,
        settings: &ServerSettings,
        day: i64,
        now: i64,
    ) -> Result<Vec<Notice>, ServiceError> {
        let server = &settings.server_id;
        let Some(channel) = settings.puzzle_channel.clone() else {
            return Ok(Vec::new());
        };
        // A new server's first daily puzzle comes from the starter set.
        if self.store().puzzle_count(server).await? == 0 {
            self.load_starter_set(server).await?;
        }
        let puzzle = self.store().pick_daily_puzzle(server).await?;
        let closed = match self
            .store()
            .post_daily(server, day, puzzle.as_ref().map(|p| p.id), &channel, now)
            .await
        {
            Ok(closed) => closed,
            // Another process posted it.
            Err(StoreError::Conflict) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        let lang = super::lang::settings_lang(settings);
        let mut notices = Vec::new();
        for old in &closed {
            if let Some(reply) = self.daily_solution(old, lang).await? {
                notices.push(Notice {
                    channel: Some(old.channel_id.clone()),
                    dm_user: None,
                    reply,
                });
            }
        }
        let reply = match &puzzle {
            Some(puzzle) => self.daily_post(settings, day, puzzle, lang).await?,
            None => Reply::text(t!(lang, "daily-none-left", date = day_text(day))),
        };
        notices.push(Notice {
            channel: Some(channel),
            dm_user: None,
            reply,
        });
        Ok(notices)
    }

    /// The day's post: the board from the solver's side and the Solve
    /// button.
    async fn daily_post(
        &self,
        settings: &ServerSettings,
        day: i64,
        puzzle: &PuzzleRecord,
        lang: Lang,
    ) -> Result<Reply, ServiceError> {
        let start: Chess = puzzle
            .fen
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .ok_or_else(|| ServiceError::Internal(format!("puzzle {} is damaged", puzzle.id)))?;
        let solver = start.turn();
        let image = self
            .puzzle_image(&settings.server_id, lang, &start, solver, None)
            .await?;
        Ok(Reply {
            text: t!(
                lang,
                "daily-post",
                date = day_text(day),
                color = color_text(lang, solver),
                time = hour_text(settings)
            ),
            card: Some(Card {
                title: t!(lang, "daily-title", date = day_text(day)),
                fields: vec![("FEN".to_owned(), puzzle.fen.clone())],
                ..Card::default()
            }),
            image: Some(image),
            buttons: vec![Button {
                id: ButtonAction::DailySolve { day }.id(),
                label: t!(lang, "daily-solve-button"),
                style: ButtonStyle::Primary,
            }],
            ..Reply::default()
        })
    }

    /// A closed day's solution, its solvers and their streaks (`None`: the
    /// day had no puzzle).
    async fn daily_solution(
        &self,
        day: &DailyRecord,
        lang: Lang,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(puzzle_id) = day.puzzle_id else {
            return Ok(None);
        };
        let Some(puzzle) = self.store().puzzle(puzzle_id).await? else {
            return Ok(None);
        };
        let line = super::puzzles::solution_text(lang, &puzzle)?;
        let attempts = self.store().daily_attempts(&day.server_id, day.day).await?;
        let tried = attempts.len();
        let mut solvers = Vec::new();
        for a in attempts
            .iter()
            .filter(|a| a.status == DailyStatus::Attempt(AttemptStatus::Solved))
        {
            let streak = self.streak(&day.server_id, &a.user_id, day.day).await?;
            solvers.push(t!(
                lang,
                "daily-solver",
                name = a.display_name.as_str(),
                streak = streak
            ));
        }
        let who = if solvers.is_empty() {
            t!(lang, "daily-no-solvers", tried = tried)
        } else {
            t!(
                lang,
                "daily-solvers",
                count = solvers.len(),
                tried = tried,
                names = join_list(lang, &solvers)
            )
        };
        Ok(Some(Reply::text(
            [
                t!(
                    lang,
                    "daily-solution",
                    date = day_text(day.day),
                    line = line
                ),
                who,
            ]
            .join("\n"),
        )))
    }

    /// `user`'s streak through day `through`.
    async fn streak(&self, server: &str, user: &str, through: i64) -> Result<u32, ServiceError> {
        let (posted, solved) = self.store().daily_days(server, user).await?;
        let solved: BTreeSet<i64> = solved.into_iter().collect();
        Ok(daily::streak(&posted, &solved, through))
    }

    /// `actor`'s open daily attempt, as an attempt to answer.
    pub(super) async fn open_daily(&self, actor: &Actor) -> Result<Option<Open>, ServiceError> {
        let Some(attempt) = self
            .store()
            .open_daily_attempt(&actor.server, &actor.user)
            .await?
        else {
            return Ok(None);
        };
        let puzzle_id = self
            .store()
            .daily(&actor.server, attempt.day)
            .await?
            .and_then(|d| d.puzzle_id);
        Ok(puzzle_id.map(|puzzle_id| Open {
            puzzle_id,
            progress: attempt.progress,
            day: Some(attempt.day),
        }))
    }

    /// The open daily attempt shown again, if there is one.
    pub(super) async fn daily_still_open(
        &self,
        actor: &Actor,
    ) -> Result<Option<Reply>, ServiceError> {
        let Some(open) = self.open_daily(actor).await? else {
            return Ok(None);
        };
        let (Some(day), Some(puzzle)) = (open.day, self.store().puzzle(open.puzzle_id).await?)
        else {
            return Ok(None);
        };
        let text = t!(actor.lang(), "daily-still-open", date = day_text(day));
        Ok(Some(
            self.puzzle_position(actor, &puzzle, open.progress, text)
                .await?,
        ))
    }

    /// The Solve button of day `day`'s post, or `/puzzle source:daily`
    /// (`day` `None`: today's): a private attempt at it.
    pub(super) async fn daily_start(
        &self,
        actor: &Actor,
        day: Option<i64>,
    ) -> Result<Reply, ServiceError> {
        let lang = actor.lang();
        let store = self.store();
        let settings = store.server(&actor.server).await?;
        if settings.puzzle_channel.is_none() {
            return refuse_msg(msg!("daily-not-set"));
        }
        if let Some(open) = store.open_attempt(&actor.server, &actor.user).await? {
            return refuse_msg(msg!("daily-finish-first", id = open.puzzle_id));
        }
        let record = match day {
            Some(day) => store.daily(&actor.server, day).await?,
            None => store.latest_daily(&actor.server).await?,
        };
        let Some(record) = record else {
            return refuse_msg(msg!("daily-not-yet", time = hour_text(&settings)));
        };
        let date = day_text(record.day);
        if record.closed_ms.is_some() {
            return refuse_msg(closed_msg(&record));
        }
        let Some(puzzle_id) = record.puzzle_id else {
            return refuse_msg(msg!("daily-none-left", date = date));
        };
        let Some(puzzle) = store.puzzle(puzzle_id).await? else {
            return refuse_msg(msg!("puzzle-not-found"));
        };
        if let Some(mine) = store
            .daily_attempt(&actor.server, record.day, &actor.user)
            .await?
        {
            return match mine.status {
                DailyStatus::Attempt(AttemptStatus::Open) => {
                    let text = t!(lang, "daily-still-open", date = date);
                    self.puzzle_position(actor, &puzzle, mine.progress, text)
                        .await
                }
                DailyStatus::Attempt(AttemptStatus::Solved) => {
                    refuse_msg(msg!("daily-already-solved", date = date))
                }
                DailyStatus::Attempt(AttemptStatus::Failed) => {
                    refuse_msg(msg!("daily-already-failed", date = date))
                }
                DailyStatus::Expired => refuse_msg(closed_msg(&record)),
            };
        }
        let name = super::display_name(&actor.name);
        match store
            .start_daily_attempt(&actor.server, record.day, &actor.user, &name, self.now_ms())
            .await
        {
            Ok(_) => {}
            Err(DailyStartError::Closed) => return refuse_msg(closed_msg(&record)),
            // A second press of the same person got there first.
            Err(DailyStartError::Conflict) => return refuse_msg(msg!("puzzle-already-open")),
            Err(DailyStartError::Store(e)) => return Err(e.into()),
        }
        let color = solver_of(&puzzle).map_or_else(String::new, |c| color_text(lang, c));
        let text = t!(lang, "daily-start", date = date, color = color);
        self.puzzle_position(actor, &puzzle, 0, text).await
    }

    /// Ends a daily attempt: solved (with the streak it makes) or failed.
    pub(super) async fn finish_daily(
        &self,
        actor: &Actor,
        day: i64,
        progress: i64,
        solved: bool,
        now: i64,
    ) -> Result<Ended, ServiceError> {
        let lang = actor.lang();
        match self
            .store()
            .finish_daily_attempt(&actor.server, day, &actor.user, progress, solved, now)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                let attempt = self
                    .store()
                    .daily_attempt(&actor.server, day, &actor.user)
                    .await?;
                return match (attempt, self.store().daily(&actor.server, day).await?) {
                    (
                        Some(DailyAttempt {
                            status: DailyStatus::Expired,
                            ..
                        }),
                        Some(record),
                    ) => refuse_msg(closed_msg(&record)),
                    _ => refuse_msg(msg!("puzzle-moved-on")),
                };
            }
            Err(e) => return Err(e.into()),
        }
        let settings = self.store().server(&actor.server).await?;
        let result = if solved {
            let streak = self.streak(&actor.server, &actor.user, day).await?;
            t!(lang, "daily-solved", streak = streak)
        } else {
            t!(lang, "daily-failed")
        };
        Ok(Ended {
            result,
            next: t!(lang, "daily-next", time = hour_text(&settings)),
        })
    }

    /// What to say to a `/move` with nothing open whose latest daily
    /// attempt the day's close ended lately.
    pub(super) async fn daily_closed_lately(
        &self,
        actor: &Actor,
    ) -> Result<Option<Msg>, ServiceError> {
        let Some(latest) = self
            .store()
            .latest_daily_attempt(&actor.server, &actor.user)
            .await?
        else {
            return Ok(None);
        };
        let lately = latest
            .ended_ms
            .is_some_and(|end| self.now_ms() - end < CLOSED_LATELY_MS);
        if latest.status != DailyStatus::Expired || !lately {
            return Ok(None);
        }
        let record = self.store().daily(&actor.server, latest.day).await?;
        Ok(record.as_ref().map(closed_msg))
    }
}

/// "The daily puzzle of … is closed: its solution is posted in #…".
fn closed_msg(record: &DailyRecord) -> Msg {
    msg!(
        "daily-closed",
        date = day_text(record.day),
        channel = format!("<#{}>", record.channel_id)
    )
}
