//! Server settings, changed by moderators only: default time control,
//! threads, board theme, the strict illegal-move rule, challenge lifetime and
//! the daily limit of rated games between the same two players. Each value
//! a moderator changes is recorded in the audit log (`audit.rs`).

use super::{
    error::{refuse_msg, ServiceError},
    Actor, Reply, Service, Setting,
};
use crate::{
    chess::Notation,
    i18n::Lang,
    msg,
    render::Theme,
    store::{ServerSettings, WebPages},
    t,
};

impl Service {
    pub(super) async fn settings(
        &self,
        actor: &Actor,
        changes: Vec<Setting>,
    ) -> Result<Reply, ServiceError> {
        let mut settings = self.store().server(&actor.server).await?;
        let mine = actor.lang();
        if changes.is_empty() {
            let lang = mine;
            return Ok(Reply::private(
                t!(
                    lang,
                    "settings-show",
                    time = &settings.default_time_control,
                    threads = on_off(lang, settings.threads),
                    theme = &settings.theme,
                    strict = on_off(lang, settings.strict_illegal_moves),
                    hours = settings.challenge_ttl_ms / 3_600_000,
                    per_pair = match settings.rated_games_per_pair_daily {
                        0 => t!(lang, "settings-unlimited"),
                        n => n.to_string(),
                    },
                    language = language_text(lang, &settings),
                    notation = notation_text(lang, &settings),
                    reminders = hours_list(lang, &settings.reminder_hours),
                    vacation_days = settings.vacation_days_per_year
                ) + "\n"
                    + &puzzle_settings_text(lang, &settings),
            ));
        }
        let personal_only = changes.iter().all(|c| matches!(c, Setting::NotifyByDm(_)));
        if !actor.is_moderator && !personal_only {
            return refuse_msg(msg!("settings-moderators-only"));
        }
        let before = settings.clone();
        // The confirmation is public: the server's language, as chosen by
        // this very command if it changes the language.
        let mut done: Vec<Box<dyn Fn(Lang) -> String + Send>> = Vec::new();
        for change in changes {
            match change {
                Setting::DefaultTime(text) => {
                    let tc = super::play::parse_time_control(&text, mine)?;
                    let control = tc.control.clone();
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-time", time = control.text(lang))
                    }));
                    settings.default_time_control = tc.canonical;
                }
                Setting::Spectators(on) => {
                    settings.spectators = on;
                    done.push(Box::new(move |lang| {
                        t!(
                            lang,
                            "web-settings-done-spectators",
                            value = on_off(lang, on)
                        )
                    }));
                }
                Setting::WebPages(value) => {
                    let wanted = value.trim().to_ascii_lowercase();
                    let Some(pages) = WebPages::from_id(&wanted) else {
                        return refuse_msg(msg!(
                            "web-settings-pages-unknown",
                            value = super::error::echo(&value, 20)
                        ));
                    };
                    settings.web_pages = pages;
                    if pages != WebPages::Off && settings.web_slug.is_none() {
                        settings.web_slug = Some(super::pages::new_slug());
                    }
                    let address = match (pages, self.club_url(&settings, "")) {
                        (WebPages::Off, _) => None,
                        (_, url) => Some(url),
                    };
                    done.push(Box::new(move |lang| {
                        let value = super::pages::pages_text(lang, pages);
                        let said = t!(lang, "web-settings-done-pages", value = value);
                        match &address {
                            None => said,
                            Some(Some(url)) => {
                                format!(
                                    "{said} {}",
                                    t!(lang, "web-pages-address", url = url.as_str())
                                )
                            }
                            Some(None) => format!("{said} {}", t!(lang, "web-pages-not-served")),
                        }
                    }));
                }
                Setting::Threads(on) => {
                    settings.threads = on;
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-threads", value = on_off(lang, on))
                    }));
                }
                Setting::Theme(name) => {
                    let name = name.trim().to_ascii_lowercase();
                    if Theme::by_name(&name).is_none() {
                        let names: Vec<&str> = Theme::names().collect();
                        return refuse_msg(msg!(
                            "settings-theme-unknown",
                            names = names.join(", ")
                        ));
                    }
                    let shown = name.clone();
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-theme", theme = shown.as_str())
                    }));
                    settings.theme = name;
                }
                Setting::StrictIllegalMoves(on) => {
                    settings.strict_illegal_moves = on;
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-strict", value = on_off(lang, on))
                    }));
                }
                Setting::ChallengeHours(hours) => {
                    if !(1..=24 * 14).contains(&hours) {
                        return refuse_msg(msg!("settings-challenge-hours-range"));
                    }
                    settings.challenge_ttl_ms = hours * 3_600_000;
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-challenge-hours", hours = hours)
                    }));
                }
                Setting::VacationDaysPerYear(days) => {
                    if !(0..=60).contains(&days) {
                        return refuse_msg(msg!("settings-vacation-days-range"));
                    }
                    settings.vacation_days_per_year = days;
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-vacation-days", count = days)
                    }));
                }
                Setting::Language(code) => {
                    let code = code.trim();
                    if code.eq_ignore_ascii_case("auto") {
                        settings.language = None;
                    } else {
                        let Some(lang) = Lang::parse(code) else {
                            return refuse_msg(msg!(
                                "settings-language-unknown",
                                value = super::error::echo(code, 20)
                            ));
                        };
                        settings.language = Some(lang.code().to_owned());
                    }
                    let snapshot = settings.clone();
                    done.push(Box::new(move |lang| {
                        t!(
                            lang,
                            "settings-done-language",
                            value = language_text(lang, &snapshot)
                        )
                    }));
                }
                Setting::Notation(name) => {
                    let name = name.trim();
                    if name.eq_ignore_ascii_case("auto") {
                        settings.notation = None;
                    } else {
                        let Some(notation) = Notation::from_id(name) else {
                            return refuse_msg(msg!(
                                "settings-notation-unknown",
                                value = super::error::echo(name, 20)
                            ));
                        };
                        settings.notation = Some(notation.id().to_owned());
                    }
                    let snapshot = settings.clone();
                    done.push(Box::new(move |lang| {
                        t!(
                            lang,
                            "settings-done-notation",
                            value = notation_text(lang, &snapshot)
                        )
                    }));
                }
                Setting::ReminderHours(hours) => {
                    if hours.is_empty()
                        || hours.len() > 4
                        || hours.iter().any(|h| !(1..=24 * 7).contains(h))
                    {
                        return refuse_msg(msg!("settings-reminders-range"));
                    }
                    let mut hours = hours;
                    hours.sort_unstable_by(|a, b| b.cmp(a));
                    hours.dedup();
                    let shown = hours.clone();
                    done.push(Box::new(move |lang| {
                        t!(
                            lang,
                            "settings-done-reminders",
                            hours = hours_list(lang, &shown)
                        )
                    }));
                    settings.reminder_hours = hours;
                }
                Setting::NotifyByDm(dm) => {
                    self.store()
                        .set_notify_dm(&actor.server, &actor.user, dm)
                        .await?;
                    let name = super::display_name(&actor.name);
                    done.push(Box::new(move |lang| {
                        if dm {
                            t!(lang, "settings-done-notify-dm", name = name.as_str())
                        } else {
                            t!(lang, "settings-done-notify-channel", name = name.as_str())
                        }
                    }));
                }
                Setting::SessionHours(hours) => {
                    if !(1..=12).contains(&hours) {
                        return refuse_msg(msg!("settings-session-hours-range"));
                    }
                    settings.session_hours = hours;
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-session-hours", hours = hours)
                    }));
                }
                Setting::TimeZone(text) => {
                    let Ok(minutes) = crate::clock::parse_utc_offset(&text) else {
                        return refuse_msg(msg!(
                            "settings-time-zone-unknown",
                            value = super::error::echo(&text, 20)
                        ));
                    };
                    settings.utc_offset_minutes = minutes;
                    let zone = crate::clock::offset_text(minutes);
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-time-zone", zone = zone.as_str())
                    }));
                }
                Setting::PuzzleChannel(channel) => {
                    settings.puzzle_channel = channel.clone();
                    done.push(Box::new(move |lang| match &channel {
                        Some(id) => t!(
                            lang,
                            "settings-done-puzzle-channel",
                            channel = format!("<#{id}>")
                        ),
                        None => t!(lang, "settings-done-puzzle-channel-off"),
                    }));
                }
                // `off` ends the daily puzzle (Discord's channel option
                // cannot be cleared).
                Setting::PuzzleTime(text) if text.trim().eq_ignore_ascii_case("off") => {
                    settings.puzzle_channel = None;
                    done.push(Box::new(|lang| {
                        t!(lang, "settings-done-puzzle-channel-off")
                    }));
                }
                Setting::PuzzleTime(text) => {
                    let Some(hour) = crate::puzzle::daily::parse_hour(&text) else {
                        return refuse_msg(msg!(
                            "settings-puzzle-time-bad",
                            value = super::error::echo(&text, 20)
                        ));
                    };
                    settings.puzzle_hour = hour;
                    done.push(Box::new(move |lang| {
                        t!(
                            lang,
                            "settings-done-puzzle-time",
                            hour = format!("{hour:02}:00")
                        )
                    }));
                }
                Setting::PuzzleMining(on) => {
                    settings.puzzle_mining_since_ms = match (on, settings.puzzle_mining_since_ms) {
                        (true, Some(since)) => Some(since),
                        (true, None) => Some(self.now_ms()),
                        (false, _) => None,
                    };
                    done.push(Box::new(move |lang| {
                        t!(
                            lang,
                            "settings-done-puzzle-mining",
                            value = on_off(lang, on)
                        )
                    }));
                }
                Setting::RatedGamesPerPairDaily(n) => {
                    if !(0..=100).contains(&n) {
                        return refuse_msg(msg!("settings-per-pair-range"));
                    }
                    settings.rated_games_per_pair_daily = n;
                    done.push(Box::new(move |lang| {
                        t!(lang, "settings-done-per-pair", count = n)
                    }));
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
        let lang = super::lang::settings_lang(&settings);
        let done: Vec<String> = done.iter().map(|line| line(lang)).collect();
        Ok(Reply::text(t!(
            lang,
            "settings-changed",
            changes = done.join(&t!(lang, "settings-separator"))
        )))
    }
}

