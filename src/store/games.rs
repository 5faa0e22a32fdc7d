//! Games and their moves: created from an accepted challenge, changed only
//! through [`Store::apply`] (version-checked, see `apply.rs`), and read back
//! for replay, lists and history.

use sqlx::{any::AnyRow, Any, Row, Transaction};

use super::{
    flag, on_unique_violation, players::rating_change_from_row, GameOffers, GameRecord, GameState,
    MoveRecord, NewGame, RatingChangeRecord, Store, StoreError, Variant,
};

pub(super) const GAME_COLUMNS: &str =
    "id, server_id, home_channel_id, channel_id, white_id, black_id, \
     rated, time_control, initial_fen, variant, start_number, result, termination, version, draw_offer, illegal_white, \
     illegal_black, deadline_ms, bonus_ms, next_reminder_ms, created_ms, ended_ms, takeback_by, \
     takeback_version, rematch_by, rematch_game_id";

pub(super) fn game_from_row(row: &AnyRow) -> Result<GameRecord, sqlx::Error> {
    Ok(GameRecord {
        id: row.try_get("id")?,
        game: NewGame {
            server_id: row.try_get("server_id")?,
            home_channel_id: row.try_get("home_channel_id")?,
            channel_id: row.try_get("channel_id")?,
            white_id: row.try_get("white_id")?,
            black_id: row.try_get("black_id")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            time_control: row.try_get("time_control")?,
            initial_fen: row.try_get("initial_fen")?,
            variant: variant_from_row(row)?,
            start_number: start_number_from_row(row)?,
            deadline_ms: row.try_get("deadline_ms")?,
            created_ms: row.try_get("created_ms")?,
        },
        state: GameState {
            result: row.try_get("result")?,
            termination: row.try_get("termination")?,
            draw_offer: row.try_get("draw_offer")?,
            illegal_white: row.try_get("illegal_white")?,
            illegal_black: row.try_get("illegal_black")?,
            deadline_ms: row.try_get("deadline_ms")?,
            bonus_ms: row.try_get("bonus_ms")?,
            next_reminder_ms: row.try_get("next_reminder_ms")?,
            ended_ms: row.try_get("ended_ms")?,
        },
        version: row.try_get("version")?,
        offers: GameOffers {
            takeback: match (
                row.try_get::<Option<String>, _>("takeback_by")?,
                row.try_get::<Option<i64>, _>("takeback_version")?,
            ) {
                (Some(user), Some(version)) => Some((user, version)),
                _ => None,
            },
            rematch_by: row.try_get("rematch_by")?,
            rematch_game_id: row.try_get("rematch_game_id")?,
        },
    })
}

/// The `variant` column, read as a [`Variant`]: a key this build does not
/// know (a newer one wrote it) is an error, never standard chess by default.
pub(super) fn variant_from_row(row: &AnyRow) -> Result<Variant, sqlx::Error> {
    let key: String = row.try_get("variant")?;
    Variant::from_key(&key)
        .ok_or_else(|| sqlx::Error::Decode(format!("unknown variant {key}").into()))
}

/// The `start_number` column (a Chess960 start, 0–959).
pub(super) fn start_number_from_row(row: &AnyRow) -> Result<Option<u16>, sqlx::Error> {
    let number: Option<i64> = row.try_get("start_number")?;
    number
        .map(|n| u16::try_from(n).map_err(|e| sqlx::Error::Decode(e.into())))
        .transpose()
}

pub(super) async fn insert_game(
    tx: &mut Transaction<'static, Any>,
    g: &NewGame,
) -> Result<GameRecord, sqlx::Error> {
    let row = sqlx::query(
        "INSERT INTO games (server_id, home_channel_id, channel_id, white_id, black_id, rated, \
         time_control, initial_fen, deadline_ms, created_ms, variant, start_number, wake_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $9) RETURNING id",
    )
    .bind(g.server_id.clone())
    .bind(g.home_channel_id.clone())
    .bind(g.channel_id.clone())
    .bind(g.white_id.clone())
    .bind(g.black_id.clone())
    .bind(flag(g.rated))
    .bind(g.time_control.clone())
    .bind(g.initial_fen.clone())
    .bind(g.deadline_ms)
    .bind(g.created_ms)
    .bind(g.variant.key().to_owned())
    .bind(g.start_number.map(i64::from))
    .fetch_one(&mut **tx)
    .await?;
    Ok(GameRecord {
        id: row.try_get("id")?,
        game: g.clone(),
        state: GameState {
            deadline_ms: g.deadline_ms,
            ..GameState::default()
        },
        version: 0,
        offers: GameOffers::default(),
    })
}

impl Store {
    pub async fn game(&self, id: i64) -> Result<Option<GameRecord>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(game_from_row).transpose()?)
    }

    /// The active game living in a channel, if any.
    pub async fn active_game_in(&self, channel_id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.newest_game_in(channel_id, " AND result IS NULL").await
    }

    /// The newest game (active or finished) of a channel.
    pub async fn latest_game_in(&self, channel_id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.newest_game_in(channel_id, "").await
    }

    async fn newest_game_in(
        &self,
        channel_id: &str,
        filter: &str,
    ) -> Result<Option<GameRecord>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1{filter} ORDER BY id DESC LIMIT 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(channel_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(game_from_row).transpose()?)
    }

    /// A player's games on a server, newest first: active ones only, or all.
    pub async fn games_of(
        &self,
        server_id: &str,
        user_id: &str,
        active_only: bool,
        limit: i64,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let filter = if active_only {
            " AND result IS NULL"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE server_id = $1 AND (white_id = $2 OR black_id = $2){filter} \
             ORDER BY id DESC LIMIT $3"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(game_from_row).collect::<Result<_, _>>()?)
    }

    /// Rated games between two players (either colour) created since `since_ms`.
    pub async fn rated_games_between_since(
        &self,
        server_id: &str,
        a: &str,
        b: &str,
        since_ms: i64,
    ) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE server_id = $1 AND rated = 1 AND created_ms >= $4 \
             AND ((white_id = $2 AND black_id = $3) OR (white_id = $3 AND black_id = $2))",
        )
        .bind(server_id.to_owned())
        .bind(a.to_owned())
        .bind(b.to_owned())
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// How many games are in progress (all servers), for the metrics gauge.
    pub async fn open_game_count(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE result IS NULL")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Every game id, for consistency checks.
    pub async fn all_game_ids(&self) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?)
    }

    /// A game's moves in order.
    pub async fn moves(&self, game_id: i64) -> Result<Vec<MoveRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT ply, uci, san, played_ms FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok(MoveRecord {
                    ply: r.try_get("ply")?,
                    uci: r.try_get("uci")?,
                    san: r.try_get("san")?,
                    played_ms: r.try_get("played_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?)
    }

    /// Both players' rating changes from one game, if it was rated.
    pub async fn game_rating_changes(
        &self,
        game_id: i64,
    ) -> Result<Vec<RatingChangeRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, user_id, before, delta, after, at_ms FROM rating_changes WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(rating_change_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// Moves a game into the channel (thread) opened for it.
    pub async fn move_game_to(&self, game_id: i64, channel_id: &str) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE games SET channel_id = $2, version = version + 1 WHERE id = $1 AND result IS NULL",
        )
        .bind(game_id)
        .bind(channel_id.to_owned())
        .execute(&self.pool)
        .await
        .map_err(|e| on_unique_violation(e, StoreError::ChannelBusy))?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }
}
