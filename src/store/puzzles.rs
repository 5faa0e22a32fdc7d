//! Puzzles (issue 28): each server's pool, the attempts (one per player and
//! puzzle, rated when it ends) and the puzzle ladder. A puzzle holds points
//! like a player; an attempt that ends settles the solver against the
//! puzzle with the club scheme ([`crate::rating::settle`]: solved, the
//! solver wins; failed, the puzzle wins), both sides read and written in
//! one transaction so two solvers of one puzzle never lose an update.

use sqlx::{any::AnyRow, Row};

use super::{on_unique_violation, Store, StoreError};
use crate::rating::{settle, GameOutcome, Points};

/// A puzzle to add to a server's pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPuzzle {
    pub fen: String,
    /// The solution in UCI.
    pub moves: Vec<String>,
    /// Theme keys.
    pub themes: Vec<String>,
    /// `starter`, `game:<id>` or `import:<file>`.
    pub source: String,
}

impl NewPuzzle {
    /// A puzzle as the finder found it, from `source`.
    pub fn found(found: &crate::puzzle::Found, source: &str) -> NewPuzzle {
        NewPuzzle {
            fen: found.fen.clone(),
            moves: found.moves.clone(),
            themes: found.themes.iter().map(|t| t.key().to_owned()).collect(),
            source: source.to_owned(),
        }
    }
}

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRecord {
    pub id: i64,
    pub server_id: String,
    pub fen: String,
    pub moves: Vec<String>,
    pub themes: Vec<String>,
    pub source: String,
    /// Hundredths.
    pub points: i64,
    pub attempts: i64,
    pub solved: i64,
}

/// Where an attempt stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttemptStatus {
    Open,
    Solved,
    Failed,
}

impl AttemptStatus {
    pub const fn id(self) -> &'static str {
        match self {
            AttemptStatus::Open => "open",
            AttemptStatus::Solved => "solved",
            AttemptStatus::Failed => "failed",
        }
    }

    fn from_id(id: &str) -> AttemptStatus {
        match id {
            "solved" => AttemptStatus::Solved,
            "failed" => AttemptStatus::Failed,
            _ => AttemptStatus::Open,
        }
    }
}

/// One player's attempt at one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRecord {
    pub puzzle_id: i64,
    pub user_id: String,
    pub server_id: String,
    pub status: AttemptStatus,
    /// Plies of the solution played.
    pub progress: i64,
    pub hinted: bool,
    /// The solver's points change, once rated.
    pub delta: Option<i64>,
    pub started_ms: i64,
    pub ended_ms: Option<i64>,
}

/// A player on the puzzle ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzlePlayer {
    pub user_id: String,
    pub display_name: String,
    /// Hundredths.
    pub points: i64,
    /// Rated attempts.
    pub attempts: i64,
    pub solved: i64,
}

/// How a finished attempt was rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    /// The solver's change (the puzzle's is its negation).
    pub delta: i64,
    /// The solver's and the puzzle's points after it.
    pub solver_points: i64,
    pub puzzle_points: i64,
}

const PUZZLE_COLUMNS: &str = "id, server_id, fen, moves, themes, source, points, attempts, solved";
const ATTEMPT_COLUMNS: &str =
    "puzzle_id, user_id, server_id, status, progress, hinted, delta, started_ms, ended_ms";

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

fn puzzle_from_row(row: &AnyRow) -> Result<PuzzleRecord, sqlx::Error> {
    Ok(PuzzleRecord {
        id: row.try_get("id")?,
        server_id: row.try_get("server_id")?,
        fen: row.try_get("fen")?,
        moves: words(&row.try_get::<String, _>("moves")?),
        themes: words(&row.try_get::<String, _>("themes")?),
        source: row.try_get("source")?,
        points: row.try_get("points")?,
        attempts: row.try_get("attempts")?,
        solved: row.try_get("solved")?,
    })
}

fn attempt_from_row(row: &AnyRow) -> Result<AttemptRecord, sqlx::Error> {
    Ok(AttemptRecord {
        puzzle_id: row.try_get("puzzle_id")?,
        user_id: row.try_get("user_id")?,
        server_id: row.try_get("server_id")?,
        status: AttemptStatus::from_id(&row.try_get::<String, _>("status")?),
        progress: row.try_get("progress")?,
        hinted: row.try_get::<i64, _>("hinted")? != 0,
        delta: row.try_get("delta")?,
        started_ms: row.try_get("started_ms")?,
        ended_ms: row.try_get("ended_ms")?,
    })
}

