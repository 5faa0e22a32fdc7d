//! What time needs kept: due games, reminders (each sent once, guarded by a
//! primary key so that several processes cannot both send one), vacations,
//! notification preferences, daily DM summaries, and the bot's heartbeat.

use sqlx::Row;

use super::{flag, GameRecord, Store, StoreError};

/// One vacation of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub id: i64,
    pub starts_ms: i64,
    pub ends_ms: i64,
}

impl Store {
    /// Active games whose deadline is at or before `until_ms`, soonest first.
    pub async fn games_due_by(
        &self,
        until_ms: i64,
        limit: i64,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.active_games_by("deadline_ms", until_ms, limit).await
    }

    /// Active games whose next reminder is due by `until_ms`.
    pub async fn games_to_remind_by(
        &self,
        until_ms: i64,
        limit: i64,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.active_games_by("next_reminder_ms", until_ms, limit)
            .await
    }

    /// Active games whose `column` (`deadline_ms` or `next_reminder_ms`) is
    /// at or before `until_ms`, soonest first.
    ///
    /// Found through `games_by_wake`: `wake_ms` is a lower bound of both
    /// times (every statement that sets either sets it too; SQLite's schema
    /// checks it, and the suite checks PostgreSQL's rows: `integrity.rs`),
    /// so every game due has `wake_ms <= until_ms` whatever the bounds'
    /// staleness; the games whose bound is merely stale are read and passed
    /// over. Calling
    /// [`Store::raise_wakes`] first keeps those few.
    async fn active_games_by(
        &self,
        column: &'static str,
        until_ms: i64,
        limit: i64,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let sql = format!(
            "SELECT id FROM games WHERE status = 'active' AND wake_ms <= $1 AND {column} <= $1 \
             ORDER BY {column} LIMIT $2"
        );
        let ids = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(until_ms)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        let mut games = Vec::with_capacity(ids.len());
        for row in ids {
            if let Some(game) = self.game(row.try_get("id")?).await? {
                games.push(game);
            }
        }
        Ok(games)
    }

