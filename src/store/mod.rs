//! Persistence: one store API over sqlx, on SQLite (the zero-setup default,
//! a file created on first run) or PostgreSQL (several processes sharing one
//! database), chosen by the URL scheme.
//!
//! Both backends run the same SQL through sqlx's `Any` driver (`$1`
//! placeholders work on both); only the migrations (`migrations/sqlite`,
//! `migrations/postgres`) and the way a write transaction begins differ. The
//! store never sees a platform type: ids are text, points are hundredths,
//! times are unix milliseconds.
//!
//! Every change to a game goes through [`Store::apply`], which checks the
//! game's version, appends the move, writes the game's state and, for a rated
//! ending, both players' points, all or nothing (one statement for a move:
//! `apply.rs`).

mod adjourn;
mod apply;
mod audit;
mod backup;
mod challenges;
mod conditional;
mod daily;
mod engine;
mod games;
mod group;
mod hot;
mod integrity;
mod migrations;
mod mining;
pub mod model;
mod offers;
mod pages;
mod play;
mod players;
mod privacy;
mod puzzles;
mod round_starts;
mod time;
mod tournaments;
mod variants;
mod web;

use std::{str::FromStr, sync::Arc, time::Duration};

use sqlx::{
    any::{AnyConnectOptions, AnyPoolOptions},
    AnyPool, Connection, Executor,
};

pub use audit::AuditEntry;
pub use backup::BackupError;
pub use conditional::ConditionalRecord;
pub use daily::{DailyAttempt, DailyRecord, DailyStartError, DailyStatus};
pub use engine::{AnalysisRecord, AnalysisStatus, StoredEval};
pub use hot::HotConnection;
pub use model::*;
pub use play::{PlayView, ViewCheck};
pub use privacy::Forget;
pub use puzzles::{AttemptRecord, AttemptStatus, NewPuzzle, PuzzlePlayer, PuzzleRecord, Rated};
pub use time::Vacation;
pub use tournaments::{
    Entrant, NewBoard, NewTournament, Seeding, TournamentGame, TournamentRecord, TournamentStatus,
};
pub use web::CHANGES_CHANNEL;

/// What replaces a forgotten person's id and name in the rows that stay
/// (their games, for their opponents; audit entries they wrote).
pub const DELETED_PLAYER: &str = "deleted player";

/// Which database a store talks to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another change got there first (stale version, challenge no longer
    /// pending, duplicate ply): nothing was written.
    #[error("the record changed in the meantime")]
    Conflict,
    /// The channel already has an active game.
    #[error("that channel already has an active game")]
    ChannelBusy,
    #[error("not found")]
    NotFound,
    #[error("unsupported database URL `{0}`: use sqlite:PATH or postgres://…")]
    BadUrl(String),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// The store. Cheap to clone (a pool handle).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// Settings a server starts with (the operator's configuration).
    defaults: Arc<ServerSettings>,
    /// SQLite has one writer at a time; writers of this process queue here
    /// instead of in SQLite's busy handler, which sleeps in steps of up to
    /// 100 ms and made the slowest moves wait tens of milliseconds.
    write_gate: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// Moves waiting to be committed together (SQLite; `group.rs`).
    group: Arc<group::Queue>,
    /// The database's address (PostgreSQL's change listener opens its own
    /// connection).
    url: DatabaseUrl,
    /// Connections the move path keeps between statements (`hot.rs`).
    kept: Arc<hot::Kept>,
}

/// A database address, kept out of `Debug` output (it may hold a password).
#[derive(Clone)]
struct DatabaseUrl(Arc<str>);

impl std::fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatabaseUrl(…)")
    }
}

impl std::ops::Deref for DatabaseUrl {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// What an acknowledged change survives (SQLite; PostgreSQL follows its own
/// `synchronous_commit`, on by default).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Durability {
    /// `synchronous = FULL`: every commit reaches the disk before it is
    /// acknowledged, so a power loss or kernel crash loses nothing the bot
    /// has answered. Moves arriving together share one sync (group commit).
    #[default]
    Full,
    /// `synchronous = NORMAL`: a crash of the bot loses nothing, but a power
    /// loss or kernel crash may roll back the last moments of play,
    /// answered moves included. Faster on slow disks.
    Normal,
}

