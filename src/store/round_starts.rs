//! The start position of each round of a Chess960 tournament
//! (`tournament_round_starts`, migration 0018): drawn by lot when the round
//! is paired, the same for every board of the round, and kept, so that the
//! draw is on record and a round paired twice (two processes, a retry)
//! still has one position.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// The start of `round` of tournament `id`: the one recorded, or else
    /// `drawn` (recorded now, at `at_ms`). Whoever records first wins.
    pub async fn round_start(
        &self,
        id: i64,
        round: i64,
        drawn: u16,
        at_ms: i64,
    ) -> Result<u16, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO tournament_round_starts (tournament_id, round, start_number, drawn_ms) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, round) DO NOTHING",
        )
        .bind(id)
        .bind(round)
        .bind(i64::from(drawn))
        .bind(at_ms)
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(
            "SELECT start_number FROM tournament_round_starts \
             WHERE tournament_id = $1 AND round = $2",
        )
        .bind(id)
        .bind(round)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        let number: i64 = row.try_get("start_number")?;
        u16::try_from(number).map_err(|e| StoreError::Database(sqlx::Error::Decode(e.into())))
    }

    /// Every recorded round start of tournament `id`, by round.
    pub async fn round_starts(&self, id: i64) -> Result<Vec<(i64, u16)>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, start_number FROM tournament_round_starts \
             WHERE tournament_id = $1 ORDER BY round",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let number: i64 = row.try_get("start_number")?;
                let number = u16::try_from(number)
                    .map_err(|e| StoreError::Database(sqlx::Error::Decode(e.into())))?;
                Ok((row.try_get("round")?, number))
            })
            .collect()
    }
}