impl Store {
    /// Adds puzzles to `server_id`'s pool (created on first use), at 0
    /// points; a position already in the pool is skipped. Returns how many
    /// were added.
    pub async fn add_puzzles(
        &self,
        server_id: &str,
        puzzles: &[NewPuzzle],
        at_ms: i64,
    ) -> Result<usize, StoreError> {
        self.add_puzzles_for(server_id, puzzles, None, at_ms).await
    }

    /// [`Store::add_puzzles`] for one player only (`Some(user)`: puzzles
    /// from their own mistakes, `/puzzle source:mine`).
    pub async fn add_puzzles_for(
        &self,
        server_id: &str,
        puzzles: &[NewPuzzle],
        for_user: Option<&str>,
        at_ms: i64,
    ) -> Result<usize, StoreError> {
        self.server(server_id).await?;
        let (_gate, mut tx) = self.begin_write().await?;
        let added = insert_puzzles(&mut tx, server_id, puzzles, for_user, at_ms).await?;
        tx.commit().await?;
        Ok(added)
    }

    /// How many puzzles `server_id`'s pool holds.
    pub async fn puzzle_count(&self, server_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM puzzles WHERE server_id = $1")
            .bind(server_id.to_owned())
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    pub async fn puzzle(&self, id: i64) -> Result<Option<PuzzleRecord>, StoreError> {
        let sql = format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(puzzle_from_row).transpose()?)
    }