impl Durability {
    /// SQLite's name for it.
    pub fn pragma(self) -> &'static str {
        match self {
            Durability::Full => "PRAGMA synchronous = FULL",
            Durability::Normal => "PRAGMA synchronous = NORMAL",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Durability::Full => "full",
            Durability::Normal => "normal",
        }
    }
}

impl FromStr for Durability {
    type Err = String;

    fn from_str(s: &str) -> Result<Durability, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "full" => Ok(Durability::Full),
            "normal" => Ok(Durability::Normal),
            other => Err(format!("`{other}` is not a durability: use full or normal")),
        }
    }
}

/// How long a PostgreSQL connection may sit unused in the pool before it is
/// pinged on its way out (see [`Store::connect_with`]).
const PING_IDLE: Duration = Duration::from_secs(1);

/// A writer's place in the queue of [`Store::begin_write`]; `None` where
/// the database orders writers itself (PostgreSQL).
pub type WriteGate = Option<tokio::sync::OwnedMutexGuard<()>>;

/// Turns what an operator writes (`chessbot.db`, `sqlite:chessbot.db`,
/// `postgres://…`) into a URL sqlx understands, creating SQLite files on
/// first use.
pub fn normalize_url(url: &str) -> Result<(String, Backend), StoreError> {
    let url = url.trim();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok((url.to_owned(), Backend::Postgres));
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    if path.is_empty() || path.contains("://") {
        return Err(StoreError::BadUrl(url.to_owned()));
    }
    let with_mode = if path.contains("mode=") || path.starts_with(":memory:") {
        path.to_owned()
    } else if path.contains('?') {
        format!("{path}&mode=rwc")
    } else {
        format!("{path}?mode=rwc")
    };
    Ok((format!("sqlite://{with_mode}"), Backend::Sqlite))
}

