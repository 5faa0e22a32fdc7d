//! Messages the bot's background work (the computer's moves, analysis
//! progress and results) wants posted, waiting for the adapter to take
//! them: [`Service::tick`] hands them out with the scheduler's own notices,
//! and [`Service::notices_ready`] wakes an adapter that wants them at once.
//!
//! It also counts the background tasks running, so that the console and
//! tests can wait until the bot has nothing left to do
//! ([`Service::background_idle`]).

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Mutex,
};

use tokio::sync::Notify;

use super::{Notice, Service};

#[derive(Default)]
pub(super) struct Outbox {
    notices: Mutex<Vec<Notice>>,
    ready: Notify,
    running: AtomicUsize,
    idle: Notify,
}

/// Held by a background task while it runs.
pub(super) struct Running<'a>(&'a Outbox);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Outbox {
    pub(super) fn post(&self, notice: Notice) {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(notice);
        self.ready.notify_one();
    }

    pub(super) fn take(&self) -> Vec<Notice> {
        std::mem::take(&mut *self.notices.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Service {
    /// Runs `work` on the runtime, counted as background work from now
    /// until it ends (even by a panic).
    pub(super) fn spawn_background<F>(&self, work: F)
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        self.inner.outbox.running.fetch_add(1, Ordering::AcqRel);
        let service = self.clone();
        tokio::spawn(async move {
            let _running = Running(&service.inner.outbox);
            work.await;
        });
    }

    pub(super) fn post(&self, notice: Notice) {
        self.inner.outbox.post(notice);
    }

    /// Completes when background work has posted something to
    /// [`Service::take_notices`] (an adapter's scheduler waits on this
    /// beside its one-second tick, so the computer's moves go out at once).
    pub async fn notices_ready(&self) {
        self.inner.outbox.ready.notified().await;
    }

    /// Posts `notice` as if background work had (an adapter's answer that
    /// the other adapters must also show: a move made on the web board is
    /// posted in the game's Discord channel).
    pub fn post_notice(&self, notice: Notice) {
        self.post(notice);
    }

    /// What background work has posted since the last call.
    pub fn take_notices(&self) -> Vec<Notice> {
        self.inner.outbox.take()
    }

    /// Waits until no background task (a computer's move, an analysis) is
    /// running.
    pub async fn background_idle(&self) {
        loop {
            let outbox = &self.inner.outbox;
            let idle = outbox.idle.notified();
            tokio::pin!(idle);
            idle.as_mut().enable();
            if outbox.running.load(Ordering::Acquire) == 0 {
                return;
            }
            idle.await;
        }
    }
}