    /// The puzzle of `server_id` nearest to `points` (hundredths) that
    /// `user_id` has never attempted, within `window` points either side;
    /// ties go to the older puzzle. `None`: none left in that range. A
    /// daily puzzle (its solution is posted for all to see) and a puzzle
    /// from someone's own mistakes are never given here.
    pub async fn puzzle_near(
        &self,
        server_id: &str,
        user_id: &str,
        points: i64,
        window: i64,
    ) -> Result<Option<PuzzleRecord>, StoreError> {
        let sql = format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE server_id = $1 \
             AND points BETWEEN $3 - $4 AND $3 + $4 AND for_user IS NULL \
             AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
                 WHERE a.puzzle_id = p.id AND a.user_id = $2) \
             AND NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.puzzle_id = p.id) \
             ORDER BY ABS(points - $3), id LIMIT 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .bind(points)
            .bind(window)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(puzzle_from_row).transpose()?)
    }

    /// The oldest puzzle from `user_id`'s own mistakes they have not tried.
    pub async fn own_puzzle(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Option<PuzzleRecord>, StoreError> {
        let sql = format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE server_id = $1 AND for_user = $2 \
             AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
                 WHERE a.puzzle_id = p.id AND a.user_id = $2) ORDER BY id LIMIT 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(puzzle_from_row).transpose()?)
    }

    /// How many puzzles each player got from `source` (a game's mistakes).
    pub async fn own_puzzle_counts(
        &self,
        server_id: &str,
        source: &str,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT for_user, COUNT(*) AS n FROM puzzles WHERE server_id = $1 AND source = $2 \
             AND for_user IS NOT NULL GROUP BY for_user ORDER BY for_user",
        )
        .bind(server_id.to_owned())
        .bind(source.to_owned())
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| Ok((r.try_get("for_user")?, r.try_get("n")?)))
            .collect::<Result<_, sqlx::Error>>()?)
    }

    /// The puzzle for `server_id`'s next daily puzzle: one of the server's
    /// (not someone's own) that has never been a daily puzzle there, the
    /// least tried first (so it is fresh to most), then the oldest.
    pub async fn pick_daily_puzzle(
        &self,
        server_id: &str,
    ) -> Result<Option<PuzzleRecord>, StoreError> {
        let sql = format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles p WHERE server_id = $1 AND for_user IS NULL \
             AND NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.puzzle_id = p.id) \
             ORDER BY attempts, id LIMIT 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(puzzle_from_row).transpose()?)
    }

    /// Opens `user_id`'s attempt at `puzzle_id` (their puzzle-ladder row is
    /// created or renamed). [`StoreError::Conflict`]: they already attempted
    /// this puzzle or have another attempt open; nothing is written.
    pub async fn start_attempt(
        &self,
        server_id: &str,
        user_id: &str,
        display_name: &str,
        puzzle_id: i64,
        at_ms: i64,
    ) -> Result<AttemptRecord, StoreError> {
        self.server(server_id).await?;
        let (_gate, mut tx) = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO puzzle_attempts (puzzle_id, user_id, server_id, status, started_ms) \
             VALUES ($1, $2, $3, 'open', $4)",
        )
        .bind(puzzle_id)
        .bind(user_id.to_owned())
        .bind(server_id.to_owned())
        .bind(at_ms)
        .execute(&mut *tx)
        .await
        .map_err(|e| on_unique_violation(e, StoreError::Conflict))?;
        sqlx::query(
            "INSERT INTO puzzle_players (server_id, user_id, display_name) VALUES ($1, $2, $3) \
             ON CONFLICT (server_id, user_id) DO UPDATE SET display_name = excluded.display_name",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .bind(display_name.to_owned())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(AttemptRecord {
            puzzle_id,
            user_id: user_id.to_owned(),
            server_id: server_id.to_owned(),
            status: AttemptStatus::Open,
            progress: 0,
            hinted: false,
            delta: None,
            started_ms: at_ms,
            ended_ms: None,
        })
    }

    /// `user_id`'s open attempt on `server_id`, if any.
    pub async fn open_attempt(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Option<AttemptRecord>, StoreError> {
        let sql = format!(
            "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts \
             WHERE server_id = $1 AND user_id = $2 AND status = 'open'"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(attempt_from_row).transpose()?)
    }

    /// `user_id`'s latest attempt on `server_id`, open or ended.
    pub async fn latest_attempt(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Option<AttemptRecord>, StoreError> {
        let sql = format!(
            "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE server_id = $1 AND user_id = $2 \
             ORDER BY started_ms DESC, puzzle_id DESC LIMIT 1"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(attempt_from_row).transpose()?)
    }

    /// `user_id`'s attempt at `puzzle_id`, open or ended.
    pub async fn attempt(
        &self,
        puzzle_id: i64,
        user_id: &str,
    ) -> Result<Option<AttemptRecord>, StoreError> {
        let sql = format!(
            "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE puzzle_id = $1 AND user_id = $2"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(puzzle_id)
            .bind(user_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(attempt_from_row).transpose()?)
    }

    /// Moves an open attempt from `from` plies to `to` (the solver's move
    /// and the bot's reply). [`StoreError::Conflict`]: the attempt is no
    /// longer open at `from` (a second answer raced this one).
    pub async fn advance_attempt(
        &self,
        puzzle_id: i64,
        user_id: &str,
        from: i64,
        to: i64,
    ) -> Result<(), StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE puzzle_attempts SET progress = $4 \
             WHERE puzzle_id = $1 AND user_id = $2 AND status = 'open' AND progress = $3",
        )
        .bind(puzzle_id)
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

    /// Marks that the open attempt asked for a hint. `false`: it had
    /// already (or is not open).
    pub async fn mark_hinted(&self, puzzle_id: i64, user_id: &str) -> Result<bool, StoreError> {
        let _gate = self.write_gate().await;
        let done = sqlx::query(
            "UPDATE puzzle_attempts SET hinted = 1 \
             WHERE puzzle_id = $1 AND user_id = $2 AND status = 'open' AND hinted = 0",
        )
        .bind(puzzle_id)
        .bind(user_id.to_owned())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends the open attempt at `progress` plies, solved or failed, and
    /// rates it: the solver against the puzzle with the club scheme. All in
    /// one transaction. [`StoreError::Conflict`]: the attempt is no longer
    /// open at `progress`; nothing is written.
    pub async fn finish_attempt(
        &self,
        puzzle_id: i64,
        user_id: &str,
        progress: i64,
        solved: bool,
        at_ms: i64,
    ) -> Result<Rated, StoreError> {
        let (_gate, mut tx) = self.begin_write().await?;
        let lock = self.for_update();
        let attempt = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT server_id FROM puzzle_attempts WHERE puzzle_id = $1 AND user_id = $2 \
             AND status = 'open' AND progress = $3{lock}"
        )))
        .bind(puzzle_id)
        .bind(user_id.to_owned())
        .bind(progress)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(StoreError::Conflict)?;
        let server_id: String = attempt.try_get("server_id")?;
        let puzzle_points: i64 = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT points FROM puzzles WHERE id = $1{lock}"
        )))
        .bind(puzzle_id)
        .fetch_one(&mut *tx)
        .await?
        .try_get("points")?;
        let solver_points: i64 = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT points FROM puzzle_players WHERE server_id = $1 AND user_id = $2{lock}"
        )))
        .bind(server_id.clone())
        .bind(user_id.to_owned())
        .fetch_one(&mut *tx)
        .await?
        .try_get("points")?;
        // The solver plays "White" against the puzzle.
        let outcome = if solved {
            GameOutcome::WhiteWins
        } else {
            GameOutcome::BlackWins
        };
        let delta = settle(
            Points::from_hundredths(solver_points),
            Points::from_hundredths(puzzle_points),
            outcome,
        )
        .white_delta
        .hundredths();
        let status = if solved {
            AttemptStatus::Solved
        } else {
            AttemptStatus::Failed
        };
        sqlx::query(
            "UPDATE puzzle_attempts SET status = $3, delta = $4, ended_ms = $5 \
             WHERE puzzle_id = $1 AND user_id = $2",
        )
        .bind(puzzle_id)
        .bind(user_id.to_owned())
        .bind(status.id())
        .bind(delta)
        .bind(at_ms)
        .execute(&mut *tx)
        .await?;
        let won = i64::from(solved);
        sqlx::query(
            "UPDATE puzzles SET points = points - $2, attempts = attempts + 1, \
             solved = solved + $3 WHERE id = $1",
        )
        .bind(puzzle_id)
        .bind(delta)
        .bind(won)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE puzzle_players SET points = points + $3, attempts = attempts + 1, \
             solved = solved + $4 WHERE server_id = $1 AND user_id = $2",
        )
        .bind(server_id)
        .bind(user_id.to_owned())
        .bind(delta)
        .bind(won)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Rated {
            delta,
            solver_points: solver_points + delta,
            puzzle_points: puzzle_points - delta,
        })
    }

    /// `user_id`'s row on `server_id`'s puzzle ladder.
    pub async fn puzzle_player(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Option<PuzzlePlayer>, StoreError> {
        let row = sqlx::query(
            "SELECT user_id, display_name, points, attempts, solved FROM puzzle_players \
             WHERE server_id = $1 AND user_id = $2",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(puzzle_player_from_row).transpose()?)
    }

    /// The puzzle ladder of `server_id`: players with a rated attempt, most
    /// points first (then most attempts, name, id), `limit` from `offset`.
    pub async fn puzzle_ladder(
        &self,
        server_id: &str,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<PuzzlePlayer>, StoreError> {
        let rows = sqlx::query(
            "SELECT user_id, display_name, points, attempts, solved FROM puzzle_players \
             WHERE server_id = $1 AND attempts > 0 \
             ORDER BY points DESC, attempts DESC, display_name, user_id LIMIT $2 OFFSET $3",
        )
        .bind(server_id.to_owned())
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(puzzle_player_from_row)
            .collect::<Result<_, _>>()?)
    }
}

