//! A person's data, shown and erased on request (`/privacy show`,
//! `/privacy forget`). Every table that can hold a user id or a display name
//! is listed here, once, in [`PERSONAL`]: the export reads those rows and
//! the erasure removes or anonymises them in one transaction. The
//! conformance tests scan every column of every table afterwards, so a
//! table added later without an entry here fails them.
//!
//! What "forget" does, table by table: the player's ladder rows, rating
//! history, vacations, daily-summary marks, challenges, conditional
//! moves, puzzle attempts (daily ones too) and puzzle-ladder rows go (the puzzles keep the
//! points they won or lost); the games they played stay (their opponents' history and
//! points depend on them) with the player replaced by
//! [`super::DELETED_PLAYER`]; audit entries they wrote stay with the same
//! replacement. Entries in tournaments not yet started go; in the others
//! the player stays in the record (the standings of everyone else rest on
//! it) as an erased entrant with a stand-in id of their own.

use serde_json::{Map, Number, Value};
use sqlx::{any::AnyRow, Column, Row};

use super::{audit, AuditEntry, Store, StoreError, DELETED_PLAYER};

/// The tables holding a person's data, and how to find their rows.
const PERSONAL: [(&str, &str); 16] = [
    ("players", "user_id = $1"),
    ("variant_ratings", "user_id = $1"),
    ("rating_changes", "user_id = $1"),
    ("vacations", "user_id = $1"),
    ("dm_summaries", "user_id = $1"),
    ("challenges", "challenger_id = $1 OR opponent_id = $1"),
    ("games", "white_id = $1 OR black_id = $1"),
    ("audit_log", "actor_id = $1"),
    ("conditional_moves", "user_id = $1"),
    ("tournaments", "created_by = $1"),
    ("tournament_entrants", "user_id = $1"),
    (
        "tournament_games",
        "white_id = $1 OR black_id = $1 OR set_by = $1",
    ),
    ("puzzle_attempts", "user_id = $1"),
    ("puzzle_players", "user_id = $1"),
    ("daily_attempts", "user_id = $1"),
    ("puzzles", "for_user = $1"),
];

/// What an erasure found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forget {
    /// The person has games in progress: nothing was changed (they should
    /// finish or resign them first, so no opponent is left mid-game).
    ActiveGames(i64),
    /// Nothing is stored about them: nothing was changed.
    NothingStored,
    /// Erased; the servers whose ladder they were on (each got an audit
    /// entry) and the number of rows removed or anonymised.
    Done { servers: Vec<String>, rows: u64 },
}

/// One cell as JSON: integers and text as they are, anything else null.
fn cell(row: &AnyRow, i: usize) -> Value {
    if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
        return v.map_or(Value::Null, |n| Value::Number(Number::from(n)));
    }
    if let Ok(v) = row.try_get::<Option<String>, _>(i) {
        return v.map_or(Value::Null, Value::String);
    }
    if let Ok(Some(v)) = row.try_get::<Option<f64>, _>(i) {
        return Number::from_f64(v).map_or(Value::Null, Value::Number);
    }
    Value::Null
}

impl Store {
    /// Everything stored about `user_id`, on every server, as JSON: one
    /// array of row objects per table. `None` when nothing is stored.
    pub async fn personal_data(&self, user_id: &str) -> Result<Option<Value>, StoreError> {
        let mut tables = Map::new();
        let mut any = false;
        for (table, filter) in PERSONAL {
            let sql = format!("SELECT * FROM {table} WHERE {filter}");
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(user_id.to_owned())
                .fetch_all(&self.pool)
                .await?;
            any |= !rows.is_empty();
            let rows: Vec<Value> = rows
                .iter()
                .map(|row| {
                    let object: Map<String, Value> = row
                        .columns()
                        .iter()
                        .map(|c| (c.name().to_owned(), cell(row, c.ordinal())))
                        .collect();
                    Value::Object(object)
                })
                .collect();
            tables.insert(table.to_owned(), Value::Array(rows));
        }
        Ok(any.then_some(Value::Object(tables)))
    }

