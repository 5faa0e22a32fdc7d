//! A small pool of engine processes. Each search borrows one engine (the
//! pool's size bounds how many search at once: on a 2-core machine one is
//! right), sets the options it needs, and gives it back. An engine that
//! fails — crashed, hung past its bound, or talking nonsense — is dropped
//! (which kills it) and the search is retried once on a fresh one.
//!
//! Two priorities: work run inside [`in_background`] (mining a server's
//! games for puzzles) takes an engine only when one is free and nobody else
//! is waiting for one, so it never queues ahead of a move or an analysis a
//! user asked for. A search already running is not interrupted: a request
//! arriving meanwhile waits for that one search at most, which the
//! background's own limits keep short.

use std::{
    path::PathBuf,
    sync::{
        atomic::{AtomicU64, Ordering},
        Mutex,
    },
};

use futures_util::future::BoxFuture;
use shakmaty::CastlingMode;
use tokio::sync::{Notify, Semaphore, SemaphorePermit};

use super::uci::{Limits, PvLine, SearchResult, UciEngine, UciError};

/// How to run the engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    pub path: PathBuf,
    /// How many engines may search at once.
    pub pool_size: usize,
    /// Each engine's `Hash`, in MB.
    pub hash_mb: u32,
    /// Each engine's `Threads`.
    pub threads: u32,
}

/// The engines.
pub struct EnginePool {
    settings: EngineSettings,
    permits: Semaphore,
    idle: Mutex<Vec<UciEngine>>,
    /// Process ids of every engine alive, idle or searching.
    pids: Mutex<Vec<u32>>,
    restarts: AtomicU64,
    searches: AtomicU64,
    /// Requests (not background work) waiting for an engine.
    waiting: std::sync::atomic::AtomicUsize,
    /// Signalled whenever an engine is given back.
    released: Notify,
}

tokio::task_local! {
    static BACKGROUND: bool;
}

/// Runs `work` at the pool's lowest priority: each of its searches waits
/// until an engine is free and no other request is waiting.
pub async fn in_background<F: std::future::Future>(work: F) -> F::Output {
    BACKGROUND.scope(true, work).await
}

/// One request waiting for an engine, for as long as it lives.
struct Waiting<'a>(&'a std::sync::atomic::AtomicUsize);

impl<'a> Waiting<'a> {
    fn new(count: &'a std::sync::atomic::AtomicUsize) -> Waiting<'a> {
        count.fetch_add(1, Ordering::AcqRel);
        Waiting(count)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

fn is_background() -> bool {
    BACKGROUND.try_with(|b| *b).unwrap_or(false)
}

impl EnginePool {
    /// Starts one engine to check that it works, and keeps it.
    pub async fn start(settings: EngineSettings) -> Result<EnginePool, UciError> {
        let pool = EnginePool {
            permits: Semaphore::new(settings.pool_size.max(1)),
            settings,
            idle: Mutex::new(Vec::new()),
            pids: Mutex::new(Vec::new()),
            restarts: AtomicU64::new(0),
            searches: AtomicU64::new(0),
            waiting: std::sync::atomic::AtomicUsize::new(0),
            released: Notify::new(),
        };
        let engine = pool.spawn().await?;
        pool.give_back(engine);
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

    /// Runs `job` on an engine borrowed from the pool (waiting for a
    /// permit). A failed engine is dropped (which kills it) and `job` tried
    /// once more on a fresh one.
    async fn with_engine<T>(
        &self,
        job: impl for<'e> Fn(&'e mut UciEngine) -> BoxFuture<'e, Result<T, UciError>>,
    ) -> Result<T, UciError> {
        let permit = if is_background() {
            self.background_permit().await?
        } else {
            // Counted while waiting, even if the caller gives up (a guard).
            let _waiting = Waiting::new(&self.waiting);
            self.permits
                .acquire()
                .await
                .map_err(|_| UciError::Protocol("engine pool closed".to_owned()))?
        };
        let result = self.run_job(job).await;
        drop(permit);
        self.released.notify_waiters();
        result
    }

    /// An engine for background work: only once one is free and no request
    /// is waiting (looked at again each time an engine is given back).
    async fn background_permit(&self) -> Result<SemaphorePermit<'_>, UciError> {
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            released.as_mut().enable();
            if self.waiting.load(Ordering::Acquire) == 0 {
                match self.permits.try_acquire() {
                    Ok(permit) => return Ok(permit),
                    Err(tokio::sync::TryAcquireError::Closed) => {
                        return Err(UciError::Protocol("engine pool closed".to_owned()))
                    }
                    Err(tokio::sync::TryAcquireError::NoPermits) => {}
                }
            }
            released.await;
        }
    }

    async fn run_job<T>(
        &self,
        job: impl for<'e> Fn(&'e mut UciEngine) -> BoxFuture<'e, Result<T, UciError>>,
    ) -> Result<T, UciError> {
        self.searches.fetch_add(1, Ordering::Relaxed);
        let mut last = None;
        for _ in 0..2 {
            let taken = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let mut engine = match taken {
                Some(engine) => engine,
                None => self.spawn().await?,
            };
            match job(&mut engine).await {
                Ok(found) => {
                    self.give_back(engine);
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

    /// Process ids of the engines alive now.
    pub fn pids(&self) -> Vec<u32> {
        self.pids.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// How many engines were replaced after failing.
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }

    /// How many searches were asked for.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }

    async fn spawn(&self) -> Result<UciEngine, UciError> {
        let options = [
            ("Hash", self.settings.hash_mb.max(1).to_string()),
            ("Threads", self.settings.threads.max(1).to_string()),
        ];
        let engine = UciEngine::start(&self.settings.path, &options).await?;
        if let Some(pid) = engine.pid() {
            self.pids
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(pid);
        }
        Ok(engine)
    }

    fn give_back(&self, engine: UciEngine) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
    }

    fn forget(&self, engine: &UciEngine) {
        if let Some(pid) = engine.pid() {
            self.pids
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|p| *p != pid);
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