fn puzzle_player_from_row(row: &AnyRow) -> Result<PuzzlePlayer, sqlx::Error> {
    Ok(PuzzlePlayer {
        user_id: row.try_get("user_id")?,
        display_name: row.try_get("display_name")?,
        points: row.try_get("points")?,
        attempts: row.try_get("attempts")?,
        solved: row.try_get("solved")?,
    })
}

/// Adds `puzzles` to `server_id`'s pool inside `tx`, skipping positions the
/// pool holds already; how many were added.
pub(super) async fn insert_puzzles(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    server_id: &str,
    puzzles: &[NewPuzzle],
    for_user: Option<&str>,
    at_ms: i64,
) -> Result<usize, StoreError> {
    let mut added = 0;
    for p in puzzles {
        added += sqlx::query(
            "INSERT INTO puzzles (server_id, fen, moves, themes, source, created_ms, for_user) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (server_id, fen) DO NOTHING",
        )
        .bind(server_id.to_owned())
        .bind(p.fen.clone())
        .bind(p.moves.join(" "))
        .bind(p.themes.join(" "))
        .bind(p.source.clone())
        .bind(at_ms)
        .bind(for_user.map(str::to_owned))
        .execute(&mut **tx)
        .await?
        .rows_affected() as usize;
    }
    Ok(added)
}
