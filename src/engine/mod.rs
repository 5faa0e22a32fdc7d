//! The chess engine: Stockfish spoken to over UCI as child processes, for
//! playing the computer and for analysing finished games.
//!
//! - [`uci`]: a thin async UCI client of our own (why not a crate: see
//!   there), every search bounded by time and nodes.
//! - [`pool`]: a few engine processes (configured size, `Hash`, `Threads`);
//!   a crashed or hung engine is killed and replaced.
//! - [`cpu`]: CPU time of the engine processes and ours (`/proc`).
//! - [`level`]: the computer's levels 1–8, shaped like lichess's.
//! - [`analysis`] and [`score`]: the analysis maths as pure functions
//!   (win chances, accuracy, inaccuracy / mistake / blunder), lichess's
//!   published method.
//!
//! The engine is optional: [`find_engine`] looks for it, and without one
//! the service answers engine commands with a clear message while
//! everything else works. lichess's variants other than Chess960 need
//! Fairy-Stockfish (Debian's `fairy-stockfish`), found the same way by
//! [`find_fairy_engine`] and told the variant (`UCI_Variant`) before each
//! search.

pub mod analysis;
pub mod cpu;
pub mod level;
pub mod pool;
pub mod puzzles;
pub mod score;
pub mod uci;

use std::path::{Path, PathBuf};

pub use level::Level;
pub use pool::{in_background, EnginePool, EngineSettings};
pub use score::Score;
pub use uci::{Limits, PvLine, SearchResult, UciError};

/// Where Debian's `stockfish` package puts the engine (not on root's PATH).
pub const DEBIAN_PATH: &str = "/usr/games/stockfish";

/// Where Debian's `fairy-stockfish` package puts Fairy-Stockfish.
pub const FAIRY_DEBIAN_PATH: &str = "/usr/games/fairy-stockfish";

/// The engine to run: the configured path if it is a file, else
/// `stockfish` on `PATH`, else [`DEBIAN_PATH`]. `None`: no engine.
pub fn find_engine(configured: Option<&Path>) -> Option<PathBuf> {
    find_named(configured, "stockfish", DEBIAN_PATH)
}

/// Fairy-Stockfish, for lichess's variants: the configured path if it is a
/// file, else `fairy-stockfish` on `PATH`, else [`FAIRY_DEBIAN_PATH`].
pub fn find_fairy_engine(configured: Option<&Path>) -> Option<PathBuf> {
    find_named(configured, "fairy-stockfish", FAIRY_DEBIAN_PATH)
}

fn find_named(configured: Option<&Path>, name: &str, debian: &str) -> Option<PathBuf> {
    if let Some(path) = configured {
        return path.is_file().then(|| path.to_owned());
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let debian = PathBuf::from(debian);
        debian.is_file().then_some(debian)
    })
}

/// How deep a finished game is analysed, per position. Depth 14 is what
/// the 2-core machine does in about a tenth of a second; the node and time
/// limits bound a position whatever the machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisLimits {
    pub depth: u32,
    pub nodes: u64,
    pub movetime_ms: u64,
}

impl Default for AnalysisLimits {
    fn default() -> AnalysisLimits {
        AnalysisLimits {
            depth: 14,
            nodes: 1_000_000,
            movetime_ms: 3_000,
        }
    }
}

impl AnalysisLimits {
    pub fn limits(&self) -> Limits {
        Limits {
            movetime_ms: self.movetime_ms,
            nodes: self.nodes,
            depth: Some(self.depth),
        }
    }
}

/// What the bot does with its engine, beyond the pool itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// The computer resigns lost positions from this level up (`None`:
    /// never).
    pub resign_from_level: Option<u8>,
    /// How deep each position of an analysed game is searched.
    pub analysis: AnalysisLimits,
    /// Analyses running at once per server (the pool bounds the total).
    pub analyses_per_server: usize,
    /// Analyses queued or running per server; more are refused.
    pub analysis_queue_per_server: usize,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            resign_from_level: Some(5),
            analysis: AnalysisLimits::default(),
            analyses_per_server: 1,
            analysis_queue_per_server: 5,
        }
    }
}

/// The engine as the service uses it.
pub struct Engine {
    pub pool: EnginePool,
    pub options: EngineOptions,
}

/// Full strength, for analysis.
pub const ANALYSIS_SKILL: u8 = 20;

impl Engine {
    /// Finds and starts the engine as configured; `None` (logged once,
    /// here) when there is none or it does not start: the bot then runs
    /// without engine features.
    pub async fn start(
        configured_path: Option<&Path>,
        pool_size: usize,
        hash_mb: u32,
        threads: u32,
        options: EngineOptions,
    ) -> Option<Engine> {
        let found = find_engine(configured_path);
        Engine::start_found(found, configured_path, pool_size, hash_mb, threads, options).await
    }

    /// [`Engine::start`] for Fairy-Stockfish (lichess's variants);
    /// `None`, logged, when it is not installed.
    pub async fn start_fairy(
        configured_path: Option<&Path>,
        pool_size: usize,
        hash_mb: u32,
        threads: u32,
        options: EngineOptions,
    ) -> Option<Engine> {
        let Some(path) = find_fairy_engine(configured_path) else {
            tracing::info!("no Fairy-Stockfish found (fairy-stockfish on PATH or {FAIRY_DEBIAN_PATH}): the computer does not play or analyse lichess's variants");
            return None;
        };
        Engine::start_found(
            Some(path),
            configured_path,
            pool_size,
            hash_mb,
            threads,
            options,
        )
        .await
    }

    async fn start_found(
        found: Option<PathBuf>,
        configured_path: Option<&Path>,
        pool_size: usize,
        hash_mb: u32,
        threads: u32,
        options: EngineOptions,
    ) -> Option<Engine> {
        let Some(path) = found else {
            match configured_path {
                Some(p) => tracing::warn!(path = %p.display(), "no chess engine at the configured engine_path: playing the computer and analysis are off"),
                None => tracing::warn!("no chess engine found (stockfish on PATH or {DEBIAN_PATH}): playing the computer and analysis are off"),
            }
            return None;
        };
        let settings = EngineSettings {
            path: path.clone(),
            pool_size,
            hash_mb,
            threads,
        };
        match EnginePool::start(settings).await {
            Ok(pool) => {
                tracing::info!(path = %path.display(), pool_size, "chess engine ready");
                Some(Engine { pool, options })
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "the chess engine does not start: playing the computer and analysis are off");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_path_that_is_not_a_file_means_no_engine() {
        assert_eq!(find_engine(Some(Path::new("/nowhere/stockfish"))), None);
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(find_engine(Some(dir.path())), None);
    }
}
