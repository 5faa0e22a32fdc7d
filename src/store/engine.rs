//! What the engine features keep: the active games against the computer
//! (found again after a restart), and the analyses of finished games — the
//! job (who asked, where to post, how far it got) and the evaluation of
//! each position, written as each is found so a restart resumes where the
//! job stopped.

use sqlx::{any::AnyRow, Row};

use super::{Store, StoreError};

/// Where an analysis job stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnalysisStatus {
    Queued,
    Running,
    Done,
    Failed,
}

impl AnalysisStatus {
    pub const fn id(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
            AnalysisStatus::Failed => "failed",
        }
    }

    pub fn from_id(id: &str) -> Option<AnalysisStatus> {
        match id {
            "queued" => Some(AnalysisStatus::Queued),
            "running" => Some(AnalysisStatus::Running),
            "done" => Some(AnalysisStatus::Done),
            "failed" => Some(AnalysisStatus::Failed),
            _ => None,
        }
    }
}

/// An analysis job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRecord {
    pub game_id: i64,
    pub server_id: String,
    pub channel_id: String,
    pub requested_by: String,
    pub status: AnalysisStatus,
    /// Positions to evaluate (plies + 1).
    pub positions: i64,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
}

/// The engine's verdict on one position, White's point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEval {
    pub ply: i64,
    /// Centipawns, or `None` when `mate` is set.
    pub cp: Option<i64>,
    /// Mate in N (negative: Black mates).
    pub mate: Option<i64>,
    pub best_uci: Option<String>,
    pub depth: i64,
}

const COLUMNS: &str =
    "game_id, server_id, channel_id, requested_by, status, positions, created_ms, finished_ms";

fn from_row(row: &AnyRow) -> Result<AnalysisRecord, StoreError> {
    let status: String = row.try_get("status")?;
    Ok(AnalysisRecord {
        game_id: row.try_get("game_id")?,
        server_id: row.try_get("server_id")?,
        channel_id: row.try_get("channel_id")?,
        requested_by: row.try_get("requested_by")?,
        status: AnalysisStatus::from_id(&status).ok_or(StoreError::NotFound)?,
        positions: row.try_get("positions")?,
        created_ms: row.try_get("created_ms")?,
        finished_ms: row.try_get("finished_ms")?,
    })
}

impl Store {
    /// Active games with the computer (`engine:N`) on one side. Run at
    /// start-up only: it reads every active game's players.
    pub async fn active_computer_games(&self) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'active' \
             AND (white_id LIKE 'engine:%' OR black_id LIKE 'engine:%') ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| Ok(row.try_get("id")?)).collect()
    }

    /// Queues an analysis of a game unless one exists; a failed one is
    /// queued again (for `requested_by`, posting in `channel_id`). Returns
    /// the job as it now stands.
    pub async fn queue_analysis(&self, job: &AnalysisRecord) -> Result<AnalysisRecord, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO analyses (game_id, server_id, channel_id, requested_by, status, positions, created_ms) \
             VALUES ($1, $2, $3, $4, 'queued', $5, $6) ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(job.game_id)
        .bind(job.server_id.clone())
        .bind(job.channel_id.clone())
        .bind(job.requested_by.clone())
        .bind(job.positions)
        .bind(job.created_ms)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE analyses SET status = 'queued', channel_id = $2, requested_by = $3, finished_ms = NULL \
             WHERE game_id = $1 AND status = 'failed'",
        )
        .bind(job.game_id)
        .bind(job.channel_id.clone())
        .bind(job.requested_by.clone())
        .execute(&mut *tx)
        .await?;
        let sql = format!("SELECT {COLUMNS} FROM analyses WHERE game_id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(job.game_id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        from_row(&row)
    }

    /// The analysis job of a game, if any.
    pub async fn analysis(&self, game_id: i64) -> Result<Option<AnalysisRecord>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM analyses WHERE game_id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// Jobs queued or running (to resume after a restart), oldest first.
    pub async fn unfinished_analyses(&self) -> Result<Vec<AnalysisRecord>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM analyses WHERE status IN ('queued', 'running') ORDER BY created_ms, game_id"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(from_row).collect()
    }

    /// Moves a job to `status` (`finished_ms` is set for done and failed).
    pub async fn set_analysis_status(
        &self,
        game_id: i64,
        status: AnalysisStatus,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let finished =
            matches!(status, AnalysisStatus::Done | AnalysisStatus::Failed).then_some(at_ms);
        let _gate = self.write_gate().await;
        let done =
            sqlx::query("UPDATE analyses SET status = $2, finished_ms = $3 WHERE game_id = $1")
                .bind(game_id)
                .bind(status.id())
                .bind(finished)
                .execute(&self.pool)
                .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Keeps the evaluation of one position (a second write of the same
    /// position, by a resumed or doubled job, is ignored).
    pub async fn save_eval(&self, game_id: i64, eval: &StoredEval) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        sqlx::query(
            "INSERT INTO analysis_evals (game_id, ply, cp, mate, best_uci, depth) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id, ply) DO NOTHING",
        )
        .bind(game_id)
        .bind(eval.ply)
        .bind(eval.cp)
        .bind(eval.mate)
        .bind(eval.best_uci.clone())
        .bind(eval.depth)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The evaluations stored for a game, by ply.
    pub async fn evals(&self, game_id: i64) -> Result<Vec<StoredEval>, StoreError> {
        let rows = sqlx::query(
            "SELECT ply, cp, mate, best_uci, depth FROM analysis_evals WHERE game_id = $1 ORDER BY ply",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredEval {
                    ply: row.try_get("ply")?,
                    cp: row.try_get("cp")?,
                    mate: row.try_get("mate")?,
                    best_uci: row.try_get("best_uci")?,
                    depth: row.try_get("depth")?,
                })
            })
            .collect()
    }
}
