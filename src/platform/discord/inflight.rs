//! Commands in flight, so that shutdown lets them finish: every handler
//! holds a read guard while it works; shutdown takes the write lock, which
//! waits for all of them and then turns away latecomers.

use std::{sync::Arc, time::Duration};

use tokio::sync::{OwnedRwLockReadGuard, RwLock};

/// A shared gate; cheap to clone.
#[derive(Clone, Default)]
pub struct InFlight(Arc<RwLock<()>>);

/// Held while one interaction is being answered.
pub struct Pass(#[allow(dead_code)] OwnedRwLockReadGuard<()>);

impl InFlight {
    /// A pass for one interaction, or `None` once shutdown has begun.
    pub fn enter(&self) -> Option<Pass> {
        Arc::clone(&self.0).try_read_owned().ok().map(Pass)
    }

    /// Waits (at most `timeout`) for every pass to be dropped and closes the
    /// gate for good. Returns false on timeout.
    pub async fn drain(&self, timeout: Duration) -> bool {
        match tokio::time::timeout(timeout, Arc::clone(&self.0).write_owned()).await {
            Ok(guard) => {
                // Keep the gate closed until the process ends.
                std::mem::forget(guard);
                true
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn drain_waits_for_passes_then_refuses_new_ones() {
        let gate = InFlight::default();
        let pass = gate.enter().expect("open gate");
        let g = gate.clone();
        let drained = tokio::spawn(async move { g.drain(Duration::from_secs(5)).await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!drained.is_finished(), "drain must wait for the pass");
        drop(pass);
        assert!(drained.await.expect("task"));
        assert!(gate.enter().is_none());
    }
}
