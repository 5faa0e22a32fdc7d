//! Group commit on SQLite: moves that arrive together share one transaction
//! and so one sync to disk, and each is still answered only after that
//! transaction has committed.
//!
//! With `synchronous = FULL` (the default [`Durability`]), every commit waits
//! for the disk to confirm the write-ahead log (a few milliseconds on most
//! disks). One commit per move would cap a process at a few hundred moves a
//! second whatever the CPU; instead, each writer puts its change in a queue
//! and waits for the write gate. The first to get the gate takes everything
//! queued (its own change and whatever arrived while the previous group was
//! syncing) and commits it as one transaction; the others find their answer
//! waiting when their turn at the gate comes.
//!
//! A change whose version is stale (or whose ply already exists) fails alone:
//! the trigger's `RAISE(ABORT)` and a unique violation undo their own
//! statement only, and the rest of the group commits. Any other failure (a
//! full disk, an I/O error) rolls the whole group back, and each change is
//! then tried again in a transaction of its own, so each caller gets the
//! answer its own change deserves.
//!
//! [`Durability`]: super::Durability

use std::sync::{
    atomic::{AtomicU64, Ordering},
    Mutex, PoisonError,
};

use tokio::sync::oneshot;

use super::{Applied, GameChange, Store, StoreError};

/// Changes waiting for a group to take them.
#[derive(Debug, Default)]
pub(super) struct Queue {
    waiting: Mutex<Vec<Pending>>,
    next_id: AtomicU64,
    /// Groups committed and the changes they held, for
    /// [`Store::group_commit_stats`].
    groups: AtomicU64,
    grouped: AtomicU64,
}

#[derive(Debug)]
struct Pending {
    id: u64,
    change: GameChange,
    answer: oneshot::Sender<Result<Applied, StoreError>>,
}

/// A caller's place in the queue: if the caller gives up (its future is
/// dropped) before a group took its change, the change leaves the queue
/// instead of being committed behind its back.
struct Ticket<'a> {
    queue: &'a Queue,
    id: u64,
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.queue.lock().retain(|p| p.id != self.id);
    }
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Pending>> {
        // The vector stays consistent whatever panicked while holding it.
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Store {
    /// `(groups, changes)` committed by group commit since the store opened
    /// (SQLite; zero on PostgreSQL): changes ÷ groups is the mean group size.
    pub fn group_commit_stats(&self) -> (u64, u64) {
        (
            self.group.groups.load(Ordering::Relaxed),
            self.group.grouped.load(Ordering::Relaxed),
        )
    }

    /// Changes waiting for the next group commit (tests use it to line up
    /// a group).
    pub fn queued_changes(&self) -> usize {
        self.group.lock().len()
    }

    /// [`Store::apply`] for a change without a rating settlement, on SQLite:
    /// joins the next group commit (see the module documentation).
    pub(super) async fn apply_grouped(&self, change: &GameChange) -> Result<Applied, StoreError> {
        let (answer, mut result) = oneshot::channel();
        let queue = &self.group;
        let id = queue.next_id.fetch_add(1, Ordering::Relaxed);
        queue.lock().push(Pending {
            id,
            change: change.clone(),
            answer,
        });
        let _ticket = Ticket { queue, id };
        let gate = self.write_gate().await;
        // A group that ran while this caller waited for the gate may have
        // committed its change already.
        if let Ok(done) = result.try_recv() {
            return done;
        }
        let group = std::mem::take(&mut *queue.lock());
        // The group runs in a task of its own, holding the gate, so that a
        // caller giving up half-way cannot leave the others' changes
        // half-committed or unanswered.
        let store = self.clone();
        tokio::spawn(async move {
            let _gate = gate;
            store.commit_group(group).await;
        });
        match result.await {
            Ok(done) => done,
            // The group's task panicked before answering: its transaction
            // was rolled back with the connection.
            Err(_) => Err(StoreError::Database(sqlx::Error::Protocol(
                "the group commit stopped before answering".to_owned(),
            ))),
        }
    }

    /// Commits `group` as one transaction, answering every change in it.
    async fn commit_group(&self, group: Vec<Pending>) {
        if group.is_empty() {
            return;
        }
        match self.try_group(&group).await {
            Ok(results) => {
                let queue = &self.group;
                queue.groups.fetch_add(1, Ordering::Relaxed);
                queue
                    .grouped
                    .fetch_add(group.len() as u64, Ordering::Relaxed);
                for (pending, result) in group.into_iter().zip(results) {
                    let _ = pending.answer.send(result);
                }
            }
            // The group as a whole failed and nothing of it was written:
            // each change on its own, each with its own answer.
            Err(_) => {
                for pending in group {
                    let result = self.apply_alone(&pending.change).await;
                    let _ = pending.answer.send(result);
                }
            }
        }
    }

    /// One transaction for the whole group. `Ok` holds each change's own
    /// result (a stale change fails alone); `Err` means nothing committed.
    async fn try_group(
        &self,
        group: &[Pending],
    ) -> Result<Vec<Result<Applied, StoreError>>, StoreError> {
        let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
        let mut results = Vec::with_capacity(group.len());
        for pending in group {
            match self.apply_game(&mut tx, &pending.change, None).await {
                // Only these undo their own statement and leave the
                // transaction open; anything else may have ended it.
                result @ (Ok(_) | Err(StoreError::Conflict)) => results.push(result),
                Err(e) => return Err(e),
            }
        }
        tx.commit().await?;
        Ok(results)
    }

    /// One change in a transaction of its own (the gate is held).
    async fn apply_alone(&self, change: &GameChange) -> Result<Applied, StoreError> {
        let mut conn = self.pool.acquire().await?;
        self.apply_game(&mut conn, change, None).await
    }
}
