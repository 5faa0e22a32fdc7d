//! The moderators' audit log: what a settings change records (one entry
//! per value that changed, old and new), and `/settings log [page]`, which
//! shows it, newest first, to moderators only.

use super::{
    error::{refuse, ServiceError},
    Actor, Reply, Service,
};
use crate::{
    clock::utc_minute,
    store::{AuditEntry, ServerSettings, DELETED_PLAYER},
};

/// Entries per page of `/settings log`.
pub(super) const PAGE: i64 = 10;

/// Each server setting that differs between `old` and `new`, as
/// `(name, old value, new value)` in the words of `/settings`.
pub(super) fn settings_diff(old: &ServerSettings, new: &ServerSettings) -> Vec<(&'static str, String, String)> {
    let hours = |h: &[i64]| {
        h.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let all = [
        (
            "time",
            old.default_time_control.clone(),
            new.default_time_control.clone(),
        ),
        ("threads", old.threads.to_string(), new.threads.to_string()),
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
fn line(e: &AuditEntry) -> String {
    let when = utc_minute(e.at_ms);
    let who = if e.actor_id == DELETED_PLAYER {
        DELETED_PLAYER.to_owned()
    } else {
        e.actor_name.clone()
    };
    match e.action.as_str() {
        "setting" => format!(
            "{when} — {who} changed `{}`: {} → {}",
            e.subject,
            e.old_value.as_deref().unwrap_or("-"),
            e.new_value.as_deref().unwrap_or("-")
        ),
        "privacy-forget" => {
            format!("{when} — a player's data was erased at their request")
        }
        other => format!(
            "{when} — {who}: {other} {} {} → {}",
            e.subject,
            e.old_value.as_deref().unwrap_or("-"),
            e.new_value.as_deref().unwrap_or("-")
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
            return refuse("Only moderators (Manage Server) can read this server's audit log.");
        }
        if page < 1 {
            return refuse("`page` starts at 1.");
        }
        let total = self.store().audit_log_len(&actor.server).await?;
        if total == 0 {
            return Ok(Reply::private(
                "The audit log is empty: no settings change or data deletion recorded yet.",
            ));
        }
        let pages = (total + PAGE - 1) / PAGE;
        if page > pages {
            return refuse(format!(
                "There is no page {page}: the audit log has {pages} page{}.",
                if pages == 1 { "" } else { "s" }
            ));
        }
        let entries = self
            .store()
            .audit_log(&actor.server, (page - 1) * PAGE, PAGE)
            .await?;
        let mut text = format!("Audit log, page {page} of {pages} (newest first):\n");
        for e in &entries {
            text.push_str(&line(e));
            text.push('\n');
        }
        Ok(Reply::private(text.trim_end().to_owned()))
    }
}
