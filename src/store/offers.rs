//! Requests one player makes to the other besides moves: taking back the
//! last move (casual games) and a rematch of a finished game, and each
//! player's board orientation. Every write names the state it was decided
//! on, so a second click, a stale button or a racing process changes
//! nothing ([`StoreError::Conflict`]).

use super::{
    games::insert_game, on_unique_violation, GameRecord, NewGame, Store, StoreError, TakeBack,
};

impl Store {
    /// Records `user`'s takeback request on `game_id` at `version`. The
    /// version is not bumped (the board's buttons stay current); the request
    /// lapses by itself when the game changes.
    pub async fn request_takeback(
        &self,
        game_id: i64,
        version: i64,
        user: &str,
    ) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE games SET takeback_by = $3, takeback_version = $2 \
             WHERE id = $1 AND version = $2 AND result IS NULL",
        )
        .bind(game_id)
        .bind(version)
        .bind(user.to_owned())
        .execute(&self.pool)
        .await?;
        one_row(done.rows_affected())
    }

    /// Withdraws the takeback request standing on `game_id` at `version`
    /// (declined); [`StoreError::Conflict`] if there is none.
    pub async fn clear_takeback(&self, game_id: i64, version: i64) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE games SET takeback_by = NULL, takeback_version = NULL \
             WHERE id = $1 AND version = $2 AND takeback_version = $2 AND result IS NULL",
        )
        .bind(game_id)
        .bind(version)
        .execute(&self.pool)
        .await?;
        one_row(done.rows_affected())
    }

    /// Takes moves back (an accepted takeback request): the game gets its
    /// new state and the next version, the moves after `keep_plies` go, all
    /// or nothing. Returns the new version.
    pub async fn take_back(&self, t: &TakeBack) -> Result<i64, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let s = &t.state;
        let sql = format!(
            "UPDATE games SET version = version + 1, draw_offer = $4, illegal_white = $5, \
             illegal_black = $6, deadline_ms = $7, bonus_ms = $8, next_reminder_ms = $9, \
             wake_ms = {}, takeback_by = NULL, takeback_version = NULL \
             WHERE id = $1 AND version = $2 AND result IS NULL \
               AND takeback_by = $3 AND takeback_version = $2",
            super::time::wake_of("$7", "$9")
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(t.game_id)
            .bind(t.expected_version)
            .bind(t.requested_by.clone())
            .bind(s.draw_offer.clone())
            .bind(s.illegal_white)
            .bind(s.illegal_black)
            .bind(s.deadline_ms)
            .bind(s.bonus_ms)
            .bind(s.next_reminder_ms)
            .execute(&mut *tx)
            .await?;
        one_row(done.rows_affected())?;
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
            .bind(t.game_id)
            .bind(t.keep_plies)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(t.expected_version + 1)
    }

    /// Records `user`'s rematch offer on the finished game `game_id`;
    /// [`StoreError::Conflict`] if the game is not finished or a rematch was
    /// already offered or started.
    pub async fn offer_rematch(&self, game_id: i64, user: &str) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE games SET rematch_by = $2 WHERE id = $1 AND result IS NOT NULL \
             AND rematch_by IS NULL AND rematch_game_id IS NULL",
        )
        .bind(game_id)
        .bind(user.to_owned())
        .execute(&self.pool)
        .await?;
        one_row(done.rows_affected())
    }

    /// Starts the rematch `offered_by` offered on `game_id`, in one
    /// transaction: two clicks at once start exactly one game.
    /// [`StoreError::ChannelBusy`] if its channel has an active game.
    pub async fn accept_rematch(
        &self,
        game_id: i64,
        offered_by: &str,
        game: &NewGame,
    ) -> Result<GameRecord, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        // Claim the offer first (on PostgreSQL this locks the row: a racing
        // accept waits, then finds the rematch started and matches nothing),
        // so the loser of a race hears "answered", not "channel busy".
        let claimed = sqlx::query(
            "UPDATE games SET rematch_by = rematch_by WHERE id = $1 AND result IS NOT NULL \
             AND rematch_by = $2 AND rematch_game_id IS NULL",
        )
        .bind(game_id)
        .bind(offered_by.to_owned())
        .execute(&mut *tx)
        .await?;
        // Dropping the transaction rolls back whatever it did.
        one_row(claimed.rows_affected())?;
        let record = insert_game(&mut tx, game)
            .await
            .map_err(|e| on_unique_violation(e, StoreError::ChannelBusy))?;
        sqlx::query("UPDATE games SET rematch_game_id = $2 WHERE id = $1")
            .bind(game_id)
            .bind(record.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(record)
    }

    /// A player's board orientation: White at the bottom (`true`) or the
    /// side of the player to move.
    pub async fn set_board_white(
        &self,
        server_id: &str,
        user_id: &str,
        white: bool,
    ) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE players SET board_white = $3 WHERE server_id = $1 AND user_id = $2",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .bind(i64::from(white))
        .execute(&self.pool)
        .await?;
        match done.rows_affected() {
            1 => Ok(()),
            _ => Err(StoreError::NotFound),
        }
    }
}

fn one_row(rows: u64) -> Result<(), StoreError> {
    match rows {
        1 => Ok(()),
        _ => Err(StoreError::Conflict),
    }
}
