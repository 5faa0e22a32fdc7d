//! Adjourned games (封棋): offers to adjourn, adjournments with their sealed
//! move and resumption time, the resumption itself, and players' titles.
//!
//! Every change to an adjournment bumps its game's version in the same
//! transaction and names the version it was decided on, so a racing move,
//! a second click or another process changes nothing
//! ([`StoreError::Conflict`]). The sealed move is stored as UCI and read
//! only by the resumption; nothing here shows it.

use sqlx::{any::AnyRow, Any, Row, Transaction};

use super::{
    apply::one_game_row, AdjournOffer, Adjournment, Applied, GameChange, NewAdjournment, Store,
    StoreError,
};

const COLUMNS: &str = "id, game_id, ply, reason, adjourned_ms, sealer, sealed_uci, sealed_ms, \
     resume_ms, resumed_ms, reminded_hours, proposed_by, proposed_ms";

fn adjournment_from_row(row: &AnyRow) -> Result<Adjournment, sqlx::Error> {
    Ok(Adjournment {
        id: row.try_get("id")?,
        game_id: row.try_get("game_id")?,
        ply: row.try_get("ply")?,
        reason: row.try_get("reason")?,
        adjourned_ms: row.try_get("adjourned_ms")?,
        sealer: row.try_get("sealer")?,
        sealed_uci: row.try_get("sealed_uci")?,
        sealed_ms: row.try_get("sealed_ms")?,
        resume_ms: row.try_get("resume_ms")?,
        resumed_ms: row.try_get("resumed_ms")?,
        reminded_hours: row.try_get("reminded_hours")?,
        proposed_by: row.try_get("proposed_by")?,
        proposed_ms: row.try_get("proposed_ms")?,
    })
}

/// Bumps `game_id`'s version if it is still `version` and running.
async fn bump(
    tx: &mut Transaction<'static, Any>,
    game_id: i64,
    version: i64,
) -> Result<i64, StoreError> {
    let done = sqlx::query(
        "UPDATE games SET version = version + 1 WHERE id = $1 AND version = $2 AND result IS NULL",
    )
    .bind(game_id)
    .bind(version)
    .execute(&mut **tx)
    .await?;
    one_row(done.rows_affected())?;
    Ok(version + 1)
}

/// An adjournment change that is one statement touching exactly one row,
/// run with its game's version bump (see the module documentation).
type OneRowChange<'q> = sqlx::query::Query<'q, Any, sqlx::any::AnyArguments>;

fn one_row(rows: u64) -> Result<(), StoreError> {
    match rows {
        1 => Ok(()),
        _ => Err(StoreError::Conflict),
    }
}

