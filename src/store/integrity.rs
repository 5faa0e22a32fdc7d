//! Rules of the stored data that no constraint of PostgreSQL's schema states
//! (migration 0021 took them out of the move's path), checked on demand:
//! after every store conformance test, on both databases.
//!
//! - A game's scheduler bound (`wake_ms`) is at or before its deadline and
//!   its next reminder, so that a sweep never misses a game that is due
//!   (`time.rs`). SQLite's schema also checks it on every write.
//! - Every move belongs to a game that exists.

use sqlx::Row;

use super::{Store, StoreError};

/// Game rows whose scheduler bound is missing or later than their deadline
/// or next reminder.
const LATE_BOUNDS: &str = "SELECT id FROM games \
     WHERE (deadline_ms IS NOT NULL AND (wake_ms IS NULL OR wake_ms > deadline_ms)) \
        OR (next_reminder_ms IS NOT NULL AND (wake_ms IS NULL OR wake_ms > next_reminder_ms)) \
     ORDER BY id";

/// Games that moves refer to but that do not exist.
const ORPHAN_MOVES: &str = "SELECT DISTINCT m.game_id AS id FROM moves m \
     LEFT JOIN games g ON g.id = m.game_id WHERE g.id IS NULL ORDER BY m.game_id";

impl Store {
    /// Every breach of the rules in this module's documentation, one line
    /// each; empty when the data keeps them.
    #[doc(hidden)]
    pub async fn integrity_faults(&self) -> Result<Vec<String>, StoreError> {
        let mut faults = Vec::new();
        for (sql, what) in [
            (
                LATE_BOUNDS,
                "scheduler bound after its deadline or reminder",
            ),
            (ORPHAN_MOVES, "moves of a game that does not exist"),
        ] {
            for row in sqlx::query(sql).fetch_all(&self.pool).await? {
                let id: i64 = row.try_get("id")?;
                faults.push(format!("game {id}: {what}"));
            }
        }
        Ok(faults)
    }
}
