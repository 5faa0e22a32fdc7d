//! Background mining of a server's games for puzzles (issue 28): the queue
//! is every finished game of a server with `/settings puzzles:on`, ended
//! since it was turned on, that has no row in `puzzle_mining` yet. A game's
//! row and the puzzles it gave are written in one transaction, so a restart
//! goes on with the next game and never adds a game's puzzles twice.

use sqlx::Row;

use super::{NewPuzzle, Store, StoreError};

impl Store {
    /// The next game to mine, oldest first: its id and server.
    pub async fn next_game_to_mine(&self) -> Result<Option<(i64, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT g.id, g.server_id FROM games g JOIN servers s ON s.id = g.server_id \
             WHERE s.puzzle_mining_since_ms IS NOT NULL AND g.status = 'finished' \
             AND g.ended_ms >= s.puzzle_mining_since_ms \
             AND NOT EXISTS (SELECT 1 FROM puzzle_mining m WHERE m.game_id = g.id) \
             ORDER BY g.ended_ms, g.id LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(row) => Some((row.try_get("id")?, row.try_get("server_id")?)),
            None => None,
        })
    }

    /// Records game `game_id` as mined, with the puzzles it gave (added to
    /// `server_id`'s pool; positions already there are skipped). `false`:
    /// another process recorded it first; nothing was written.
    pub async fn record_mined_game(
        &self,
        game_id: i64,
        server_id: &str,
        puzzles: &[NewPuzzle],
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let claimed = sqlx::query(
            "INSERT INTO puzzle_mining (game_id, server_id, status, found, done_ms) \
             VALUES ($1, $2, 'done', $3, $4) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(server_id.to_owned())
        .bind(puzzles.len() as i64)
        .bind(at_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if claimed == 0 {
            return Ok(false);
        }
        super::puzzles::insert_puzzles(&mut tx, server_id, puzzles, None, at_ms).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// How many games of `server_id` were mined, and the puzzles they gave.
    pub async fn mining_counts(&self, server_id: &str) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS games, CAST(COALESCE(SUM(found), 0) AS BIGINT) AS found FROM puzzle_mining \
             WHERE server_id = $1",
        )
        .bind(server_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("games")?, row.try_get("found")?))
    }
}