impl Store {
    /// Runs `change`, which must touch exactly one row, in a transaction
    /// that first bumps `game_id`'s version from `version`; returns the new
    /// version. [`StoreError::Conflict`] if the game moved on or the row is
    /// not there.
    async fn versioned_change(
        &self,
        game_id: i64,
        version: i64,
        change: OneRowChange<'_>,
    ) -> Result<i64, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let version = bump(&mut tx, game_id, version).await?;
        let done = change.execute(&mut *tx).await?;
        one_row(done.rows_affected())?;
        tx.commit().await?;
        Ok(version)
    }

    /// A game's adjournments, oldest first.
    pub async fn adjournments(&self, game_id: i64) -> Result<Vec<Adjournment>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM adjournments WHERE game_id = $1 ORDER BY id");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(adjournment_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// The offer to adjourn made on `game_id`, if any (it stands only while
    /// the game still has the offer's number of plies).
    pub async fn adjourn_offer(&self, game_id: i64) -> Result<Option<AdjournOffer>, StoreError> {
        let row = sqlx::query("SELECT offered_by, ply FROM adjourn_offers WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some(AdjournOffer {
                offered_by: row.try_get("offered_by")?,
                ply: row.try_get("ply")?,
            }),
            None => None,
        })
    }

    /// Records `color`'s offer to adjourn `game_id` at `version` (with
    /// `ply` plies). Returns the new version.
    pub async fn offer_adjournment(
        &self,
        game_id: i64,
        version: i64,
        color: &str,
        ply: i64,
    ) -> Result<i64, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let version = bump(&mut tx, game_id, version).await?;
        sqlx::query("DELETE FROM adjourn_offers WHERE game_id = $1")
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO adjourn_offers (game_id, offered_by, ply) VALUES ($1, $2, $3)")
            .bind(game_id)
            .bind(color.to_owned())
            .bind(ply)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(version)
    }

    /// Withdraws the offer to adjourn `game_id` (declined);
    /// [`StoreError::Conflict`] if none stands or the game moved on.
    pub async fn clear_adjourn_offer(&self, game_id: i64, version: i64) -> Result<i64, StoreError> {
        let change = sqlx::query("DELETE FROM adjourn_offers WHERE game_id = $1").bind(game_id);
        self.versioned_change(game_id, version, change).await
    }

    /// Adjourns `game_id` at `version`: any offer goes, the adjournment is
    /// recorded and the game's deadline becomes `deadline_ms` (the sealer's
    /// flag). [`StoreError::Conflict`] if the game moved on or is already
    /// adjourned. Returns the new version and the adjournment.
    pub async fn adjourn(
        &self,
        game_id: i64,
        version: i64,
        new: &NewAdjournment,
        deadline_ms: Option<i64>,
    ) -> Result<(i64, Adjournment), StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let version = bump(&mut tx, game_id, version).await?;
        let sql = format!(
            "UPDATE games SET deadline_ms = $2, wake_ms = {} WHERE id = $1",
            super::time::wake_of("$2", "next_reminder_ms")
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .bind(deadline_ms)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM adjourn_offers WHERE game_id = $1")
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO adjournments (game_id, ply, reason, adjourned_ms, sealer) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game_id)
        .bind(new.ply)
        .bind(new.reason.clone())
        .bind(new.adjourned_ms)
        .bind(new.sealer.clone())
        .execute(&mut *tx)
        .await
        .map_err(|e| super::on_unique_violation(e, StoreError::Conflict))?;
        let sql =
            format!("SELECT {COLUMNS} FROM adjournments WHERE game_id = $1 AND resumed_ms IS NULL");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .fetch_one(&mut *tx)
            .await?;
        let adjournment = adjournment_from_row(&row)?;
        tx.commit().await?;
        Ok((version, adjournment))
    }

    /// Seals `uci` as the move of adjournment `adjournment_id` at `at_ms`:
    /// the clocks stop (the game's deadline goes). [`StoreError::Conflict`]
    /// if a move was sealed already or the game moved on.
    pub async fn seal_move(
        &self,
        game_id: i64,
        version: i64,
        adjournment_id: i64,
        uci: &str,
        at_ms: i64,
    ) -> Result<i64, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let version = bump(&mut tx, game_id, version).await?;
        let done = sqlx::query(
            "UPDATE adjournments SET sealed_uci = $3, sealed_ms = $4 \
             WHERE id = $1 AND game_id = $2 AND sealed_uci IS NULL AND resumed_ms IS NULL",
        )
        .bind(adjournment_id)
        .bind(game_id)
        .bind(uci.to_owned())
        .bind(at_ms)
        .execute(&mut *tx)
        .await?;
        one_row(done.rows_affected())?;
        sqlx::query(
            "UPDATE games SET deadline_ms = NULL, next_reminder_ms = NULL, wake_ms = NULL \
             WHERE id = $1",
        )
        .bind(game_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(version)
    }

    /// Sets (or moves) the resumption time of the open adjournment
    /// `adjournment_id`; its reminders start over.
    pub async fn set_resumption(
        &self,
        game_id: i64,
        version: i64,
        adjournment_id: i64,
        resume_ms: i64,
    ) -> Result<i64, StoreError> {
        let change = sqlx::query(
            "UPDATE adjournments SET resume_ms = $3, reminded_hours = NULL, \
             proposed_by = NULL, proposed_ms = NULL \
             WHERE id = $1 AND game_id = $2 AND resumed_ms IS NULL",
        )
        .bind(adjournment_id)
        .bind(game_id)
        .bind(resume_ms);
        self.versioned_change(game_id, version, change).await
    }

    /// Records `color`'s proposal to resume the open adjournment
    /// `adjournment_id` at `at_ms` (replacing any earlier proposal).
    pub async fn propose_resumption(
        &self,
        game_id: i64,
        version: i64,
        adjournment_id: i64,
        color: &str,
        at_ms: i64,
    ) -> Result<i64, StoreError> {
        let change = sqlx::query(
            "UPDATE adjournments SET proposed_by = $3, proposed_ms = $4 \
             WHERE id = $1 AND game_id = $2 AND resumed_ms IS NULL",
        )
        .bind(adjournment_id)
        .bind(game_id)
        .bind(color.to_owned())
        .bind(at_ms);
        self.versioned_change(game_id, version, change).await
    }

    /// Games whose sealed move is due to be played by `until_ms`, soonest
    /// first.
    pub async fn resumptions_due_by(
        &self,
        until_ms: i64,
        limit: i64,
    ) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.game_id FROM adjournments a JOIN games g ON g.id = a.game_id \
             WHERE a.resumed_ms IS NULL AND a.sealed_uci IS NOT NULL AND a.resume_ms <= $1 \
               AND g.result IS NULL ORDER BY a.resume_ms LIMIT $2",
        )
        .bind(until_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, _>>()?)
    }

    /// Open, sealed adjournments of running games with a reminder due by
    /// `now_ms`: the one `first_hours` before the resumption (if none was
    /// sent), or the one `last_hours` before (if only a larger one was).
    pub async fn resumption_reminders_due(
        &self,
        now_ms: i64,
        first_hours: i64,
        last_hours: i64,
        limit: i64,
    ) -> Result<Vec<Adjournment>, StoreError> {
        let sql = format!(
            "SELECT {} FROM adjournments a JOIN games g ON g.id = a.game_id \
             WHERE a.resumed_ms IS NULL AND a.sealed_uci IS NOT NULL AND g.result IS NULL \
               AND a.resume_ms > $1 \
               AND ((a.reminded_hours IS NULL AND a.resume_ms <= $1 + $2 * 3600000) \
                 OR (a.reminded_hours > $3 AND a.resume_ms <= $1 + $3 * 3600000)) \
             ORDER BY a.resume_ms LIMIT $4",
            COLUMNS
                .split(", ")
                .map(|c| format!("a.{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(now_ms)
            .bind(first_hours)
            .bind(last_hours)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(adjournment_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// When the next resumption or resumption reminder is due (reminders
    /// `first_hours` and `last_hours` before), if any.
    pub async fn next_resumption_event(
        &self,
        first_hours: i64,
        last_hours: i64,
    ) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(CASE WHEN a.reminded_hours IS NULL THEN a.resume_ms - $1 * 3600000 \
                 WHEN a.reminded_hours > $2 THEN a.resume_ms - $2 * 3600000 \
                 ELSE a.resume_ms END) AS at_ms \
             FROM adjournments a JOIN games g ON g.id = a.game_id \
             WHERE a.resumed_ms IS NULL AND a.sealed_uci IS NOT NULL AND a.resume_ms IS NOT NULL \
               AND g.result IS NULL",
        )
        .bind(first_hours)
        .bind(last_hours)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("at_ms")?)
    }

    /// Records the reminder `hours` before adjournment `id`'s resumption;
    /// `false` if it (or a nearer one) was sent already.
    pub async fn mark_resumption_reminder(&self, id: i64, hours: i64) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE adjournments SET reminded_hours = $2 \
             WHERE id = $1 AND (reminded_hours IS NULL OR reminded_hours > $2)",
        )
        .bind(id)
        .bind(hours)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Resumes an adjourned game: the sealed move (in `change`) is played
    /// and adjournment `adjournment_id` closed at `change.at_ms`, all or
    /// nothing (with the settlement, if the sealed move ends a rated game).
    pub async fn resume_adjourned(
        &self,
        change: &GameChange,
        adjournment_id: i64,
    ) -> Result<Applied, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let done = sqlx::query(
            "UPDATE adjournments SET resumed_ms = $3 \
             WHERE id = $1 AND game_id = $2 AND resumed_ms IS NULL AND sealed_uci IS NOT NULL",
        )
        .bind(adjournment_id)
        .bind(change.game_id)
        .bind(change.at_ms)
        .execute(&mut *tx)
        .await?;
        one_row(done.rows_affected())?;
        let applied = one_game_row(self, &mut tx, change, None).await?;
        tx.commit().await?;
        Ok(applied)
    }

    /// Sets (`Some`) or removes a player's title on a server; the player
    /// must have a row ([`StoreError::NotFound`] otherwise).
    pub async fn set_title(
        &self,
        server_id: &str,
        user_id: &str,
        title: Option<&str>,
    ) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done =
            sqlx::query("UPDATE players SET title = $3 WHERE server_id = $1 AND user_id = $2")
                .bind(server_id.to_owned())
                .bind(user_id.to_owned())
                .bind(title.map(str::to_owned))
                .execute(&self.pool)
                .await?;
        match done.rows_affected() {
            1 => Ok(()),
            _ => Err(StoreError::NotFound),
        }
    }
}