/// The puzzle settings in words: the daily puzzle's channel and hour, and
/// whether games are mined for puzzles.
fn puzzle_settings_text(lang: Lang, settings: &ServerSettings) -> String {
    let daily = match &settings.puzzle_channel {
        Some(id) => t!(
            lang,
            "settings-show-daily",
            channel = format!("<#{id}>"),
            hour = format!("{:02}:00", settings.puzzle_hour),
            zone = crate::clock::offset_text(settings.utc_offset_minutes)
        ),
        None => t!(lang, "settings-show-daily-off"),
    };
    let mining = on_off(lang, settings.puzzle_mining_since_ms.is_some());
    t!(
        lang,
        "settings-show-puzzles",
        daily = daily,
        mining = mining
    )
}

/// `48, 24 and 1` (the hours of the reminders), or `none`.
fn hours_list(lang: Lang, hours: &[i64]) -> String {
    let list: Vec<String> = hours.iter().map(i64::to_string).collect();
    match list.split_last() {
        None => t!(lang, "settings-reminders-none"),
        Some((last, rest)) if !rest.is_empty() => t!(
            lang,
            "settings-list-and",
            first = crate::i18n::join_list(lang, rest),
            last = last
        ),
        Some((last, _)) => last.clone(),
    }
}

fn on_off(lang: Lang, on: bool) -> String {
    if on {
        t!(lang, "settings-on")
    } else {
        t!(lang, "settings-off")
    }
}

/// The language setting in words: `English`, `简体中文`, or what `auto`
/// follows.
fn language_text(lang: Lang, settings: &ServerSettings) -> String {
    let name = |l: Lang| match l {
        Lang::En => t!(lang, "settings-language-en"),
        Lang::ZhCn => t!(lang, "settings-language-zh"),
    };
    match settings.language.as_deref().and_then(Lang::parse) {
        Some(chosen) => name(chosen),
        None => t!(
            lang,
            "settings-auto",
            value = name(super::lang::settings_lang(settings))
        ),
    }
}

/// The notation setting in words.
fn notation_text(lang: Lang, settings: &ServerSettings) -> String {
    let name = |n: Notation| match n {
        Notation::Letters => t!(lang, "settings-notation-letters"),
        Notation::Chinese => t!(lang, "settings-notation-chinese"),
    };
    match settings.notation.as_deref().and_then(Notation::from_id) {
        Some(chosen) => name(chosen),
        None => t!(
            lang,
            "settings-auto",
            value = name(super::lang::settings_notation(settings))
        ),
    }
}