    /// Games in progress that `user_id` plays in, on any server.
    pub async fn active_games_of(&self, user_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE status = 'active' AND (white_id = $1 OR black_id = $1)",
        )
        .bind(user_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// Erases `user_id`'s id and names from every table (see the module
    /// docs), all or nothing, and records the erasure in the audit log of
    /// every server they were on (as [`DELETED_PLAYER`]).
    pub async fn forget_user(&self, user_id: &str, at_ms: i64) -> Result<Forget, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let active: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE status = 'active' AND (white_id = $1 OR black_id = $1)",
        )
        .bind(user_id.to_owned())
        .fetch_one(&mut *tx)
        .await?
        .try_get("n")?;
        if active > 0 {
            return Ok(Forget::ActiveGames(active));
        }
        let mut servers: Vec<String> = Vec::new();
        for sql in [
            "SELECT server_id FROM players WHERE user_id = $1",
            "SELECT server_id FROM variant_ratings WHERE user_id = $1",
            "SELECT server_id FROM games WHERE white_id = $1 OR black_id = $1",
            "SELECT server_id FROM challenges WHERE challenger_id = $1 OR opponent_id = $1",
            "SELECT server_id FROM audit_log WHERE actor_id = $1",
            "SELECT server_id FROM vacations WHERE user_id = $1",
            "SELECT server_id FROM rating_changes WHERE user_id = $1",
            "SELECT server_id FROM dm_summaries WHERE user_id = $1",
            "SELECT server_id FROM tournaments WHERE created_by = $1",
            "SELECT t.server_id FROM tournaments t JOIN tournament_entrants e \
             ON e.tournament_id = t.id WHERE e.user_id = $1",
            "SELECT server_id FROM puzzle_attempts WHERE user_id = $1",
            "SELECT server_id FROM puzzle_players WHERE user_id = $1",
            "SELECT server_id FROM daily_attempts WHERE user_id = $1",
            "SELECT server_id FROM puzzles WHERE for_user = $1",
        ] {
            for row in sqlx::query(sql)
                .bind(user_id.to_owned())
                .fetch_all(&mut *tx)
                .await?
            {
                servers.push(row.try_get("server_id")?);
            }
        }
        servers.sort();
        servers.dedup();
        if servers.is_empty() {
            return Ok(Forget::NothingStored);
        }
        let mut rows = 0;
        for sql in [
            "DELETE FROM players WHERE user_id = $1",
            "DELETE FROM variant_ratings WHERE user_id = $1",
            "DELETE FROM rating_changes WHERE user_id = $1",
            "DELETE FROM vacations WHERE user_id = $1",
            "DELETE FROM dm_summaries WHERE user_id = $1",
            // Puzzle attempts and puzzle points go; the puzzles keep the
            // points they won or lost (as opponents keep theirs).
            "DELETE FROM puzzle_attempts WHERE user_id = $1",
            "DELETE FROM puzzle_players WHERE user_id = $1",
            "DELETE FROM daily_attempts WHERE user_id = $1",
            // Puzzles from their own mistakes are theirs alone (only they
            // attempted them, and those attempts went just above).
            "DELETE FROM puzzles WHERE for_user = $1",
            "DELETE FROM challenges WHERE challenger_id = $1 OR opponent_id = $1",
            // Only games in progress have conditional moves, and those stop
            // an erasure above: this is for completeness.
            "DELETE FROM conditional_moves WHERE user_id = $1",
            // An entry in a tournament not yet started simply goes.
            "DELETE FROM tournament_entrants WHERE user_id = $1 AND tournament_id IN \
             (SELECT id FROM tournaments WHERE status = 'open')",
        ] {
            rows += sqlx::query(sql)
                .bind(user_id.to_owned())
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        for sql in [
            "UPDATE games SET white_id = $2 WHERE white_id = $1",
            "UPDATE games SET black_id = $2 WHERE black_id = $1",
            "UPDATE audit_log SET actor_id = $2, actor_name = $2 WHERE actor_id = $1",
        ] {
            rows += sqlx::query(sql)
                .bind(user_id.to_owned())
                .bind(DELETED_PLAYER)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        // In a tournament's record the player becomes an erased entrant
        // of their own: two erased players of one tournament stay apart.
        let stand_in = format!("{DELETED_PLAYER} {:016x}", rand::random::<u64>());
        rows += sqlx::query(
            "UPDATE tournament_entrants SET user_id = $2, name = $3 WHERE user_id = $1",
        )
        .bind(user_id.to_owned())
        .bind(stand_in.clone())
        .bind(DELETED_PLAYER)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        for (sql, replacement) in [
            (
                "UPDATE tournament_games SET white_id = $2 WHERE white_id = $1",
                stand_in.as_str(),
            ),
            (
                "UPDATE tournament_games SET black_id = $2 WHERE black_id = $1",
                stand_in.as_str(),
            ),
            (
                "UPDATE tournament_games SET set_by = $2 WHERE set_by = $1",
                DELETED_PLAYER,
            ),
            (
                "UPDATE tournaments SET created_by = $2 WHERE created_by = $1",
                DELETED_PLAYER,
            ),
        ] {
            rows += sqlx::query(sql)
                .bind(user_id.to_owned())
                .bind(replacement.to_owned())
                .execute(&mut *tx)
                .await?
                .rows_affected();
        }
        for server in &servers {
            let entry = AuditEntry {
                server_id: server.clone(),
                actor_id: DELETED_PLAYER.to_owned(),
                actor_name: DELETED_PLAYER.to_owned(),
                action: "privacy-forget".to_owned(),
                subject: "player".to_owned(),
                old_value: None,
                new_value: None,
                at_ms,
            };
            audit::bind_entry(sqlx::query(audit::INSERT_AUDIT), &entry)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(Forget::Done { servers, rows })
    }
}
