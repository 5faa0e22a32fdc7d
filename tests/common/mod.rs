//! Throw-away databases for the store tests: a SQLite file in a temp folder,
//! or a freshly created PostgreSQL database (from `TEST_POSTGRES_URL`) that is
//! dropped again when the test ends, even when it fails.
//!
//! Without `TEST_POSTGRES_URL` the PostgreSQL variants say plainly that they
//! did not run, and pass; with it set but unreachable they fail.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::{
    io::Write,
    str::FromStr,
    sync::{
        atomic::{AtomicU32, Ordering},
        Once,
    },
    time::{SystemTime, UNIX_EPOCH},
};

use sqlx::{postgres::PgConnectOptions, ConnectOptions, Connection, Executor};

/// The variable naming the PostgreSQL server the suite may create databases on.
pub const PG_VAR: &str = "TEST_POSTGRES_URL";

/// A database for one test.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    /// `(server URL, database name)` of a PostgreSQL database to drop.
    postgres: Option<(String, String)>,
}

impl TestDb {
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite:{}", dir.path().join("chessbot.db").display());
        TestDb {
            url,
            _dir: Some(dir),
            postgres: None,
        }
    }

    /// A new, empty PostgreSQL database, or `None` when `TEST_POSTGRES_URL`
    /// is not set. Panics when it is set but the server cannot be used.
    pub async fn postgres(test: &str) -> Option<TestDb> {
        let Some(server) = std::env::var(PG_VAR).ok().filter(|v| !v.trim().is_empty()) else {
            not_run_notice();
            eprintln!("{test}: PostgreSQL variant NOT RUN ({PG_VAR} is not set)");
            return None;
        };
        let name = unique_name();
        let mut admin = admin_connection(&server).await;
        admin
            .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .await
            .unwrap_or_else(|e| panic!("{PG_VAR}: cannot create database {name}: {e}"));
        let _ = admin.close().await;
        Some(TestDb {
            url: with_database(&server, &name),
            _dir: None,
            postgres: Some((server, name)),
        })
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((server, name)) = self.postgres.take() else {
            return;
        };
        // Drop may run inside a runtime (or while unwinding from a failed
        // assertion): do the async clean-up on a thread of its own.
        let done = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async {
                let mut admin = admin_connection(&server).await;
                // FORCE: pools of the finished test may still hold connections.
                let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                if let Err(e) = admin.execute(sqlx::AssertSqlSafe(sql)).await {
                    eprintln!("could not drop test database {name}: {e}");
                }
                let _ = admin.close().await;
            });
        })
        .join();
        if done.is_err() {
            eprintln!("could not drop a test database");
        }
    }
}

async fn admin_connection(server: &str) -> sqlx::PgConnection {
    let options = PgConnectOptions::from_str(server)
        .unwrap_or_else(|e| panic!("{PG_VAR} is not a PostgreSQL URL: {e}"));
    options.connect().await.unwrap_or_else(|e| {
        panic!(
            "{PG_VAR} is set but PostgreSQL cannot be reached ({e}). Start the server or unset \
             {PG_VAR} to run the SQLite suite only."
        )
    })
}

/// `chessbot_test_<pid>_<time>_<n>`: unique across parallel test binaries.
fn unique_name() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "chessbot_test_{}_{nanos}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// The server URL with its database replaced by `name`.
pub fn with_database(server: &str, name: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (server, None),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// Says once per test binary, past the test harness's output capture, that
/// the PostgreSQL variants were skipped.
fn not_run_notice() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "\n*** PostgreSQL tests NOT RUN: {PG_VAR} is not set (only SQLite was tested). \
             Set {PG_VAR}=postgres://USER@HOST:5432/DB to run them. ***\n"
        );
    });
}

/// Fails the test if the stored data breaks a rule that PostgreSQL's schema
/// does not check itself (`Store::integrity_faults`): run after every
/// conformance test, on both databases.
pub async fn assert_integrity(store: &chessbot::store::Store) {
    let faults = store.integrity_faults().await.expect("integrity query");
    assert!(
        faults.is_empty(),
        "stored data breaks its rules: {faults:#?}"
    );
}

/// Generates `sqlite::NAME` and `postgres::NAME` tests for each store suite
/// function: the same checks on a fresh SQLite file and, when
/// `TEST_POSTGRES_URL` is set, a fresh PostgreSQL database. A suite
/// function takes the store (`conformance!(a, b)`), or the store and its
/// URL (`conformance!(with_url: a, b)`) to open a second connection. The
/// test file names `Backend` (`chessbot::store::Backend`) at its root.
/// After each, the stored data must keep its rules ([`assert_integrity`]).
#[allow(unused_macros)] // each test binary uses it or not
macro_rules! conformance {
    (with_url: $($name:ident),* $(,)?) => {
        conformance!(@suites url, $($name),*);
    };
    ($($name:ident),* $(,)?) => {
        conformance!(@suites bare, $($name),*);
    };
    (@call url, $name:ident, $store:ident, $db:ident) => {
        super::$name(&$store, &$db.url).await
    };
    (@call bare, $name:ident, $store:ident, $db:ident) => {
        super::$name(&$store).await
    };
    (@suites $kind:ident, $($name:ident),*) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let db = crate::common::TestDb::sqlite();
                    let store = chessbot::store::Store::open(&db.url).await.unwrap();
                    assert_eq!(store.backend(), chessbot::store::Backend::Sqlite);
                    conformance!(@call $kind, $name, store, db);
                    crate::common::assert_integrity(&store).await;
                    store.close().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(db) = crate::common::TestDb::postgres(stringify!($name)).await else {
                        return;
                    };
                    let store = chessbot::store::Store::open(&db.url).await.unwrap();
                    assert_eq!(store.backend(), chessbot::store::Backend::Postgres);
                    conformance!(@call $kind, $name, store, db);
                    crate::common::assert_integrity(&store).await;
                    store.close().await;
                }
            )*
        }
    };
}
