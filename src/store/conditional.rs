//! Conditional moves (issue 19): each player's tree of answers entered in
//! advance, one row per player and game (`conditional_moves`). The store
//! keeps the tree as text (one line of UCI moves per row of text) and the
//! game's ply count it was written at; the chess lives in
//! `chess::conditional`.
//!
//! Rows go with their game: the migration's triggers delete them in the same
//! statement that ends the game (any ending) or takes moves back, so no code
//! path that ends a game has to remember them, and a restart finds exactly
//! the trees of games still in progress.

use sqlx::{any::AnyRow, Row};

use super::{Store, StoreError};

/// One player's stored tree in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionalRecord {
    pub game_id: i64,
    pub user_id: String,
    /// The game's plies when the tree was written: its first moves are the
    /// game's ply `base_plies + 1`.
    pub base_plies: i64,
    /// The tree as text: one line of UCI moves per row.
    pub lines: String,
    pub updated_ms: i64,
}

const COLUMNS: &str = "game_id, user_id, base_plies, lines, updated_ms";

fn record(row: &AnyRow) -> Result<ConditionalRecord, sqlx::Error> {
    Ok(ConditionalRecord {
        game_id: row.try_get("game_id")?,
        user_id: row.try_get("user_id")?,
        base_plies: row.try_get("base_plies")?,
        lines: row.try_get("lines")?,
        updated_ms: row.try_get("updated_ms")?,
    })
}

impl Store {
    /// Writes `user_id`'s tree for `game_id` (replacing any), decided on the
    /// game at `expected_version`: [`StoreError::Conflict`] if the game has
    /// changed since or is over, and nothing is written.
    pub async fn put_conditional(
        &self,
        expected_version: i64,
        tree: &ConditionalRecord,
    ) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "INSERT INTO conditional_moves (game_id, user_id, base_plies, lines, updated_ms) \
             SELECT $1, $2, $3, $4, $5 FROM games \
             WHERE id = $1 AND version = $6 AND status = 'active' \
             ON CONFLICT (game_id, user_id) DO UPDATE SET base_plies = excluded.base_plies, \
               lines = excluded.lines, updated_ms = excluded.updated_ms",
        )
        .bind(tree.game_id)
        .bind(tree.user_id.clone())
        .bind(tree.base_plies)
        .bind(tree.lines.clone())
        .bind(tree.updated_ms)
        .bind(expected_version)
        .execute(&self.pool)
        .await?;
        match done.rows_affected() {
            1 => Ok(()),
            _ => Err(StoreError::Conflict),
        }
    }

    /// `user_id`'s tree in `game_id`, if any.
    pub async fn conditional(
        &self,
        game_id: i64,
        user_id: &str,
    ) -> Result<Option<ConditionalRecord>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM conditional_moves WHERE game_id = $1 AND user_id = $2");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .bind(user_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(record).transpose()?)
    }

    /// Every tree stored for `game_id` (at most one per player).
    pub async fn conditionals_of_game(
        &self,
        game_id: i64,
    ) -> Result<Vec<ConditionalRecord>, StoreError> {
        let sql =
            format!("SELECT {COLUMNS} FROM conditional_moves WHERE game_id = $1 ORDER BY user_id");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(record).collect::<Result<_, _>>()?)
    }

    /// The games that have a stored tree (looked at after a restart).
    pub async fn games_with_conditionals(&self) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query("SELECT DISTINCT game_id FROM conditional_moves ORDER BY game_id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, _>>()?)
    }

    /// Removes `user_id`'s tree in `game_id`; `false` if there was none.
    pub async fn clear_conditional(&self, game_id: i64, user_id: &str) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1 AND user_id = $2")
            .bind(game_id)
            .bind(user_id.to_owned())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Removes exactly the tree `seen` (same base and lines): `false` if it
    /// was changed or removed meanwhile, so that of two processes noticing
    /// a missed branch only one tells the owner.
    pub async fn drop_conditional(&self, seen: &ConditionalRecord) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "DELETE FROM conditional_moves WHERE game_id = $1 AND user_id = $2 \
             AND base_plies = $3 AND lines = $4",
        )
        .bind(seen.game_id)
        .bind(seen.user_id.clone())
        .bind(seen.base_plies)
        .bind(seen.lines.clone())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }
}
