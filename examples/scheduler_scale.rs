//! How the scheduler scales with pending deadlines: stores N active
//! correspondence games (default 100,000) with deadlines spread over two
//! weeks, then measures opening the store, start-up recovery, an idle tick,
//! a tick that fires 1,000 due games, and the process's memory.
//!
//! `cargo run --release --example scheduler_scale -- 100000`

use std::{sync::Arc, time::Instant};

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::Service,
    store::Store,
};
use sqlx::sqlite::SqlitePoolOptions;

const START_MS: i64 = 1_767_268_800_000;
const DAY_MS: i64 = 86_400_000;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let games: i64 = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(100_000);
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite:{}", dir.path().join("scale.db").display());
    Store::open(&url).await?.close().await;

    // Bulk-load the games straight into the schema the store created.
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect(&format!("{url}?mode=rwc"))
        .await?;
    let started = Instant::now();
    let mut tx = pool.begin().await?;
    sqlx::query("INSERT INTO servers (id) VALUES ('guild')")
        .execute(&mut *tx)
        .await?;
    for i in 0..games {
        // Deadlines from 1 hour to 14 days ahead; a few already due.
        let deadline = START_MS - 1_000 + (i * 14 * DAY_MS) / games;
        // The next reminder still to come: 24 h before, else 1 h before.
        let remind = [deadline - DAY_MS, deadline - DAY_MS / 24]
            .into_iter()
            .find(|at| *at > START_MS);
        sqlx::query(
            "INSERT INTO games (server_id, home_channel_id, channel_id, white_id, black_id, rated, \
             time_control, created_ms, deadline_ms, next_reminder_ms, wake_ms) \
             VALUES ('guild', 'lobby', $1, $2, $3, 1, '14d', $4, $5, $6, $7)",
        )
        .bind(format!("thread-{i}"))
        .bind(format!("w{}", i % 5000))
        .bind(format!("b{}", i % 4999))
        .bind(START_MS - 13 * DAY_MS)
        .bind(deadline)
        .bind(remind)
        .bind(remind.unwrap_or(deadline).min(deadline))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    pool.close().await;
    println!(
        "stored {games} active games in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let rss_before = rss_kib();
    let t = Instant::now();
    let store = Store::open(&url).await?;
    let open_ms = t.elapsed().as_secs_f64() * 1e3;
    let clock = ManualClock::new(START_MS);
    let shared: Arc<dyn Clock> = Arc::new(clock.clone());
    let service = Service::new(
        store,
        Arc::new(Renderer::new(RenderConfig::default())?),
        shared,
    );
    let t = Instant::now();
    service.startup().await;
    let startup_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let next = service.next_event_ms().await;
    let next_ms = t.elapsed().as_secs_f64() * 1e3;
    // Nothing due yet except the few games whose deadline just passed.
    let t = Instant::now();
    let first = service.tick().await.len();
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let idle = service.tick().await.len();
    let idle_ms = t.elapsed().as_secs_f64() * 1e3;
    println!("open store + migrations: {open_ms:.1} ms");
    println!("start-up recovery: {startup_ms:.1} ms");
    println!(
        "next event lookup: {next_ms:.2} ms (next at {:?})",
        next.map(|n| n - START_MS)
    );
    println!("first tick: {first_ms:.1} ms ({first} notices)");
    println!("idle tick: {idle_ms:.2} ms ({idle} notices)");

    // Move time so that about 1,000 deadlines fall due at once.
    let step = 1_000 * 14 * DAY_MS / games;
    clock.set(START_MS + step);
    let t = Instant::now();
    let mut fired = 0;
    loop {
        let n = service.tick().await.len();
        if n == 0 {
            break;
        }
        fired += n;
    }
    let burst_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "{fired} notices (timeouts and reminders) in {burst_ms:.0} ms: {:.2} ms each",
        burst_ms / fired.max(1) as f64
    );
    println!(
        "memory: {} MiB resident after start-up; the scheduler keeps no per-deadline state",
        rss_before.max(rss_kib()) / 1024
    );
    Ok(())
}