impl Store {
    /// Connects with [`Durability::Full`] and runs the embedded migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, Durability::Full).await
    }

    /// Connects and runs the embedded migrations.
    pub async fn open_with(url: &str, durability: Durability) -> Result<Store, StoreError> {
        let store = Store::connect_with(url, durability).await?;
        store.migrate().await?;
        Ok(store)
    }

    /// Connects with [`Durability::Full`] without migrating.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, Durability::Full).await
    }

    /// Connects without migrating.
    pub async fn connect_with(url: &str, durability: Durability) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = normalize_url(url)?;
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => 4,
                Backend::Postgres => 8,
            })
            .acquire_timeout(Duration::from_secs(10))
            // sqlx's own check pings every connection before handing it
            // out: a round trip before every statement. A SQLite connection
            // is a file in this process and needs none. A PostgreSQL one is
            // a socket that a server restart may close while it sits idle,
            // so it is pinged only after `PING_IDLE` unused; sqlx pings each
            // connection as it takes it back anyway, so one in steady use
            // has just answered. (The move path keeps its connections out
            // of the pool between moves, at most `PING_IDLE`: `hot.rs`.)
            .test_before_acquire(false)
            .before_acquire(move |conn, meta| {
                Box::pin(async move {
                    if backend == Backend::Postgres && meta.idle_for >= PING_IDLE {
                        conn.ping().await?;
                    }
                    Ok(true)
                })
            })
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers work beside the one writer; the busy
                        // timeout makes writers queue instead of failing.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        // In WAL mode, FULL syncs the log at every commit
                        // (what makes an answered move survive a power
                        // loss); NORMAL only at checkpoints.
                        conn.execute(durability.pragma()).await?;
                    }
                    Ok(())
                })
            })
            .after_release(move |conn, _meta| {
                Box::pin(async move {
                    if backend != Backend::Sqlite || !conn.is_in_transaction() {
                        return Ok(true);
                    }
                    // A transaction dropped without commit queues its ROLLBACK
                    // on the connection's worker: let it run, then look again.
                    // If SQLite already rolled back by itself (a full disk
                    // does that), sqlx's ROLLBACK fails and its depth counter
                    // stays at 1 forever, and every later write on this
                    // connection would fail ("begin_with at non-zero
                    // transaction depth"). Such a connection is closed here
                    // and the pool opens a fresh one.
                    conn.ping().await?;
                    Ok(!conn.is_in_transaction())
                })
            })
            .connect_with(options)
            .await?;
        Ok(Store {
            pool,
            backend,
            defaults: Arc::new(ServerSettings::defaults("")),
            write_gate: Default::default(),
            group: Default::default(),
            url: DatabaseUrl(url.as_str().into()),
            kept: Default::default(),
        })
    }

    /// The settings new servers start with (from the operator's
    /// configuration); `server_id` is ignored. Servers already stored keep
    /// theirs.
    pub fn with_server_defaults(mut self, defaults: ServerSettings) -> Store {
        self.defaults = Arc::new(defaults);
        self
    }

    /// How many migrations the database has applied (0 for a fresh one).
    pub async fn applied_migrations(&self) -> Result<i64, StoreError> {
        let exists = match self.backend {
            Backend::Sqlite => {
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"
            }
            Backend::Postgres => {
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_name = '_sqlx_migrations' \
                 AND table_schema = current_schema()"
            }
        };
        let found: i64 = sqlx::query_scalar(exists).fetch_one(&self.pool).await?;
        if found == 0 {
            return Ok(0);
        }
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Runs the migrations embedded in the binary for this backend.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        match self.backend {
            Backend::Sqlite => {
                migrations::migrator(migrations::SQLITE)
                    .run(&self.pool)
                    .await?
            }
            Backend::Postgres => {
                migrations::migrator(migrations::POSTGRES)
                    .run(&self.pool)
                    .await?
            }
        }
        Ok(())
    }

    /// The connection pool, for tools that measure the database itself
    /// (`chessbot bench` commits its floor rows through it). The bot's own
    /// code goes through the methods of this type.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether the database answers a trivial query (`/readyz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Closes the pool, waiting for connections in use to be returned.
    pub async fn close(&self) {
        // The pool is marked closed when `close` is called, before its
        // future waits for every connection: from then on no connection is
        // kept (`hot.rs` looks under the same lock), so once the kept ones
        // are given back none can be left out for the wait to hang on.
        let closing = self.pool.close();
        self.kept.release_all();
        closing.await;
    }

    /// Begins a write transaction. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so a transaction that reads before it writes
    /// cannot fail half-way on a lock upgrade.
    ///
    /// Keep the gate until the transaction is over (declare it first:
    /// `let (_gate, mut tx) = …`, so it is dropped last).
    pub async fn begin_write(
        &self,
    ) -> Result<(WriteGate, sqlx::Transaction<'static, sqlx::Any>), StoreError> {
        let gate = self.write_gate().await;
        let tx = match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        };
        Ok((gate, tx))
    }

    /// This process's place in the queue of SQLite writers (see the field
    /// `write_gate`); nothing on PostgreSQL. Hold it while writing through
    /// [`Store::pool`] directly (`chessbot bench` does, for its floor).
    pub async fn write_gate(&self) -> WriteGate {
        match self.backend {
            Backend::Sqlite => Some(self.write_gate.clone().lock_owned().await),
            Backend::Postgres => None,
        }
    }

    /// `FOR UPDATE` where the backend has row locks (SQLite locks the whole
    /// database for the transaction instead).
    fn for_update(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE",
        }
    }
}

/// Maps a unique-constraint violation to `err`.
fn on_unique_violation(e: sqlx::Error, err: StoreError) -> StoreError {
    match &e {
        sqlx::Error::Database(db) if db.is_unique_violation() => err,
        _ => StoreError::Database(e),
    }
}

fn flag(value: bool) -> i64 {
    i64::from(value)
}
