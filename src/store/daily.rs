//! The daily puzzle (issue 28): one row per server and local day, written
//! before the day's post goes out (its primary key makes the post happen
//! once, whichever process ticks first), and the players' private
//! attempts at it. Posting a day closes the day before in the same
//! transaction: its open attempts expire and answers to it stop.

use sqlx::{any::AnyRow, Row};

use super::{
    on_unique_violation,
    players::{settings_from_prefixed, SERVER_COLUMNS},
    AttemptStatus, ServerSettings, Store, StoreError,
};

/// A day's puzzle on a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyRecord {
    pub server_id: String,
    /// Days since 1970-01-01 in the server's time zone.
    pub day: i64,
    /// `None`: the pool had no puzzle left that day.
    pub puzzle_id: Option<i64>,
    pub channel_id: String,
    pub posted_ms: i64,
    /// When the next day's post closed it.
    pub closed_ms: Option<i64>,
}

/// Where a daily attempt stands: as a rated attempt's, or expired (the day
/// closed before it ended).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DailyStatus {
    Attempt(AttemptStatus),
    Expired,
}

impl DailyStatus {
    fn id(self) -> &'static str {
        match self {
            DailyStatus::Attempt(status) => status.id(),
            DailyStatus::Expired => "expired",
        }
    }

    fn from_id(id: &str) -> DailyStatus {
        match id {
            "expired" => DailyStatus::Expired,
            "solved" => DailyStatus::Attempt(AttemptStatus::Solved),
            "failed" => DailyStatus::Attempt(AttemptStatus::Failed),
            _ => DailyStatus::Attempt(AttemptStatus::Open),
        }
    }
}

/// One player's attempt at one day's puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyAttempt {
    pub server_id: String,
    pub day: i64,
    pub user_id: String,
    pub display_name: String,
    pub status: DailyStatus,
    pub progress: i64,
    pub hinted: bool,
    pub started_ms: i64,
    pub ended_ms: Option<i64>,
}

/// Why a daily attempt could not start.
#[derive(Debug)]
pub enum DailyStartError {
    /// The day is closed (or was never posted).
    Closed,
    /// The player already has an attempt at that day, or another open.
    Conflict,
    Store(StoreError),
}

const DAILY_COLUMNS: &str = "server_id, day, puzzle_id, channel_id, posted_ms, closed_ms";
const ATTEMPT_COLUMNS: &str =
    "server_id, day, user_id, display_name, status, progress, hinted, started_ms, ended_ms";

fn daily_from_row(row: &AnyRow) -> Result<DailyRecord, sqlx::Error> {
    Ok(DailyRecord {
        server_id: row.try_get("server_id")?,
        day: row.try_get("day")?,
        puzzle_id: row.try_get("puzzle_id")?,
        channel_id: row.try_get("channel_id")?,
        posted_ms: row.try_get("posted_ms")?,
        closed_ms: row.try_get("closed_ms")?,
    })
}

fn attempt_from_row(row: &AnyRow) -> Result<DailyAttempt, sqlx::Error> {
    Ok(DailyAttempt {
        server_id: row.try_get("server_id")?,
        day: row.try_get("day")?,
        user_id: row.try_get("user_id")?,
        display_name: row.try_get("display_name")?,
        status: DailyStatus::from_id(&row.try_get::<String, _>("status")?),
        progress: row.try_get("progress")?,
        hinted: row.try_get::<i64, _>("hinted")? != 0,
        started_ms: row.try_get("started_ms")?,
        ended_ms: row.try_get("ended_ms")?,
    })
}

