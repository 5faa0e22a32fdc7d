//! A small pool of engine processes. Each search borrows one engine (the
//! pool's size bounds how many search at once: on a 2-core machine one is
//! right), sets the options it needs, and gives it back. An engine that
//! fails — crashed, hung past its bound, or talking nonsense — is dropped
//! (which kills it) and the search is retried once on a fresh one.
//!
//! Work run inside [`in_background`] (mining a server's games for puzzles)
//! searches on an engine of its own, one search at a time, whose process
//! runs at the operating system's lowest priority. It never holds an engine
//! a move or an analysis a user asked for is waiting on, and it only gets
//! the CPU time the bot and those searches leave: on a busy machine it
//! slows down instead of slowing the players.

use std::{
    path::PathBuf,
    sync::{
        atomic::{AtomicU64, Ordering},
        Mutex,
    },
};

use futures_util::future::BoxFuture;
use shakmaty::CastlingMode;
use tokio::sync::Semaphore;

use super::uci::{Limits, ProcessPriority, PvLine, SearchResult, UciEngine, UciError};

/// How to run the engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    pub path: PathBuf,
    /// How many engines may search at once for requests (the background
    /// engine comes on top).
    pub pool_size: usize,
    /// Each engine's `Hash`, in MB.
    pub hash_mb: u32,
    /// Each engine's `Threads`.
    pub threads: u32,
}

/// Whose search it is: a request's, or background work's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lane {
    Request,
    Background,
}

/// The engines of one lane: how many may search at once, and the idle ones.
struct Engines {
    permits: Semaphore,
    idle: Mutex<Vec<UciEngine>>,
}

impl Engines {
    fn new(size: usize) -> Engines {
        Engines {
            permits: Semaphore::new(size.max(1)),
            idle: Mutex::new(Vec::new()),
        }
    }

    fn take_idle(&self) -> Option<UciEngine> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()
    }

    fn give_back(&self, engine: UciEngine) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
    }
}

/// The engines.
pub struct EnginePool {
    settings: EngineSettings,
    requests: Engines,
    /// One engine at the lowest process priority, for background work.
    background: Engines,
    /// Process ids of every engine alive, idle or searching, with its lane.
    pids: Mutex<Vec<(u32, Lane)>>,
    restarts: AtomicU64,
    searches: AtomicU64,
}

tokio::task_local! {
    static BACKGROUND: bool;
}

/// Runs `work` as background work: each of its searches runs on the pool's
/// background engine, at the lowest process priority.
pub async fn in_background<F: std::future::Future>(work: F) -> F::Output {
    BACKGROUND.scope(true, work).await
}

fn lane() -> Lane {
    if BACKGROUND.try_with(|b| *b).unwrap_or(false) {
        Lane::Background
    } else {
        Lane::Request
    }
}

impl EnginePool {
    /// Starts one engine to check that it works, and keeps it.
    pub async fn start(settings: EngineSettings) -> Result<EnginePool, UciError> {
        let pool = EnginePool {
            requests: Engines::new(settings.pool_size),
            background: Engines::new(1),
            settings,
            pids: Mutex::new(Vec::new()),
            restarts: AtomicU64::new(0),
            searches: AtomicU64::new(0),
        };
        // The background engine starts when background work first asks.
        let engine = pool.spawn(Lane::Request).await?;
        pool.requests.give_back(engine);
        Ok(pool)
    }

    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// Searches `fen` (standard chess) at `skill` (Stockfish's `Skill
    /// Level`, 0..20) within `limits`. A failed engine is replaced and the
    /// search tried once more.
    pub async fn search(
        &self,
        fen: &str,
        skill: u8,
        limits: &Limits,
    ) -> Result<SearchResult, UciError> {
        self.search_in(CastlingMode::Standard, fen, skill, limits)
            .await
    }

    /// [`EnginePool::search`] of a position castled the `mode` way: in
    /// Chess960 the engine is told so (`UCI_Chess960`), reads the FEN's
    /// castling rights as Chess960 ones and writes castling as the king
    /// onto its rook, which is how the game's UCI reads it back.
    pub async fn search_in(
        &self,
        mode: CastlingMode,
        fen: &str,
        skill: u8,
        limits: &Limits,
    ) -> Result<SearchResult, UciError> {
        self.search_variant(None, mode, fen, skill, limits).await
    }

    /// [`EnginePool::search_in`] of a position of a variant that
    /// Fairy-Stockfish knows by `uci_variant` (`crazyhouse`, `3check`, …),
    /// told to it (`UCI_Variant`) before the search; `None` for chess.
    pub async fn search_variant(
        &self,
        uci_variant: Option<&str>,
        mode: CastlingMode,
        fen: &str,
        skill: u8,
        limits: &Limits,
    ) -> Result<SearchResult, UciError> {
        let chess960 = chess960_option(mode);
        self.with_engine(|engine| {
            // Owned copies: the job's future lives only as long as the
            // engine it borrows.
            let (fen, limits) = (fen.to_owned(), limits.clone());
            let uci_variant = uci_variant.map(str::to_owned);
            Box::pin(async move {
                if let Some(variant) = &uci_variant {
                    engine.set_option("UCI_Variant", variant).await?;
                }
                engine.set_option("UCI_Chess960", chess960).await?;
                engine.set_option("Skill Level", &skill.to_string()).await?;
                engine.set_option("MultiPV", "1").await?;
                engine.search(&fen, &limits).await
            })
        })
        .await
    }