    /// Raises to their true value the scheduler's bounds (`wake_ms`) of the
    /// active games whose bound is at or before `until_ms` but earlier than
    /// their deadline and next reminder (a move leaves the bound where it
    /// was when its new deadline is later, so that the move's update
    /// changes no indexed column: migration 0019). Call it before the
    /// sweeps ([`Store::games_due_by`], [`Store::games_to_remind_by`]), so
    /// that they read only the games really due. Returns how many bounds
    /// were raised.
    ///
    /// Safe beside moves and other processes: a bound is only ever set to
    /// the row's own earliest time, computed from the row as it is when it
    /// is written.
    pub async fn raise_wakes(&self, until_ms: i64) -> Result<u64, StoreError> {
        let exact = wake_of("deadline_ms", "next_reminder_ms");
        let sql = format!(
            "UPDATE games SET wake_ms = {exact} \
             WHERE status = 'active' AND wake_ms <= $1 \
               AND (deadline_ms IS NULL OR wake_ms < deadline_ms) \
               AND (next_reminder_ms IS NULL OR wake_ms < next_reminder_ms)"
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(until_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Moves a game's next-reminder mark (a scheduling hint: reminders are
    /// sent once by [`Store::mark_reminder`], whatever this says).
    pub async fn set_next_reminder(
        &self,
        game_id: i64,
        at_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "UPDATE games SET next_reminder_ms = $2, wake_ms = {} WHERE id = $1",
            wake_of("deadline_ms", "$2")
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .bind(at_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// How many games are in progress.
    pub async fn count_active_games(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE result IS NULL")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Changes a game's deadline and extra time without bumping its version
    /// (buttons on its board stay valid); refused if the game changed since
    /// `version` was read.
    pub async fn set_deadline(
        &self,
        game_id: i64,
        version: i64,
        deadline_ms: Option<i64>,
        bonus_ms: i64,
        next_reminder_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "UPDATE games SET deadline_ms = $3, bonus_ms = $4, next_reminder_ms = $5, \
             wake_ms = {} WHERE id = $1 AND version = $2 AND result IS NULL",
            wake_of("$3", "$5")
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .bind(version)
            .bind(deadline_ms)
            .bind(bonus_ms)
            .bind(next_reminder_ms)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    /// Records a reminder; `false` if it had been sent already.
    pub async fn mark_reminder(
        &self,
        game_id: i64,
        ply: i64,
        hours: i64,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO reminders_sent (game_id, ply, hours, sent_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, ply, hours) DO NOTHING",
        )
        .bind(game_id)
        .bind(ply)
        .bind(hours)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether a reminder was sent.
    pub async fn reminder_sent(
        &self,
        game_id: i64,
        ply: i64,
        hours: i64,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM reminders_sent WHERE game_id = $1 AND ply = $2 AND hours = $3",
        )
        .bind(game_id)
        .bind(ply)
        .bind(hours)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }

    /// Claims today's DM summary for a player; `false` if already sent.
    pub async fn claim_dm_summary(
        &self,
        server_id: &str,
        user_id: &str,
        day: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO dm_summaries (server_id, user_id, day) VALUES ($1, $2, $3) \
             ON CONFLICT (server_id, user_id, day) DO NOTHING",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .bind(day)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn set_notify_dm(
        &self,
        server_id: &str,
        user_id: &str,
        dm: bool,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET notify_dm = $3 WHERE server_id = $1 AND user_id = $2")
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .bind(flag(dm))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's vacations that end after `since_ms`, oldest first.
    pub async fn vacations(
        &self,
        server_id: &str,
        user_id: &str,
        since_ms: i64,
    ) -> Result<Vec<Vacation>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, starts_ms, ends_ms FROM vacations WHERE server_id = $1 AND user_id = $2 \
             AND ends_ms > $3 ORDER BY starts_ms",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok(Vacation {
                    id: r.try_get("id")?,
                    starts_ms: r.try_get("starts_ms")?,
                    ends_ms: r.try_get("ends_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?)
    }

    pub async fn add_vacation(
        &self,
        server_id: &str,
        user_id: &str,
        starts_ms: i64,
        ends_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO vacations (server_id, user_id, starts_ms, ends_ms) VALUES ($1, $2, $3, $4)")
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .bind(starts_ms)
            .bind(ends_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends a player's running vacation now; `true` if one was running.
    pub async fn end_vacation(
        &self,
        server_id: &str,
        user_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let ended = end_vacation_in(&mut tx, server_id, user_id, now_ms).await?;
        tx.commit().await?;
        Ok(ended)
    }

    /// The last heartbeat of any bot process (unix ms), if there was one.
    pub async fn last_heartbeat(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT value FROM bot_state WHERE key = 'heartbeat'")
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("value")).transpose()?)
    }

    /// Records that a bot process is alive at `now_ms`.
    pub async fn heartbeat(&self, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO bot_state (key, value) VALUES ('heartbeat', $1) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

/// The SQL for the earlier of two nullable times `a` and `b` (`NULL` if
/// both are): the true value of a game's `wake_ms` (migration 0019), in SQL
/// both backends read alike. Statements that set a deadline or a reminder
/// other than a move's set the bound with it.
pub(super) fn wake_of(a: &str, b: &str) -> String {
    format!("CASE WHEN {a} IS NULL THEN {b} WHEN {b} IS NULL OR {a} <= {b} THEN {a} ELSE {b} END")
}

/// Ends a player's running vacation at `now_ms` inside a write transaction;
/// `true` if one was running. (A move ends its player's vacation in its own
/// statement: `apply.rs`.)
pub(super) async fn end_vacation_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    server_id: &str,
    user_id: &str,
    now_ms: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE vacations SET ends_ms = $3 WHERE server_id = $1 AND user_id = $2 \
         AND starts_ms <= $3 AND ends_ms > $3",
    )
    .bind(server_id.to_owned())
    .bind(user_id.to_owned())
    .bind(now_ms)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() > 0)
}
