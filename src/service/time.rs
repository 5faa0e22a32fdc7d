//! Time: deadlines (correspondence days per move, live flags), reminders,
//! vacations, give-time, unstarted games, and downtime.
//!
//! Nothing here keeps a timer in memory. Every deadline is a column of its
//! game, so a restart loses none, and [`Service::tick`] (called every second
//! by the Discord runtime, and by the console's `:advance` at each event)
//! fires what is due. Firing is a version-checked commit like any move, and
//! a reminder is recorded under a primary key before it is sent, so with
//! several processes each deadline fires and each reminder goes out once.
//! The cost of re-arming at start-up is one indexed query; memory does not
//! grow with the number of pending deadlines.

use super::{
    buttons::GameButton,
    error::{refuse, refuse_msg, ServiceError},
    session::Session,
    Actor, ButtonStyle, Notice, Reply, Service,
};
use crate::{
    chess::{color_text, Game},
    clock::{clocks_paused, human_left_in, TimeControl},
    i18n::{join_sentences, Lang},
    msg,
    store::StoreError,
    t,
};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// How long a live game waits for each side's first move before it is aborted.
const LIVE_FIRST_MOVE_MS: i64 = 2 * 60_000;
/// Extra time after a restart for correspondence deadlines that passed while
/// the bot was down.
pub const DOWNTIME_GRACE_MS: i64 = HOUR_MS;
/// Heartbeats further apart than this mean the bot was down.
const DOWNTIME_THRESHOLD_MS: i64 = 60_000;
/// Most extra time a player can give their opponent for one turn.
const MAX_BONUS_MS: i64 = 14 * DAY_MS;
/// Games handled per tick, so one tick stays short.
const TICK_BATCH: i64 = 200;

impl Service {
    /// The deadline of the side to move in `game`: correspondence days from
    /// the start of the turn, pushed back by the mover's vacations and the
    /// turn's extra time; for a live game, when the mover's flag falls.
    pub(super) async fn deadline_for(
        &self,
        session: &Session,
        game: &Game,
        bonus_ms: i64,
    ) -> Result<Option<i64>, ServiceError> {
        let record = &session.record;
        let Ok(tc) = record.game.time_control.parse::<TimeControl>() else {
            return Ok(None);
        };
        if game.is_over() {
            return Ok(None);
        }
        let turn_start = game.last_ply().map_or(record.game.created_ms, |p| p.at_ms);
        Ok(match &tc {
            TimeControl::Unlimited => None,
            TimeControl::Correspondence(c) => {
                let mut deadline = turn_start + i64::from(c.days()) * DAY_MS;
                let vacations = if self.vacations_pause(session).await? {
                    self.vacations_of(session, game.turn(), turn_start).await?
                } else {
                    Vec::new()
                };
                for v in vacations {
                    if v.starts_ms < deadline {
                        deadline += v.ends_ms - v.starts_ms.max(turn_start);
                    }
                }
                Some(deadline + bonus_ms)
            }
            TimeControl::Live(live) => {
                // A sealed move stops the clocks until the resumption (the
                // scheduler's, see `adjourn.rs`).
                if session
                    .open_adjournment()
                    .is_some_and(|a| a.sealed_uci.is_some())
                {
                    return Ok(None);
                }
                let times: Vec<i64> = game.plies().iter().map(|p| p.at_ms).collect();
                let flag = match clocks_paused(live, &times, &session.pauses()).flag_time() {
                    Some(flag) => flag + bonus_ms,
                    None => turn_start + LIVE_FIRST_MOVE_MS + bonus_ms,
                };
                Some(Box::pin(self.live_deadline(session, game, flag)).await?)
            }
        })
    }

    /// Fires every deadline and reminder that is due. Returns what to post.
    pub async fn tick(&self) -> Vec<Notice> {
        let mut notices = logged(self.try_tick().await, "scheduler tick");
        self.retry_computer_turns();
        notices.extend(self.retry_conditional_moves().await);
        notices.extend(self.take_notices());
        notices
            .into_iter()
            .map(|mut n| {
                n.reply = super::without_computer_mentions(n.reply);
                n
            })
            .collect()
    }

