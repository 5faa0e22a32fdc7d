//! `chessbot bench --with-analysis`: one game analysis running beside the
//! timed moves — the engine searching one position after another at the
//! analysis depth, as `/analyze` does — so the figures show what a running
//! analysis costs the move path (on a 2-core machine the engine takes one
//! core).

use std::sync::{
    atomic::{AtomicBool, AtomicU64, Ordering},
    Arc,
};

use crate::{
    chess::Game,
    engine::{Engine, EngineOptions, ANALYSIS_SKILL},
};

/// A running analysis load.
pub struct AnalysisLoad {
    stop: Arc<AtomicBool>,
    positions: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

/// The moves whose positions are analysed, over and over.
const LINE: [&str; 20] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7",
];

/// Starts the engine and its loop.
pub async fn start() -> anyhow::Result<AnalysisLoad> {
    let engine = Engine::start(None, 1, 16, 1, EngineOptions::default())
        .await
        .ok_or_else(|| {
            anyhow::anyhow!("--with-analysis needs Stockfish (apt-get install stockfish)")
        })?;
    let game = Game::replay(None, LINE.iter().map(|m| (*m, 0)))?;
    let mut fens = Vec::new();
    let mut position = game.initial_position().clone();
    for ply in game.plies() {
        fens.push(
            shakmaty::fen::Fen::from_position(&position, shakmaty::EnPassantMode::Legal)
                .to_string(),
        );
        shakmaty::Position::play_unchecked(&mut position, ply.mv);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let positions = Arc::new(AtomicU64::new(0));
    let limits = engine.options.analysis.limits();
    let task = {
        let (stop, positions) = (stop.clone(), positions.clone());
        tokio::spawn(async move {
            for fen in fens.iter().cycle() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if engine
                    .pool
                    .search(fen, ANALYSIS_SKILL, &limits)
                    .await
                    .is_err()
                {
                    break;
                }
                positions.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    Ok(AnalysisLoad {
        stop,
        positions,
        task,
    })
}

impl AnalysisLoad {
    /// Stops the loop; returns how many positions it analysed.
    pub async fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.task.await;
        self.positions.load(Ordering::Relaxed)
    }
}
