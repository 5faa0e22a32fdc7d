//! Experiment: cost of SQLite round trips through sqlx Any.
use chessbot::store::Store;
use sqlx::Executor;
use std::time::Instant;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite:{}/x.db", dir.path().display());
    let store = Store::open(&url).await?;
    let pool = store.pool().clone();
    sqlx::query(
        "CREATE TABLE t (a BIGINT NOT NULL, b BIGINT NOT NULL, s TEXT NOT NULL, PRIMARY KEY (a,b))",
    )
    .execute(&pool)
    .await?;
    let n = 5000i64;
    let mut i = 0i64;
    let time = |name: &str, t: Instant, n: i64| {
        println!(
            "{name:40} {:8.1} us",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        )
    };
    let t = Instant::now();
    for _ in 0..n {
        sqlx::query("SELECT 1").execute(&pool).await?;
    }
    time("SELECT 1 (pool)", t, n);
    let mut conn = pool.acquire().await?;
    let t = Instant::now();
    for _ in 0..n {
        sqlx::query("SELECT 1").execute(&mut *conn).await?;
    }
    time("SELECT 1 (held conn)", t, n);
    drop(conn);
    let t = Instant::now();
    for _ in 0..n {
        i += 1;
        sqlx::query("INSERT INTO t VALUES ($1, 1, 'e2e4')")
            .bind(i)
            .execute(&pool)
            .await?;
    }
    time("autocommit INSERT", t, n);
    let t = Instant::now();
    for _ in 0..n {
        i += 1;
        let (_g, mut tx) = store.begin_write().await?;
        sqlx::query("INSERT INTO t VALUES ($1, 1, 'e2e4')")
            .bind(i)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    time("BEGIN IMMEDIATE/INSERT/COMMIT", t, n);
    let t = Instant::now();
    for _ in 0..n {
        i += 1;
        sqlx::query("BEGIN IMMEDIATE; INSERT INTO t VALUES ($1, 1, 'e2e4'); INSERT INTO t VALUES ($1, 2, 'e2e4'); COMMIT").bind(i).execute(&pool).await?;
    }
    time("one string BEGIN;2xINSERT;COMMIT", t, n);
    let t = Instant::now();
    for _ in 0..n {
        i += 1;
        let (_g, mut tx) = store.begin_write().await?;
        sqlx::query("INSERT INTO t VALUES ($1, 1, 'e2e4')")
            .bind(i)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO t VALUES ($1, 2, 'e2e4')")
            .bind(i)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO t VALUES ($1, 3, 'e2e4')")
            .bind(i)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    time("BEGIN IMMEDIATE/3xINSERT/COMMIT", t, n);
    // raw sqlite pool (not Any)
    let sp = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(4)
        .connect(&url)
        .await?;
    sp.execute("PRAGMA synchronous = NORMAL").await?;
    let t = Instant::now();
    for _ in 0..n {
        sqlx::query("SELECT 1").execute(&sp).await?;
    }
    time("SELECT 1 (native sqlite pool)", t, n);
    let t = Instant::now();
    for _ in 0..n {
        i += 1;
        sqlx::query("INSERT INTO t VALUES ($1, 1, 'e2e4')")
            .bind(i)
            .execute(&sp)
            .await?;
    }
    time("autocommit INSERT (native)", t, n);
    Ok(())
}