    /// Searches `fen` at full strength for its `lines` best moves (UCI
    /// `MultiPV`), best first, each with its evaluation from the side to
    /// move's view: what puzzle finding needs to know whether a move is the
    /// only one. Fewer lines when the position has fewer legal moves. A
    /// failed engine is replaced and the search tried once more.
    pub async fn search_lines(
        &self,
        fen: &str,
        lines: usize,
        limits: &Limits,
    ) -> Result<Vec<PvLine>, UciError> {
        let multi_pv = lines.clamp(1, 500).to_string();
        self.with_engine(|engine| {
            let (fen, limits, multi_pv) = (fen.to_owned(), limits.clone(), multi_pv.clone());
            Box::pin(async move {
                engine
                    .set_option("Skill Level", &super::ANALYSIS_SKILL.to_string())
                    .await?;
                engine.set_option("MultiPV", &multi_pv).await?;
                engine
                    .set_option("UCI_Chess960", chess960_option(CastlingMode::Standard))
                    .await?;
                engine.search_lines(&fen, &limits).await
            })
        })
        .await
    }

    /// Runs `job` on an engine of the caller's lane (waiting for a
    /// permit). A failed engine is dropped (which kills it) and `job` tried
    /// once more on a fresh one.
    async fn with_engine<T>(
        &self,
        job: impl for<'e> Fn(&'e mut UciEngine) -> BoxFuture<'e, Result<T, UciError>>,
    ) -> Result<T, UciError> {
        let lane = lane();
        let engines = self.engines(lane);
        let _permit = engines
            .permits
            .acquire()
            .await
            .map_err(|_| UciError::Protocol("engine pool closed".to_owned()))?;
        self.searches.fetch_add(1, Ordering::Relaxed);
        let mut last = None;
        for _ in 0..2 {
            let mut engine = match engines.take_idle() {
                Some(engine) => engine,
                None => self.spawn(lane).await?,
            };
            match job(&mut engine).await {
                Ok(found) => {
                    engines.give_back(engine);
                    return Ok(found);
                }
                Err(e) => {
                    tracing::warn!(error = %e, "engine failed; starting a fresh one");
                    self.forget(&engine);
                    drop(engine);
                    self.restarts.fetch_add(1, Ordering::Relaxed);
                    last = Some(e);
                }
            }
        }
        Err(last.unwrap_or(UciError::Exited))
    }

    fn engines(&self, lane: Lane) -> &Engines {
        match lane {
            Lane::Request => &self.requests,
            Lane::Background => &self.background,
        }
    }

    /// Process ids of the engines alive now.
    pub fn pids(&self) -> Vec<u32> {
        let pids = self.pids.lock().unwrap_or_else(|e| e.into_inner());
        pids.iter().map(|(pid, _)| *pid).collect()
    }

    /// Process ids of the background engine alive now (none before
    /// background work first searched).
    pub fn background_pids(&self) -> Vec<u32> {
        let pids = self.pids.lock().unwrap_or_else(|e| e.into_inner());
        pids.iter()
            .filter(|(_, lane)| *lane == Lane::Background)
            .map(|(pid, _)| *pid)
            .collect()
    }

    /// How many engines were replaced after failing.
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }

    /// How many searches were asked for.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }

    async fn spawn(&self, lane: Lane) -> Result<UciEngine, UciError> {
        let options = [
            ("Hash", self.settings.hash_mb.max(1).to_string()),
            ("Threads", self.settings.threads.max(1).to_string()),
        ];
        let priority = match lane {
            Lane::Request => ProcessPriority::Normal,
            Lane::Background => ProcessPriority::Lowest,
        };
        let engine = UciEngine::start_at(&self.settings.path, &options, priority).await?;
        if let Some(pid) = engine.pid() {
            self.pids
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((pid, lane));
        }
        Ok(engine)
    }

    fn forget(&self, engine: &UciEngine) {
        if let Some(pid) = engine.pid() {
            self.pids
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|(p, _)| *p != pid);
        }
    }
}

/// The value of Stockfish's `UCI_Chess960` option for positions castled
/// the `mode` way (set before every search: an engine of the pool serves
/// games of both kinds, and the option is only sent when it changes).
fn chess960_option(mode: CastlingMode) -> &'static str {
    match mode {
        CastlingMode::Chess960 => "true",
        CastlingMode::Standard => "false",
    }
}