impl Store {
    /// The settings of every server with a daily puzzle channel.
    pub async fn servers_with_daily(&self) -> Result<Vec<ServerSettings>, StoreError> {
        let sql =
            format!("SELECT {SERVER_COLUMNS} FROM servers WHERE puzzle_channel_id IS NOT NULL");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| settings_from_prefixed(r, ""))
            .collect::<Result<_, _>>()?)
    }

    /// The latest day posted on `server_id`.
    pub async fn latest_daily(&self, server_id: &str) -> Result<Option<DailyRecord>, StoreError> {
        let sql = format!(
            "SELECT {DAILY_COLUMNS} FROM daily_puzzles WHERE server_id = $1 \
             ORDER BY day DESC LIMIT 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(daily_from_row).transpose()?)
    }

    pub async fn daily(
        &self,
        server_id: &str,
        day: i64,
    ) -> Result<Option<DailyRecord>, StoreError> {
        let sql =
            format!("SELECT {DAILY_COLUMNS} FROM daily_puzzles WHERE server_id = $1 AND day = $2");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(day)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(daily_from_row).transpose()?)
    }

    /// Records day `day`'s puzzle (`None`: none left) and closes the days
    /// before it that were still open, expiring their open attempts, all in
    /// one transaction. Returns the days it closed. [`StoreError::Conflict`]:
    /// the day was posted already (by another process); nothing changed.
    pub async fn post_daily(
        &self,
        server_id: &str,
        day: i64,
        puzzle_id: Option<i64>,
        channel_id: &str,
        at_ms: i64,
    ) -> Result<Vec<DailyRecord>, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO daily_puzzles (server_id, day, puzzle_id, channel_id, posted_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(server_id.to_owned())
        .bind(day)
        .bind(puzzle_id)
        .bind(channel_id.to_owned())
        .bind(at_ms)
        .execute(&mut *tx)
        .await
        .map_err(|e| on_unique_violation(e, StoreError::Conflict))?;
        let sql = format!(
            "SELECT {DAILY_COLUMNS} FROM daily_puzzles \
             WHERE server_id = $1 AND day <> $2 AND closed_ms IS NULL ORDER BY day"
        );
        let closing = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(day)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(daily_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        for closed in &closing {
            sqlx::query(
                "UPDATE daily_puzzles SET closed_ms = $3 WHERE server_id = $1 AND day = $2",
            )
            .bind(server_id.to_owned())
            .bind(closed.day)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE daily_attempts SET status = 'expired', ended_ms = $3 \
                 WHERE server_id = $1 AND day = $2 AND status = 'open'",
            )
            .bind(server_id.to_owned())
            .bind(closed.day)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(closing
            .into_iter()
            .map(|d| DailyRecord {
                closed_ms: Some(at_ms),
                ..d
            })
            .collect())
    }

    /// Opens `user_id`'s attempt at day `day`, if that day is open.
    pub async fn start_daily_attempt(
        &self,
        server_id: &str,
        day: i64,
        user_id: &str,
        display_name: &str,
        at_ms: i64,
    ) -> Result<DailyAttempt, DailyStartError> {
        let _gate = self.write_gate().await;
        // The day's being open is checked in the insert itself, so an
        // attempt never starts on a day the post has just closed.
        let done = sqlx::query(
            "INSERT INTO daily_attempts \
             (server_id, day, user_id, display_name, status, started_ms) \
             SELECT $1, $2, $3, $4, 'open', $5 WHERE EXISTS (SELECT 1 FROM daily_puzzles \
             WHERE server_id = $1 AND day = $2 AND closed_ms IS NULL AND puzzle_id IS NOT NULL)",
        )
        .bind(server_id.to_owned())
        .bind(day)
        .bind(user_id.to_owned())
        .bind(display_name.to_owned())
        .bind(at_ms)
        .execute(&self.pool)
        .await
        .map_err(|e| match on_unique_violation(e, StoreError::Conflict) {
            StoreError::Conflict => DailyStartError::Conflict,
            other => DailyStartError::Store(other),
        })?;
        if done.rows_affected() == 0 {
            return Err(DailyStartError::Closed);
        }
        Ok(DailyAttempt {
            server_id: server_id.to_owned(),
            day,
            user_id: user_id.to_owned(),
            display_name: display_name.to_owned(),
            status: DailyStatus::Attempt(AttemptStatus::Open),
            progress: 0,
            hinted: false,
            started_ms: at_ms,
            ended_ms: None,
        })
    }

    /// `user_id`'s attempt at day `day`.
    pub async fn daily_attempt(
        &self,
        server_id: &str,
        day: i64,
        user_id: &str,
    ) -> Result<Option<DailyAttempt>, StoreError> {
        self.one_daily_attempt("AND day = $3", server_id, user_id, Some(day))
            .await
    }

    /// `user_id`'s open daily attempt on `server_id`.
    pub async fn open_daily_attempt(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Option<DailyAttempt>, StoreError> {
        self.one_daily_attempt("AND status = 'open'", server_id, user_id, None)
            .await
    }

    /// `user_id`'s latest daily attempt on `server_id`.
    pub async fn latest_daily_attempt(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Option<DailyAttempt>, StoreError> {
        self.one_daily_attempt("ORDER BY day DESC LIMIT 1", server_id, user_id, None)
            .await
    }

    async fn one_daily_attempt(
        &self,
        rest: &'static str,
        server_id: &str,
        user_id: &str,
        day: Option<i64>,
    ) -> Result<Option<DailyAttempt>, StoreError> {
        let sql = format!(
            "SELECT {ATTEMPT_COLUMNS} FROM daily_attempts WHERE server_id = $1 AND user_id = $2 {rest}"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned());
        if let Some(day) = day {
            query = query.bind(day);
        }
        let row = query.fetch_optional(&self.pool).await?;
        Ok(row.as_ref().map(attempt_from_row).transpose()?)
    }

    /// Moves an open daily attempt from `from` plies to `to`.
    /// [`StoreError::Conflict`]: it is no longer open at `from`.
    pub async fn advance_daily_attempt(
        &self,
        server_id: &str,
        day: i64,
        user_id: &str,
        from: i64,
        to: i64,
    ) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE daily_attempts SET progress = $5 WHERE server_id = $1 AND day = $2 \
             AND user_id = $3 AND status = 'open' AND progress = $4",
        )
        .bind(server_id.to_owned())
        .bind(day)
        .bind(user_id.to_owned())
        .bind(from)
        .bind(to)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Conflict);
        }
        Ok(())
    }

    /// Ends an open daily attempt at `progress`, solved or failed.
    /// [`StoreError::Conflict`]: it is no longer open there (answered
    /// twice, or the day closed).
    pub async fn finish_daily_attempt(
        &self,
        server_id: &str,
        day: i64,
        user_id: &str,
        progress: i64,
        solved: bool,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let status = DailyStatus::Attempt(if solved {
            AttemptStatus::Solved
        } else {
            AttemptStatus::Failed
        });
        let done = sqlx::query(
            "UPDATE daily_attempts SET status = $5, ended_ms = $6 WHERE server_id = $1 \
             AND day = $2 AND user_id = $3 AND status = 'open' AND progress = $4",
        )
        .bind(server_id.to_owned())
        .bind(day)
        .bind(user_id.to_owned())
        .bind(progress)
        .bind(status.id())
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Conflict);
        }
        Ok(())
    }

    /// Marks that an open daily attempt asked for a hint.
    pub async fn mark_daily_hinted(
        &self,
        server_id: &str,
        day: i64,
        user_id: &str,
    ) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE daily_attempts SET hinted = 1 WHERE server_id = $1 AND day = $2 \
             AND user_id = $3 AND status = 'open' AND hinted = 0",
        )
        .bind(server_id.to_owned())
        .bind(day)
        .bind(user_id.to_owned())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Every attempt at day `day`, in the order they ended (then started).
    pub async fn daily_attempts(
        &self,
        server_id: &str,
        day: i64,
    ) -> Result<Vec<DailyAttempt>, StoreError> {
        let sql = format!(
            "SELECT {ATTEMPT_COLUMNS} FROM daily_attempts WHERE server_id = $1 AND day = $2 \
             ORDER BY ended_ms, started_ms, user_id"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(day)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(attempt_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// The days of `server_id` that had a puzzle, and those `user_id`
    /// solved (what a streak is counted from).
    pub async fn daily_days(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<(Vec<i64>, Vec<i64>), StoreError> {
        let days = |sql: &'static str, user: bool| {
            let mut query = sqlx::query(sql).bind(server_id.to_owned());
            if user {
                query = query.bind(user_id.to_owned());
            }
            query.fetch_all(&self.pool)
        };
        let posted = days(
            "SELECT day FROM daily_puzzles WHERE server_id = $1 AND puzzle_id IS NOT NULL",
            false,
        )
        .await?;
        let solved = days(
            "SELECT day FROM daily_attempts WHERE server_id = $1 AND user_id = $2 \
             AND status = 'solved'",
            true,
        )
        .await?;
        let read = |rows: Vec<AnyRow>| {
            rows.iter()
                .map(|r| r.try_get::<i64, _>("day"))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok((read(posted)?, read(solved)?))
    }
}