    async fn try_tick(&self) -> Result<Vec<Notice>, ServiceError> {
        let now = self.now_ms();
        self.store().heartbeat(now).await?;
        // The sweeps find games by a lower bound of their deadline and next
        // reminder, which moves leave behind (store/time.rs): bring the
        // bounds that have passed up to date first, so that the sweeps read
        // only the games really due.
        self.store().raise_wakes(now).await?;
        let mut notices = Vec::new();
        for record in self.store().games_due_by(now, TICK_BATCH).await? {
            if let Some(notice) = self.expire(record.id).await? {
                notices.push(notice);
            }
        }
        notices.extend(self.remind(now).await?);
        notices.extend(self.adjournment_tick(now).await?);
        notices.extend(self.tournament_tick(now).await?);
        notices.extend(Box::pin(self.daily_tick(now)).await?);
        self.mining_tick().await?;
        Ok(notices)
    }

    /// Ends a game whose deadline has passed: a loss on time (or a draw if
    /// the other side cannot mate), or an abort if the game never started.
    /// `None` if it is no longer due (another process or a move got there).
    pub(super) async fn expire(&self, game_id: i64) -> Result<Option<Notice>, ServiceError> {
        let _guard = self.lock_game(game_id).await;
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(None);
        };
        let due =
            record.is_active() && record.state.deadline_ms.is_some_and(|d| d <= self.now_ms());
        if !due {
            return Ok(None);
        }
        let mut session = self.load(record).await?;
        // A live game's deadline may be its session's end (`adjourn.rs`).
        match self.session_end_instead(&mut session).await {
            Ok(None) => {}
            Ok(Some(reply)) => {
                return Ok(reply.map(|reply| Notice {
                    channel: session.record.game.channel_id.clone(),
                    dm_user: None,
                    reply,
                }))
            }
            Err(ServiceError::User(_)) => return Ok(None),
            Err(e) => return Err(e),
        }
        match self.expire_session(&mut session).await {
            Ok(reply) => Ok(Some(Notice {
                channel: session.record.game.channel_id.clone(),
                dm_user: None,
                reply,
            })),
            Err(ServiceError::User(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Ends a loaded, due game and describes it.
    pub(super) async fn expire_session(
        &self,
        session: &mut Session,
    ) -> Result<Reply, ServiceError> {
        let mut game = session.game.clone();
        let flagged = game.turn();
        let unstarted = game.can_abort();
        // Absent an hour after a resumption, with time left on the clock.
        let now = self.now_ms();
        let late = Self::late_at(session, &game).is_some_and(|l| l <= now)
            && Self::clock_flag(session, &game).is_some_and(|f| f > now);
        let (lang, _) = self.session_words(session).await?;
        if unstarted {
            game.abort().or_else(|e| refuse(e.text(lang)))?;
        } else {
            game.flag(flagged).or_else(|e| refuse(e.text(lang)))?;
        }
        let applied = self.commit(session, &game, false).await?;
        let mut reply = self.board_reply(session, &game, applied.ratings).await?;
        let name = self
            .name_in(
                &session.record.game.server_id,
                session.player_id(flagged),
                lang,
            )
            .await?;
        let in_tournament = unstarted
            && self
                .store()
                .tournament_of_game(session.record.id)
                .await?
                .is_some();
        let what = if in_tournament {
            // The tournament scores it as a forfeit by the side to move.
            t!(lang, "tournament-forfeit-first-move", name = name.as_str())
        } else if unstarted {
            t!(lang, "time-unstarted-aborted")
        } else if late {
            t!(
                lang,
                "adjourn-late",
                name = name,
                color = color_text(lang, flagged)
            )
        } else {
            t!(
                lang,
                "time-ran-out",
                name = name,
                color = color_text(lang, flagged)
            )
        };
        reply.text = join_sentences(lang, [what.as_str(), &reply.text]);
        reply.mentions = vec![
            session.record.game.white_id.clone(),
            session.record.game.black_id.clone(),
        ];
        Ok(reply)
    }

    /// Reminds players whose correspondence deadlines come near.
    async fn remind(&self, now: i64) -> Result<Vec<Notice>, ServiceError> {
        let mut notices = Vec::new();
        for record in self.store().games_to_remind_by(now, TICK_BATCH).await? {
            let Some(deadline) = record.state.deadline_ms else {
                self.store().set_next_reminder(record.id, None).await?;
                continue;
            };
            let session = self.load(record).await?;
            let hours = self.settings_of(&session).await?.reminder_hours.clone();
            let ply = session.game.plies().len() as i64;
            let turn_start = session
                .game
                .last_ply()
                .map_or(session.record.game.created_ms, |p| p.at_ms);
            // Every reminder of this turn that is due by now is marked sent
            // (several at once after downtime); one message goes out.
            let mut fresh = false;
            for h in &hours {
                let at = deadline - h * HOUR_MS;
                if at <= now && at > turn_start {
                    fresh |= self
                        .store()
                        .mark_reminder(session.record.id, ply, *h, now)
                        .await?;
                }
            }
            let next = next_reminder_at(Some(deadline), turn_start, &hours, now);
            self.store()
                .set_next_reminder(session.record.id, next)
                .await?;
            if fresh {
                notices.extend(self.reminder_notice(&session, deadline, now).await?);
            }
        }
        Ok(notices)
    }

    /// Re-derives the current turn's deadline (with `bonus` extra time) and
    /// its next reminder, and stores them if the game is still at the
    /// session's version. Returns the deadline and the store's answer
    /// (`Conflict` when the game moved on meanwhile).
    async fn reschedule_turn(
        &self,
        session: &Session,
        bonus: i64,
        now: i64,
    ) -> Result<(Option<i64>, Result<(), StoreError>), ServiceError> {
        let r = &session.record;
        let deadline = self.deadline_for(session, &session.game, bonus).await?;
        let reminder = self
            .next_reminder_for(session, &session.game, deadline, now)
            .await?;
        let written = self
            .store()
            .set_deadline(r.id, r.version, deadline, bonus, reminder)
            .await;
        Ok((deadline, written))
    }

    /// When the next reminder of `game`'s current turn falls after `after`.
    pub(super) async fn next_reminder_for(
        &self,
        session: &Session,
        game: &Game,
        deadline: Option<i64>,
        after: i64,
    ) -> Result<Option<i64>, ServiceError> {
        let record = &session.record;
        if !matches!(
            record.game.time_control.parse::<TimeControl>(),
            Ok(TimeControl::Correspondence(_))
        ) {
            return Ok(None);
        }
        let hours = &self.settings_of(session).await?.reminder_hours;
        let turn_start = game.last_ply().map_or(record.game.created_ms, |p| p.at_ms);
        Ok(next_reminder_at(deadline, turn_start, hours, after))
    }

    async fn reminder_notice(
        &self,
        session: &Session,
        deadline: i64,
        now: i64,
    ) -> Result<Option<Notice>, ServiceError> {
        let server = &session.record.game.server_id;
        let mover = session.player_id(session.game.turn()).to_owned();
        let opponent_id = session.player_id(!session.game.turn());
        let player = self.store().player(server, &mover).await?;
        if let Some(p) = player.as_ref().filter(|p| p.notify_dm) {
            // A direct message with no command to answer: the player's
            // last known client language.
            let lang = Lang::from_locale(p.locale.as_deref());
            // One summary a day lists every waiting game; later reminders
            // that day are covered by it.
            if !self
                .store()
                .claim_dm_summary(server, &mover, now.div_euclid(DAY_MS))
                .await?
            {
                return Ok(None);
            }
            let mut lines = vec![t!(lang, "time-summary-title")];
            for g in self.store().games_of(server, &mover, true, 25).await? {
                let s = self.load(g).await?;
                if s.player_id(s.game.turn()) != mover {
                    continue;
                }
                let other = self
                    .name_in(server, s.player_id(!s.game.turn()), lang)
                    .await?;
                lines.push(match s.record.state.deadline_ms {
                    Some(d) => t!(
                        lang,
                        "time-summary-line-left",
                        id = s.record.id,
                        opponent = other,
                        left = human_left_in(lang, d - now)
                    ),
                    None => t!(
                        lang,
                        "time-summary-line",
                        id = s.record.id,
                        opponent = other
                    ),
                });
            }
            return Ok(Some(Notice {
                channel: None,
                dm_user: Some(mover),
                reply: Reply::text(lines.join("\n")),
            }));
        }
        let (lang, _) = self.session_words(session).await?;
        let opponent = self.name_in(server, opponent_id, lang).await?;
        Ok(Some(Notice {
            channel: session.record.game.channel_id.clone(),
            dm_user: None,
            reply: Reply {
                text: t!(
                    lang,
                    "time-reminder",
                    opponent = opponent,
                    id = session.record.id,
                    left = human_left_in(lang, deadline - now)
                ),
                mentions: vec![mover],
                card: None,
                ..Reply::default()
            },
        }))
    }

    /// At start-up: time the bot was down is not charged. Correspondence
    /// deadlines that passed meanwhile get [`DOWNTIME_GRACE_MS`] from now;
    /// live clocks resume as they stood at the last stored move.
    pub async fn startup(&self) -> Vec<Notice> {
        let mut notices = logged(self.try_startup().await, "start-up recovery");
        // Conditional answers owed to moves made just before a stop.
        notices.extend(logged(
            self.resume_conditional_moves().await,
            "resuming conditional moves",
        ));
        // Tournament games whose thread a stop kept from opening.
        notices.extend(logged(
            self.reopen_tournament_threads().await,
            "reopening tournament threads",
        ));
        // Work the engine owed before a restart: the computer's turns and
        // unfinished analyses.
        logged(
            self.resume_computer_games().await.map(|()| Vec::new()),
            "resuming games against the computer",
        );
        logged(
            self.resume_analyses().await.map(|()| Vec::new()),
            "resuming analyses",
        );
        notices
    }

    async fn try_startup(&self) -> Result<Vec<Notice>, ServiceError> {
        let now = self.now_ms();
        let last = self.store().last_heartbeat().await?;
        self.store().heartbeat(now).await?;
        let Some(last) = last.filter(|l| now - l > DOWNTIME_THRESHOLD_MS) else {
            return Ok(Vec::new());
        };
        let mut notices = Vec::new();
        for record in self.store().games_due_by(i64::MAX, i64::MAX).await? {
            let _guard = self.lock_game(record.id).await;
            let session = self.load(record).await?;
            let r = &session.record;
            let Some(deadline) = r.state.deadline_ms else {
                continue;
            };
            let live = matches!(
                r.game.time_control.parse::<TimeControl>(),
                Ok(TimeControl::Live(_))
            );
            let turn_start = session
                .game
                .last_ply()
                .map_or(r.game.created_ms, |p| p.at_ms);
            let (lang, _) = self.session_words(&session).await?;
            let (bonus, text) = if live {
                (
                    r.state.bonus_ms + (now - turn_start).max(0),
                    t!(lang, "time-downtime-live", id = r.id),
                )
            } else if deadline > last && deadline <= now {
                (
                    r.state.bonus_ms + (now + DOWNTIME_GRACE_MS - deadline),
                    t!(lang, "time-downtime-grace", id = r.id),
                )
            } else {
                continue;
            };
            let (_, written) = self.reschedule_turn(&session, bonus, now).await?;
            match written {
                Ok(()) | Err(StoreError::Conflict) => {}
                Err(e) => return Err(e.into()),
            }
            notices.push(Notice {
                channel: r.game.channel_id.clone(),
                dm_user: None,
                reply: Reply {
                    text,
                    mentions: vec![session.player_id(session.game.turn()).to_owned()],
                    ..Reply::default()
                },
            });
        }
        Ok(notices)
    }

    /// When the next deadline or reminder falls (for a simulated clock that
    /// jumps from event to event).
    pub async fn next_event_ms(&self) -> Option<i64> {
        let deadline = self.store().games_due_by(i64::MAX, 1).await.ok()?;
        let reminder = self.store().games_to_remind_by(i64::MAX, 1).await.ok()?;
        let resumption = self.next_resumption_event().await;
        let daily = self.next_daily_event().await;
        deadline
            .iter()
            .filter_map(|g| g.state.deadline_ms)
            .chain(reminder.iter().filter_map(|g| g.state.next_reminder_ms))
            .chain(resumption)
            .chain(daily)
            .min()
    }

    /// Re-derives the deadlines of `user`'s correspondence games where it is
    /// their move (after a vacation starts or ends).
    pub(super) async fn refresh_deadlines_of(
        &self,
        server: &str,
        user: &str,
    ) -> Result<Vec<String>, ServiceError> {
        let mut opponents = Vec::new();
        for record in self.store().games_of(server, user, true, 100).await? {
            let _guard = self.lock_game(record.id).await;
            let Some(record) = self.store().game(record.id).await? else {
                continue;
            };
            let session = self.load(record).await?;
            let Some(side) = session.side_of(user) else {
                continue;
            };
            opponents.push(session.player_id(!side).to_owned());
            if session.game.turn() != side {
                continue;
            }
            let bonus = session.record.state.bonus_ms;
            match self
                .reschedule_turn(&session, bonus, self.now_ms())
                .await?
                .1
            {
                Ok(()) | Err(StoreError::Conflict) => {}
                Err(e) => return Err(e.into()),
            }
        }
        opponents.sort();
        opponents.dedup();
        Ok(opponents)
    }

    pub(super) async fn vacation(&self, actor: &Actor, days: i64) -> Result<Reply, ServiceError> {
        let now = self.now_ms();
        let settings = self.store().server(&actor.server).await?;
        let lang = super::lang::settings_lang(&settings);
        let mine = actor.lang();
        let name = super::display_name(&actor.name);
        if days == 0 {
            if !self
                .store()
                .end_vacation(&actor.server, &actor.user, now)
                .await?
            {
                return refuse_msg(msg!("vacation-not-on"));
            }
            let opponents = self
                .refresh_deadlines_of(&actor.server, &actor.user)
                .await?;
            return Ok(Reply {
                text: t!(lang, "vacation-back", name = name),
                mentions: opponents,
                ..Reply::default()
            });
        }
        let budget = settings.vacation_days_per_year;
        if !(1..=budget.max(1)).contains(&days) || budget == 0 {
            return refuse_msg(msg!("vacation-days-range", budget = budget));
        }
        let year_ago = now - 365 * DAY_MS;
        let taken = self
            .store()
            .vacations(&actor.server, &actor.user, year_ago)
            .await?;
        if let Some(running) = taken.iter().find(|v| v.starts_ms <= now && v.ends_ms > now) {
            return refuse(t!(
                mine,
                "vacation-already",
                left = human_left_in(mine, running.ends_ms - now)
            ));
        }
        let used_ms: i64 = taken
            .iter()
            .map(|v| v.ends_ms - v.starts_ms.max(year_ago))
            .sum();
        let left_ms = budget * DAY_MS - used_ms;
        if days * DAY_MS > left_ms {
            return refuse_msg(msg!(
                "vacation-too-much",
                left = left_ms.max(0) as f64 / DAY_MS as f64,
                budget = budget
            ));
        }
        self.store()
            .add_vacation(&actor.server, &actor.user, now, now + days * DAY_MS)
            .await?;
        let opponents = self
            .refresh_deadlines_of(&actor.server, &actor.user)
            .await?;
        Ok(Reply {
            text: t!(lang, "vacation-started", name = name, count = days),
            mentions: opponents,
            ..Reply::default()
        })
    }

    pub(super) async fn give_time(
        &self,
        actor: &Actor,
        game_id: i64,
    ) -> Result<Reply, ServiceError> {
        let _guard = self.lock_game(game_id).await;
        let Some(record) = self.store().game(game_id).await? else {
            return refuse_msg(msg!("game-not-found"));
        };
        if record.game.server_id != actor.server || !record.is_active() {
            return refuse_msg(msg!("rule-game-over"));
        }
        let session = self.load(record).await?;
        let side = session.side_of_actor(actor)?;
        if session.game.turn() == side {
            return refuse_msg(msg!("give-time-own-turn"));
        }
        let r = &session.record;
        if !matches!(
            r.game.time_control.parse::<TimeControl>(),
            Ok(TimeControl::Correspondence(_))
        ) {
            return refuse_msg(msg!("give-time-not-correspondence"));
        }
        let bonus = r.state.bonus_ms + DAY_MS;
        if bonus > MAX_BONUS_MS {
            return refuse_msg(msg!("give-time-max", count = MAX_BONUS_MS / DAY_MS));
        }
        let (deadline, written) = self.reschedule_turn(&session, bonus, self.now_ms()).await?;
        match written {
            Ok(()) => self.game_changed(game_id),
            Err(StoreError::Conflict) => return refuse_msg(msg!("give-time-moved-on")),
            Err(e) => return Err(e.into()),
        }
        let opponent = session.player_id(!side).to_owned();
        let (lang, _) = self.session_words(&session).await?;
        let opponent_name = self.name_in(&actor.server, &opponent, lang).await?;
        Ok(Reply {
            text: t!(
                lang,
                "give-time-given",
                name = super::display_name(&actor.name),
                opponent = opponent_name,
                left =
                    deadline.map_or_else(String::new, |d| human_left_in(lang, d - self.now_ms()))
            ),
            mentions: vec![opponent],
            ..Reply::default()
        })
    }

    /// The give-time button for correspondence boards.
    pub(super) fn give_time_button(
        &self,
        session: &Session,
        game: &crate::chess::Game,
        lang: Lang,
    ) -> Option<super::Button> {
        matches!(
            session.record.game.time_control.parse::<TimeControl>(),
            Ok(TimeControl::Correspondence(_))
        )
        .then(|| {
            self.game_button(
                session,
                game,
                GameButton::GiveTime,
                &t!(lang, "button-give-time"),
                ButtonStyle::Secondary,
            )
        })
    }
}

/// The deadline of a game that has just been created.
pub(super) fn first_deadline(time_control: &str, now_ms: i64) -> Option<i64> {
    match time_control.parse::<TimeControl>().ok()? {
        TimeControl::Correspondence(c) => Some(now_ms + i64::from(c.days()) * DAY_MS),
        TimeControl::Live(_) => Some(now_ms + LIVE_FIRST_MOVE_MS),
        TimeControl::Unlimited => None,
    }
}

/// The notices, or none when the work failed (logged once here: the
/// scheduler runs unattended, there is nobody to answer).
fn logged(result: Result<Vec<Notice>, ServiceError>, what: &str) -> Vec<Notice> {
    result.unwrap_or_else(|e| {
        tracing::error!(error = %e, "{what} failed");
        Vec::new()
    })
}

/// The first reminder time (deadline minus one of `hours`) that falls
/// after both `after` and the start of the turn: a reminder as long as the
/// whole turn would make no sense.
pub(super) fn next_reminder_at(
    deadline: Option<i64>,
    turn_start: i64,
    hours: &[i64],
    after: i64,
) -> Option<i64> {
    let deadline = deadline?;
    hours
        .iter()
        .map(|h| deadline - h * HOUR_MS)
        .filter(|at| *at > after.max(turn_start))
        .min()
}
