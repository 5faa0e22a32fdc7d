//! Where a move's time goes: cumulative nanoseconds and counts of the stages
//! of the hot path (reading the game, validating the move, committing it,
//! rendering the board),
//! kept in relaxed atomics so measuring costs a few nanoseconds per stage.
//! `chessbot bench` reads them to print the cost breakdown.

use std::{
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

/// A stage of handling a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading the game (with its players and vacations) under its lock.
    Read,
    /// Parsing the move text and checking it against the position.
    Validate,
    /// `Store::apply`: the version-checked commit.
    Commit,
    /// Drawing the board PNG: for a move on the calling thread while its
    /// change commits, otherwise on a blocking thread.
    Render,
    /// Waiting for the drawing when the reply needs it: what of the
    /// drawing the commit did not hide.
    RenderWait,
}

const STAGES: usize = 5;

/// Running totals per stage.
#[derive(Default)]
pub(super) struct StageTimings {
    nanos: [AtomicU64; STAGES],
    counts: [AtomicU64; STAGES],
}

/// Totals read at one moment: (total nanoseconds, count) per stage.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct StageSnapshot {
    pub read: (u64, u64),
    pub validate: (u64, u64),
    pub commit: (u64, u64),
    pub render: (u64, u64),
    pub render_wait: (u64, u64),
}

impl StageSnapshot {
    /// Both snapshots' totals added.
    pub fn plus(&self, other: &StageSnapshot) -> StageSnapshot {
        let add = |a: (u64, u64), b: (u64, u64)| (a.0 + b.0, a.1 + b.1);
        StageSnapshot {
            read: add(self.read, other.read),
            validate: add(self.validate, other.validate),
            commit: add(self.commit, other.commit),
            render: add(self.render, other.render),
            render_wait: add(self.render_wait, other.render_wait),
        }
    }

    /// The change since `earlier`.
    pub fn since(&self, earlier: &StageSnapshot) -> StageSnapshot {
        let d = |a: (u64, u64), b: (u64, u64)| (a.0.saturating_sub(b.0), a.1.saturating_sub(b.1));
        StageSnapshot {
            read: d(self.read, earlier.read),
            validate: d(self.validate, earlier.validate),
            commit: d(self.commit, earlier.commit),
            render: d(self.render, earlier.render),
            render_wait: d(self.render_wait, earlier.render_wait),
        }
    }
}

impl StageTimings {
    pub fn record(&self, stage: Stage, since: Instant) {
        let nanos = u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let i = stage as usize;
        self.nanos[i].fetch_add(nanos, Ordering::Relaxed);
        self.counts[i].fetch_add(1, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> StageSnapshot {
        let read = |s: Stage| {
            let i = s as usize;
            (
                self.nanos[i].load(Ordering::Relaxed),
                self.counts[i].load(Ordering::Relaxed),
            )
        };
        StageSnapshot {
            read: read(Stage::Read),
            validate: read(Stage::Validate),
            commit: read(Stage::Commit),
            render: read(Stage::Render),
            render_wait: read(Stage::RenderWait),
        }
    }
}
