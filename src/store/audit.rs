//! The moderators' audit log: who changed what, when, from which value to
//! which. Written in the same transaction as the change it records, so the
//! log never claims a change that was rolled back, nor misses one that was
//! committed.

use sqlx::{any::AnyRow, Row};

use super::{Store, StoreError};

/// One recorded action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    pub server_id: String,
    /// Who did it (a user id, or [`super::DELETED_PLAYER`]).
    pub actor_id: String,
    /// Their display name at the time.
    pub actor_name: String,
    /// `setting`, `privacy-forget`, `result`, `tournament`, …
    pub action: String,
    /// What was acted on: a setting's name, a game id, …
    pub subject: String,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub at_ms: i64,
}

pub(super) const INSERT_AUDIT: &str = "INSERT INTO audit_log (server_id, actor_id, actor_name, \
     action, subject, old_value, new_value, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

pub(super) fn bind_entry<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    e: &AuditEntry,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    query
        .bind(e.server_id.clone())
        .bind(e.actor_id.clone())
        .bind(e.actor_name.clone())
        .bind(e.action.clone())
        .bind(e.subject.clone())
        .bind(e.old_value.clone())
        .bind(e.new_value.clone())
        .bind(e.at_ms)
}

fn entry_from_row(row: &AnyRow) -> Result<AuditEntry, sqlx::Error> {
    Ok(AuditEntry {
        server_id: row.try_get("server_id")?,
        actor_id: row.try_get("actor_id")?,
        actor_name: row.try_get("actor_name")?,
        action: row.try_get("action")?,
        subject: row.try_get("subject")?,
        old_value: row.try_get("old_value")?,
        new_value: row.try_get("new_value")?,
        at_ms: row.try_get("at_ms")?,
    })
}

impl Store {
    /// Records one action on its own (for changes that are not written by
    /// the store methods that log as they write).
    pub async fn record_audit(&self, entry: &AuditEntry) -> Result<(), StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        bind_entry(sqlx::query(INSERT_AUDIT), entry)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A page of a server's audit log, newest first.
    pub async fn audit_log(
        &self,
        server_id: &str,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<AuditEntry>, StoreError> {
        let rows = sqlx::query(
            "SELECT server_id, actor_id, actor_name, action, subject, old_value, new_value, at_ms \
             FROM audit_log WHERE server_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3",
        )
        .bind(server_id.to_owned())
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(entry_from_row).collect::<Result<_, _>>()?)
    }

    /// How many entries a server's audit log holds.
    pub async fn audit_log_len(&self, server_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM audit_log WHERE server_id = $1")
            .bind(server_id.to_owned())
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Writes a server's settings and the audit entries describing the
    /// change, all or nothing.
    pub async fn save_settings_logged(
        &self,
        settings: &super::ServerSettings,
        entries: &[AuditEntry],
    ) -> Result<(), StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        super::players::update_settings(&mut tx, settings).await?;
        for entry in entries {
            bind_entry(sqlx::query(INSERT_AUDIT), entry)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
