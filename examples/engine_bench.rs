//! Engine figures: positions analysed per second at the default analysis
//! depth, and the computer's move latency at each level (median and
//! slowest over the positions of a game).
//!
//! ```text
//! cargo run --release --example engine_bench [-- POSITIONS]
//! ```

use std::time::Instant;

use chessbot::{
    chess::Game,
    engine::{AnalysisLimits, Engine, EngineOptions, Level, ANALYSIS_SKILL},
};

/// A middlegame-heavy line (the Ruy Lopez, Breyer), 40 plies.
const LINE: [&str; 40] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7", "b1d2", "c8b7", "b3c2", "f8e8",
    "d2f1", "e7f8", "f1g3", "g7g6", "c1g5", "h7h6", "g5d2", "f8g7", "a2a4", "c7c5", "d4d5", "c5c4",
    "b2b4", "c4b3", "c2b3", "d7c5",
];

fn fens(n: usize) -> Vec<String> {
    let game = Game::replay(None, LINE.iter().map(|m| (*m, 0))).expect("the line is legal");
    let mut position = game.initial_position().clone();
    let mut out = Vec::new();
    for ply in game.plies().iter().take(n) {
        out.push(
            shakmaty::fen::Fen::from_position(&position, shakmaty::EnPassantMode::Legal)
                .to_string(),
        );
        shakmaty::Position::play_unchecked(&mut position, ply.mv);
    }
    out
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40)
        .clamp(1, LINE.len());
    let engine = Engine::start(None, 1, 16, 1, EngineOptions::default())
        .await
        .ok_or_else(|| anyhow::anyhow!("no Stockfish found (apt-get install stockfish)"))?;
    let positions = fens(n);
    println!(
        "engine: {} (pool 1, Hash 16 MB, 1 thread), {} positions, {} cores",
        engine.pool.settings().path.display(),
        positions.len(),
        std::thread::available_parallelism().map_or(0, |c| c.get())
    );

    let analysis = AnalysisLimits::default();
    let limits = analysis.limits();
    let started = Instant::now();
    let mut depths = Vec::new();
    for fen in &positions {
        let found = engine.pool.search(fen, ANALYSIS_SKILL, &limits).await?;
        depths.push(found.depth);
    }
    let secs = started.elapsed().as_secs_f64();
    depths.sort_unstable();
    println!(
        "analysis at depth {} (≤ {} nodes, ≤ {} ms): {:.1} positions/s ({:.0} ms each; depth reached: median {})",
        analysis.depth,
        analysis.nodes,
        analysis.movetime_ms,
        positions.len() as f64 / secs,
        secs * 1000.0 / positions.len() as f64,
        depths[depths.len() / 2]
    );

    println!("computer move latency (ms, over the same positions):");
    for level in (1..=8).filter_map(Level::new) {
        let mut times = Vec::new();
        for fen in &positions {
            let t = Instant::now();
            engine
                .pool
                .search(fen, level.skill(), &level.limits())
                .await?;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "  level {}: median {:>6.1}  p90 {:>6.1}  max {:>6.1}  (limit {} ms)",
            level.number(),
            quantile(&times, 0.5),
            quantile(&times, 0.9),
            times[times.len() - 1],
            level.limits().movetime_ms
        );
    }
    Ok(())
}
