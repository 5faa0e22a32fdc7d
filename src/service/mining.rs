//! Background mining (`/settings puzzles:on`): every finished game of such
//! a server is searched for puzzles ([`crate::engine::puzzles::mine_game`],
//! the same rules as `chessbot puzzles import`) and what it gives joins the
//! server's pool. It runs as the engine pool's background work
//! ([`crate::engine::in_background`]): on an engine process of its own at
//! the operating system's lowest priority, with short node-bound searches
//! ([`PuzzleLimits::background`]), so moves, moves against the computer and
//! analyses people ask for never wait for it and get the CPU first.
//!
//! Durable without a timer: the store's queue is the finished games without
//! a mining row (`store/mining.rs`); the scheduler's tick starts one miner
//! in this process when there is work, and it goes on until there is none.
//! A game interrupted by a stop is mined again from its start.

use std::sync::atomic::Ordering;

use super::{analyze::chess_positions, Service, ServiceError};
use crate::chess::Variant;
use crate::{
    engine::{
        in_background,
        puzzles::{mine_game, PuzzleLimits},
    },
    store::NewPuzzle,
};

impl Service {
    /// The scheduler's part: starts the miner if there is a game to mine
    /// and it is not running.
    pub(super) async fn mining_tick(&self) -> Result<(), ServiceError> {
        if self.engine().is_none() || self.engine_state().mining.load(Ordering::Acquire) {
            return Ok(());
        }
        if self.store().next_game_to_mine().await?.is_none() {
            return Ok(());
        }
        if self.engine_state().mining.swap(true, Ordering::AcqRel) {
            return Ok(());
        }
        let service = self.clone();
        self.spawn_background(async move {
            if let Err(e) = service.mine_until_done().await {
                tracing::error!(error = %e, "mining games for puzzles stopped");
            }
            service
                .engine_state()
                .mining
                .store(false, Ordering::Release);
        });
        Ok(())
    }

    async fn mine_until_done(&self) -> Result<(), ServiceError> {
        while let Some((game_id, server)) = self.store().next_game_to_mine().await? {
            let found = self.mine_one(game_id).await?;
            let source = format!("game:{game_id}");
            let puzzles: Vec<NewPuzzle> =
                found.iter().map(|f| NewPuzzle::found(f, &source)).collect();
            let recorded = self
                .store()
                .record_mined_game(game_id, &server, &puzzles, self.now_ms())
                .await?;
            tracing::info!(
                game_id,
                server,
                found = puzzles.len(),
                recorded,
                "game mined for puzzles"
            );
        }
        Ok(())
    }

    /// The puzzles of game `game_id`, searched at the lowest priority.
    async fn mine_one(&self, game_id: i64) -> Result<Vec<crate::puzzle::Found>, ServiceError> {
        let engine = self.require_engine()?;
        let Some(record) = self.store().game(game_id).await? else {
            return Ok(Vec::new());
        };
        let session = self.load(record).await?;
        if session.game.variant() != Variant::Standard {
            // Puzzles are standard chess (the pool, the file format and the
            // solving path read positions with standard castling).
            return Ok(Vec::new());
        }
        let positions = chess_positions(&session.game);
        in_background(mine_game(
            &engine.pool,
            &positions,
            &PuzzleLimits::background(),
        ))
        .await
        .map_err(|e| ServiceError::Internal(format!("engine: {e}")))
    }
}
