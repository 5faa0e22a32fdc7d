//! Challenges: created, answered once (accept, decline, cancel, expire), and
//! turned into a game in the same transaction that accepts them.

use sqlx::{any::AnyRow, Row};

use super::{
    flag,
    games::{insert_game, start_number_from_row, variant_from_row},
    on_unique_violation, ChallengeRecord, ChallengeStatus, GameRecord, NewChallenge, NewGame,
    Store, StoreError,
};

const CHALLENGE_COLUMNS: &str = "id, server_id, channel_id, challenger_id, opponent_id, color, \
     rated, time_control, initial_fen, variant, start_number, created_ms, expires_ms, status, game_id";

fn challenge_from_row(row: &AnyRow) -> Result<ChallengeRecord, sqlx::Error> {
    let status: String = row.try_get("status")?;
    Ok(ChallengeRecord {
        id: row.try_get("id")?,
        challenge: NewChallenge {
            server_id: row.try_get("server_id")?,
            channel_id: row.try_get("channel_id")?,
            challenger_id: row.try_get("challenger_id")?,
            opponent_id: row.try_get("opponent_id")?,
            color: row.try_get("color")?,
            rated: row.try_get::<i64, _>("rated")? != 0,
            time_control: row.try_get("time_control")?,
            initial_fen: row.try_get("initial_fen")?,
            variant: variant_from_row(row)?,
            start_number: start_number_from_row(row)?,
            created_ms: row.try_get("created_ms")?,
            expires_ms: row.try_get("expires_ms")?,
        },
        status: ChallengeStatus::from_id(&status).ok_or_else(|| {
            sqlx::Error::Decode(format!("unknown challenge status {status}").into())
        })?,
        game_id: row.try_get("game_id")?,
    })
}

impl Store {
    /// Stores a new pending challenge.
    pub async fn create_challenge(&self, c: &NewChallenge) -> Result<ChallengeRecord, StoreError> {
        let row = sqlx::query(
            "INSERT INTO challenges (server_id, channel_id, challenger_id, opponent_id, color, \
             rated, time_control, created_ms, expires_ms, initial_fen, variant, start_number) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(c.server_id.clone())
        .bind(c.channel_id.clone())
        .bind(c.challenger_id.clone())
        .bind(c.opponent_id.clone())
        .bind(c.color.clone())
        .bind(flag(c.rated))
        .bind(c.time_control.clone())
        .bind(c.created_ms)
        .bind(c.expires_ms)
        .bind(c.initial_fen.clone())
        .bind(c.variant.key().to_owned())
        .bind(c.start_number.map(i64::from))
        .fetch_one(&self.pool)
        .await?;
        Ok(ChallengeRecord {
            id: row.try_get("id")?,
            challenge: c.clone(),
            status: ChallengeStatus::Pending,
            game_id: None,
        })
    }

    pub async fn challenge(&self, id: i64) -> Result<Option<ChallengeRecord>, StoreError> {
        let sql = format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(challenge_from_row).transpose()?)
    }

    /// Pending challenges in a channel, newest first (expired ones included:
    /// the caller decides what "expired" means at its `now`).
    pub async fn pending_challenges_in(
        &self,
        server_id: &str,
        channel_id: &str,
    ) -> Result<Vec<ChallengeRecord>, StoreError> {
        let sql = format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE server_id = $1 AND channel_id = $2 \
             AND status = 'pending' ORDER BY id DESC"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(channel_id.to_owned())
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(challenge_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// A pending, unexpired challenge from `challenger` to `opponent`.
    pub async fn pending_challenge_between(
        &self,
        server_id: &str,
        challenger_id: &str,
        opponent_id: &str,
        now_ms: i64,
    ) -> Result<Option<ChallengeRecord>, StoreError> {
        let sql = format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE server_id = $1 AND challenger_id = $2 \
             AND opponent_id = $3 AND status = 'pending' AND expires_ms > $4 ORDER BY id DESC LIMIT 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(challenger_id.to_owned())
            .bind(opponent_id.to_owned())
            .bind(now_ms)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(challenge_from_row).transpose()?)
    }

    /// Moves a pending challenge to `status`. Fails with
    /// [`StoreError::Conflict`] if it is no longer pending.
    pub async fn close_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
    ) -> Result<(), StoreError> {
        let done =
            sqlx::query("UPDATE challenges SET status = $2 WHERE id = $1 AND status = 'pending'")
                .bind(id)
                .bind(status.id())
                .execute(&self.pool)
                .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    /// Accepts a pending, unexpired challenge and creates its game, in one
    /// transaction: two people accepting at once start exactly one game.
    pub async fn accept_challenge(
        &self,
        challenge_id: i64,
        now_ms: i64,
        game: &NewGame,
    ) -> Result<GameRecord, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE challenges SET status = 'accepted' \
             WHERE id = $1 AND status = 'pending' AND expires_ms > $2",
        )
        .bind(challenge_id)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Conflict);
        }
        let record = insert_game(&mut tx, game)
            .await
            .map_err(|e| on_unique_violation(e, StoreError::ChannelBusy))?;
        sqlx::query("UPDATE challenges SET game_id = $2 WHERE id = $1")
            .bind(challenge_id)
            .bind(record.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(record)
    }
}
