//! Server settings, changed by moderators only: default time control,
//! threads, board theme, the strict illegal-move rule, challenge lifetime and
//! the daily limit of rated games between the same two players. Each value
//! a moderator changes is recorded in the audit log (`audit.rs`).

use super::{
    error::{refuse, ServiceError},
    Actor, Reply, Service, Setting,
};
use crate::render::Theme;

impl Service {
    pub(super) async fn settings(
        &self,
        actor: &Actor,
        changes: Vec<Setting>,
    ) -> Result<Reply, ServiceError> {
        let mut settings = self.store().server(&actor.server).await?;
        if changes.is_empty() {
            return Ok(Reply::private(format!(
                "Settings: time {}, threads {}, theme {}, strict illegal moves {}, challenges expire after {} h, rated games per pair per day {}, reminders {} before a deadline, vacation days per year {}.",
                settings.default_time_control,
                on_off(settings.threads),
                settings.theme,
                on_off(settings.strict_illegal_moves),
                settings.challenge_ttl_ms / 3_600_000,
                match settings.rated_games_per_pair_daily {
                    0 => "unlimited".to_owned(),
                    n => n.to_string(),
                },
                hours_list(&settings.reminder_hours),
                settings.vacation_days_per_year
            )));
        }
        let personal_only = changes.iter().all(|c| matches!(c, Setting::NotifyByDm(_)));
        if !actor.is_moderator && !personal_only {
            return refuse("Only moderators (Manage Server) can change the server's settings; everyone may set `notify`.");
        }
        let before = settings.clone();
        let mut done = Vec::new();
        for change in changes {
            match change {
                Setting::DefaultTime(text) => {
                    let tc = super::play::parse_time_control(&text)?;
                    done.push(format!("default time: {}", tc.description));
                    settings.default_time_control = tc.canonical;
                }
                Setting::Threads(on) => {
                    settings.threads = on;
                    done.push(format!("threads: {}", on_off(on)));
                }
                Setting::Theme(name) => {
                    let name = name.trim().to_ascii_lowercase();
                    if Theme::by_name(&name).is_none() {
                        let names: Vec<&str> = Theme::names().collect();
                        return refuse(format!(
                            "`theme`: unknown theme; choose one of {}.",
                            names.join(", ")
                        ));
                    }
                    done.push(format!("theme: {name}"));
                    settings.theme = name;
                }
                Setting::StrictIllegalMoves(on) => {
                    settings.strict_illegal_moves = on;
                    done.push(format!("strict illegal moves: {}", on_off(on)));
                }
                Setting::ChallengeHours(hours) => {
                    if !(1..=24 * 14).contains(&hours) {
                        return refuse("`challenge_hours` must be between 1 and 336.");
                    }
                    settings.challenge_ttl_ms = hours * 3_600_000;
                    done.push(format!("challenges expire after {hours} h"));
                }
                Setting::VacationDaysPerYear(days) => {
                    if !(0..=60).contains(&days) {
                        return refuse("`vacation_days` must be between 0 and 60.");
                    }
                    settings.vacation_days_per_year = days;
                    done.push(format!("vacation days per year: {days}"));
                }
                Setting::ReminderHours(hours) => {
                    if hours.is_empty()
                        || hours.len() > 4
                        || hours.iter().any(|h| !(1..=24 * 7).contains(h))
                    {
                        return refuse(
                            "`reminders` is up to four hour counts between 1 and 168, e.g. `24,1`.",
                        );
                    }
                    let mut hours = hours;
                    hours.sort_unstable_by(|a, b| b.cmp(a));
                    hours.dedup();
                    done.push(format!(
                        "reminders {} before a deadline",
                        hours_list(&hours)
                    ));
                    settings.reminder_hours = hours;
                }
                Setting::NotifyByDm(dm) => {
                    self.store()
                        .set_notify_dm(&actor.server, &actor.user, dm)
                        .await?;
                    done.push(format!(
                        "{}'s reminders: {}",
                        super::display_name(&actor.name),
                        if dm {
                            "by direct message (one summary a day)"
                        } else {
                            "as a mention in the game's channel"
                        }
                    ));
                }
                Setting::RatedGamesPerPairDaily(n) => {
                    if !(0..=100).contains(&n) {
                        return refuse(
                            "`rated_per_pair_daily` must be between 0 (no limit) and 100.",
                        );
                    }
                    settings.rated_games_per_pair_daily = n;
                    done.push(format!("rated games per pair per day: {n}"));
                }
            }
        }
        // The change and its audit entries are committed together.
        let entries = super::audit::settings_entries(actor, &before, &settings, self.now_ms());
        if !entries.is_empty() {
            self.store()
                .save_settings_logged(&settings, &entries)
                .await?;
        }
        Ok(Reply::text(format!(
            "Settings changed: {}.",
            done.join("; ")
        )))
    }
}

/// `48 h, 24 h and 1 h`.
fn hours_list(hours: &[i64]) -> String {
    let shown: Vec<String> = hours.iter().map(|h| format!("{h} h")).collect();
    match shown.as_slice() {
        [] => "none".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn on_off(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}
