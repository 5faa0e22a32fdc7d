//! The floor: the least work any bot must do per move, measured on the same
//! machine and database as the service: check one move with shakmaty (parse
//! the SAN, find it among the legal moves, play it), render one board with
//! the [`Renderer`] (same frame contents the service draws), and commit one
//! move row (one `INSERT`, its own transaction). Nothing else: no lookups,
//! no locks, no version check, no reply; and each step waits for the one
//! before.

use std::{
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Instant,
};

use anyhow::Context;
use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
use shakmaty::{san::San, Chess, Position};

use super::report::Samples;
use crate::{
    render::{Frame, PlayerLine, PlayersBar, Renderer},
    store::{Backend, Store},
};

/// A position and a legal move in it, as the player would type it.
#[derive(Clone)]
struct Case {
    position: Chess,
    san: String,
}

/// What the floor costs, per part and as a whole.
#[derive(Default)]
pub struct FloorOutcome {
    pub validate: Samples,
    pub render: Samples,
    pub commit: Samples,
    /// validate + render + commit, back to back.
    pub whole: Samples,
    /// Wall time of the run(s).
    pub elapsed: std::time::Duration,
}

impl FloorOutcome {
    pub fn ops_per_sec(&self) -> f64 {
        self.whole.len() as f64 / self.elapsed.as_secs_f64()
    }

    /// Adds another run's figures to these.
    pub fn extend(&mut self, other: FloorOutcome) {
        self.validate.extend(other.validate);
        self.render.extend(other.render);
        self.commit.extend(other.commit);
        self.whole.extend(other.whole);
        self.elapsed += other.elapsed;
    }
}

/// Prepares the floor's table and sample positions.
pub struct Floor {
    store: Store,
    renderer: Arc<Renderer>,
    cases: Vec<Case>,
}

const TABLE: &str = "bench_floor_moves";

impl Floor {
    pub async fn new(store: Store, renderer: Arc<Renderer>, seed: u64) -> anyhow::Result<Floor> {
        // The same shape as `moves`, without the foreign key (the floor
        // writes rows for games that do not exist).
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS bench_floor_moves (game_id BIGINT NOT NULL, \
             ply BIGINT NOT NULL, uci TEXT NOT NULL, san TEXT NOT NULL, played_ms BIGINT NOT NULL, \
             PRIMARY KEY (game_id, ply))",
        )
        .execute(store.pool())
        .await
        .context("creating the floor table")?;
        Ok(Floor {
            store,
            renderer,
            cases: sample_cases(seed, 2_000),
        })
    }

    /// Runs `ops` floor moves, `concurrency` at a time.
    pub async fn run(&self, ops: usize, concurrency: usize) -> anyhow::Result<FloorOutcome> {
        let cases = Arc::new(self.cases.clone());
        let issued = Arc::new(AtomicUsize::new(0));
        let started = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..concurrency.max(1) {
            let (cases, issued) = (cases.clone(), issued.clone());
            let (store, renderer) = (self.store.clone(), self.renderer.clone());
            tasks.push(tokio::spawn(async move {
                let mut out = FloorOutcome::default();
                loop {
                    let i = issued.fetch_add(1, Ordering::Relaxed);
                    if i >= ops {
                        break;
                    }
                    let case = &cases[i % cases.len()];
                    floor_move(&store, &renderer, case, i, &mut out).await?;
                }
                anyhow::Ok(out)
            }));
        }
        let mut total = FloorOutcome::default();
        for task in tasks {
            total.extend(task.await.context("floor worker panicked")??);
        }
        total.elapsed = started.elapsed();
        sqlx::query("DELETE FROM bench_floor_moves")
            .execute(self.store.pool())
            .await?;
        Ok(total)
    }

    /// Drops the floor's table.
    pub async fn finish(self) -> anyhow::Result<()> {
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP TABLE {TABLE}")))
            .execute(self.store.pool())
            .await?;
        Ok(())
    }
}

async fn floor_move(
    store: &Store,
    renderer: &Renderer,
    case: &Case,
    i: usize,
    out: &mut FloorOutcome,
) -> anyhow::Result<()> {
    let whole = Instant::now();

    let t = Instant::now();
    let san: San = case.san.parse().context("floor SAN")?;
    let mv = san.to_move(&case.position).context("floor move")?;
    let mut position = case.position.clone();
    position.play_unchecked(mv);
    out.validate.push(t.elapsed());

    let t = Instant::now();
    let mut frame = Frame::from_position(&position);
    frame.orientation = position.turn();
    frame.last_move = Some((mv.from().unwrap_or(mv.to()), mv.to()));
    frame.players = Some(PlayersBar {
        top: PlayerLine {
            name: "w1".to_owned(),
            detail: "0".to_owned(),
        },
        bottom: PlayerLine {
            name: "b1".to_owned(),
            detail: "0".to_owned(),
        },
    });
    let png = renderer.render_png(&frame).context("floor render")?;
    std::hint::black_box(png);
    out.render.push(t.elapsed());

    let t = Instant::now();
    let uci = mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
    // The least a commit can be: one statement, its own transaction, one
    // round trip; queued behind this process's other writers as the store's
    // own writes are, and on PostgreSQL on a connection kept between
    // statements as the store's own moves are (`store/hot.rs`).
    let _gate = store.write_gate().await;
    let insert = sqlx::query(
        "INSERT INTO bench_floor_moves (game_id, ply, uci, san, played_ms) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(i64::try_from(i).unwrap_or(i64::MAX))
    .bind(1_i64)
    .bind(uci)
    .bind(case.san.clone())
    .bind(0_i64);
    match store.backend() {
        Backend::Postgres => {
            let mut conn = store.hot_connection().await?;
            insert.execute(conn.conn()).await?;
            conn.finished();
        }
        Backend::Sqlite => {
            insert.execute(store.pool()).await?;
        }
    }
    out.commit.push(t.elapsed());

    out.whole.push(whole.elapsed());
    Ok(())
}

/// Positions from random games (0–80 plies in), each with a random legal
/// move: the mix a running bot sees.
fn sample_cases(seed: u64, n: usize) -> Vec<Case> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut cases = Vec::with_capacity(n);
    while cases.len() < n {
        let mut position = Chess::default();
        let length = rand::Rng::gen_range(&mut rng, 0..80);
        for _ in 0..length {
            let moves = position.legal_moves();
            let Some(mv) = moves.choose(&mut rng).cloned() else {
                break;
            };
            position.play_unchecked(mv);
        }
        let moves = position.legal_moves();
        if let Some(mv) = moves.choose(&mut rng) {
            cases.push(Case {
                san: San::from_move(&position, *mv).to_string(),
                position,
            });
        }
    }
    cases
}
