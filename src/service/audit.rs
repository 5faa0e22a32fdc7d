//! The moderators' audit log: what a settings change records (one entry
//! per value that changed, old and new), and `/settings log [page]`, which
//! shows it, newest first, to moderators only.

use super::{
    error::{refuse_msg, ServiceError},
    Actor, Reply, Service,
};
use crate::{
    clock::utc_minute,
    i18n::Lang,
    msg,
    store::{AuditEntry, ServerSettings, DELETED_PLAYER},
    t,
};

/// Entries per page of `/settings log`.
pub(super) const PAGE: i64 = 10;

/// Each server setting that differs between `old` and `new`, as
/// `(name, old value, new value)` in the words of `/settings`.
pub(super) fn settings_diff(
    old: &ServerSettings,
    new: &ServerSettings,
) -> Vec<(&'static str, String, String)> {
    let hours = |h: &[i64]| h.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let auto = |v: &Option<String>| v.clone().unwrap_or_else(|| "auto".to_owned());
    let channel = |v: &Option<String>| {
        v.as_ref()
            .map_or_else(|| "off".to_owned(), |c| format!("<#{c}>"))
    };
    let all = [
        (
            "time",
            old.default_time_control.clone(),
            new.default_time_control.clone(),
        ),
        ("threads", old.threads.to_string(), new.threads.to_string()),
        (
            "spectators",
            old.spectators.to_string(),
            new.spectators.to_string(),
        ),
        (
            "web",
            old.web_pages.id().to_owned(),
            new.web_pages.id().to_owned(),
        ),
        ("theme", old.theme.clone(), new.theme.clone()),
        (
            "strict_illegal_moves",
            old.strict_illegal_moves.to_string(),
            new.strict_illegal_moves.to_string(),
        ),
        (
            "challenge_hours",
            (old.challenge_ttl_ms / 3_600_000).to_string(),
            (new.challenge_ttl_ms / 3_600_000).to_string(),
        ),
        (
            "rated_per_pair_daily",
            old.rated_games_per_pair_daily.to_string(),
            new.rated_games_per_pair_daily.to_string(),
        ),
        (
            "vacation_days",
            old.vacation_days_per_year.to_string(),
            new.vacation_days_per_year.to_string(),
        ),
        (
            "reminders",
            hours(&old.reminder_hours),
            hours(&new.reminder_hours),
        ),
        ("language", auto(&old.language), auto(&new.language)),
        ("notation", auto(&old.notation), auto(&new.notation)),
        (
            "session_hours",
            old.session_hours.to_string(),
            new.session_hours.to_string(),
        ),
        (
            "time_zone",
            crate::clock::offset_text(old.utc_offset_minutes),
            crate::clock::offset_text(new.utc_offset_minutes),
        ),
        (
            "puzzle_channel",
            channel(&old.puzzle_channel),
            channel(&new.puzzle_channel),
        ),
        (
            "puzzle_time",
            old.puzzle_hour.to_string(),
            new.puzzle_hour.to_string(),
        ),
        (
            "puzzles",
            old.puzzle_mining_since_ms.is_some().to_string(),
            new.puzzle_mining_since_ms.is_some().to_string(),
        ),
    ];
    all.into_iter().filter(|(_, a, b)| a != b).collect()
}

/// The audit entries of a settings change by `actor` at `at_ms`.
pub(super) fn settings_entries(
    actor: &Actor,
    old: &ServerSettings,
    new: &ServerSettings,
    at_ms: i64,
) -> Vec<AuditEntry> {
    settings_diff(old, new)
        .into_iter()
        .map(|(name, before, after)| AuditEntry {
            server_id: actor.server.clone(),
            actor_id: actor.user.clone(),
            actor_name: super::display_name(&actor.name),
            action: "setting".to_owned(),
            subject: name.to_owned(),
            old_value: Some(before),
            new_value: Some(after),
            at_ms,
        })
        .collect()
}

/// One line of the log as shown.
fn line(lang: Lang, e: &AuditEntry) -> String {
    let when = utc_minute(e.at_ms);
    let who = if e.actor_id == DELETED_PLAYER {
        super::shown_name(lang, &e.actor_id, None)
    } else {
        e.actor_name.clone()
    };
    let old = e.old_value.as_deref().unwrap_or("-");
    let new = e.new_value.as_deref().unwrap_or("-");
    match e.action.as_str() {
        "setting" => t!(
            lang,
            "audit-line-setting",
            when = when,
            who = who,
            setting = e.subject.as_str(),
            old = old,
            new = new
        ),
        "privacy-forget" => t!(lang, "audit-line-forget", when = when),
        action => t!(
            lang,
            "audit-line-other",
            when = when,
            who = who,
            action = action,
            subject = e.subject.as_str(),
            old = old,
            new = new
        ),
    }
}

impl Service {
    pub(super) async fn settings_log(
        &self,
        actor: &Actor,
        page: i64,
    ) -> Result<Reply, ServiceError> {
        if !actor.is_moderator {
            return refuse_msg(msg!("audit-moderators-only"));
        }
        if page < 1 {
            return refuse_msg(msg!("audit-page-from-one"));
        }
        let lang = actor.lang();
        let total = self.store().audit_log_len(&actor.server).await?;
        if total == 0 {
            return Ok(Reply::private(t!(lang, "audit-empty")));
        }
        let pages = (total - 1) / PAGE + 1;
        if page > pages {
            return refuse_msg(msg!("audit-no-page", page = page, pages = pages));
        }
        let entries = self
            .store()
            .audit_log(&actor.server, (page - 1) * PAGE, PAGE)
            .await?;
        let mut text = t!(lang, "audit-header", page = page, pages = pages);
        for e in &entries {
            text.push('\n');
            text.push_str(&line(lang, e));
        }
        Ok(Reply::private(text))
    }
}
