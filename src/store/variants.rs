//! The ladders of the variants other than standard chess (`variant_ratings`,
//! migration 0018): one per server and variant, on the same level/points
//! scheme. Standard chess keeps its ladder in `players`; the `*_in`
//! methods take any variant and read the right table, so the service asks
//! one way for every ladder.
//!
//! A variant's row holds only the points and the record; the name, title
//! and preferences are the player's one row in `players`, joined.

use sqlx::Row;

use super::{players::player_from_row, PlayerRecord, Store, StoreError, Variant};

/// `players`' columns with the points and record of `variant_ratings` (as
/// `v`) in their place: a [`PlayerRecord`] on that variant's ladder.
const VARIANT_PLAYER_COLUMNS: &str = "p.server_id AS server_id, p.user_id AS user_id, \
     p.display_name AS display_name, v.points AS points, v.rated_games AS rated_games, \
     v.wins AS wins, v.draws AS draws, v.losses AS losses, p.notify_dm AS notify_dm, \
     p.board_white AS board_white, p.locale AS locale, p.title AS title";

/// The join every read below makes.
const FROM_VARIANT: &str = "FROM variant_ratings v JOIN players p \
     ON p.server_id = v.server_id AND p.user_id = v.user_id";

impl Store {
    /// A player's record on `variant`'s ladder (`None`: never rated in it,
    /// or, for standard, never seen here).
    pub async fn player_in(
        &self,
        server_id: &str,
        user_id: &str,
        variant: Variant,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        if variant == Variant::Standard {
            return self.player(server_id, user_id).await;
        }
        let sql = format!(
            "SELECT {VARIANT_PLAYER_COLUMNS} {FROM_VARIANT} \
             WHERE v.server_id = $1 AND v.user_id = $2 AND v.variant = $3"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .bind(variant.key().to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(player_from_row).transpose()?)
    }

    /// Every variant ladder but standard's that a player has a rated game
    /// on, in [`Variant::ALL`]'s order (the profile's per-variant lines).
    pub async fn variant_records(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Vec<(Variant, PlayerRecord)>, StoreError> {
        let sql = format!(
            "SELECT v.variant AS variant, {VARIANT_PLAYER_COLUMNS} {FROM_VARIANT} \
             WHERE v.server_id = $1 AND v.user_id = $2 AND v.rated_games > 0"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .fetch_all(&self.pool)
            .await?;
        let mut records = Vec::with_capacity(rows.len());
        for row in &rows {
            let variant = super::games::variant_from_row(row)?;
            records.push((variant, player_from_row(row)?));
        }
        records.sort_by_key(|(variant, _)| *variant);
        Ok(records)
    }

    /// One page of `variant`'s ladder, in the standard ladder's order
    /// (most points, most rated games, name).
    pub async fn leaderboard_in(
        &self,
        server_id: &str,
        variant: Variant,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<PlayerRecord>, StoreError> {
        if variant == Variant::Standard {
            return self.leaderboard(server_id, offset, limit).await;
        }
        let sql = format!(
            "SELECT {VARIANT_PLAYER_COLUMNS} {FROM_VARIANT} \
             WHERE v.server_id = $1 AND v.variant = $2 AND v.rated_games > 0 \
             ORDER BY v.points DESC, v.rated_games DESC, p.display_name ASC, p.user_id ASC \
             LIMIT $3 OFFSET $4"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(variant.key().to_owned())
            .bind(limit)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(player_from_row).collect::<Result<_, _>>()?)
    }

    /// How many players are on `variant`'s ladder.
    pub async fn ladder_size_in(
        &self,
        server_id: &str,
        variant: Variant,
    ) -> Result<i64, StoreError> {
        if variant == Variant::Standard {
            return self.ladder_size(server_id).await;
        }
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM variant_ratings \
             WHERE server_id = $1 AND variant = $2 AND rated_games > 0",
        )
        .bind(server_id.to_owned())
        .bind(variant.key().to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// The sum of all points on `variant`'s ladder of a server: always 0.
    pub async fn points_total_in(
        &self,
        server_id: &str,
        variant: Variant,
    ) -> Result<i64, StoreError> {
        if variant == Variant::Standard {
            return self.points_total(server_id).await;
        }
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS total FROM variant_ratings \
             WHERE server_id = $1 AND variant = $2",
        )
        .bind(server_id.to_owned())
        .bind(variant.key().to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("total")?)
    }
}
