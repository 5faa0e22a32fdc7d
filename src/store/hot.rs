//! Connections the move path keeps between its statements (PostgreSQL).
//!
//! sqlx tests every connection as its pool takes it back: a `Sync` message
//! and its answer, one more round trip after every statement, in a task of
//! its own. Measured on this kind of machine with `SELECT 1` from four tasks
//! at once, a statement through the pool cost 0.033–0.040 ms of the bot's
//! CPU and 0.040–0.045 ms of the server's, against 0.014 and 0.021 ms on a
//! connection held between statements (docs/benchmarks.md, "connections
//! kept between moves").
//!
//! The test guards against a connection left half-way through a statement
//! by a caller that gave up (a dropped future). A [`HotConnection`] is put
//! back here only after its statement has finished; one dropped before
//! that goes back to the pool the usual way, test and all. At most [`KEPT`]
//! connections are kept. One found here unused for [`PING_IDLE`] or longer
//! (the next move finds it) also goes back to the pool, whose test finds a
//! connection that a server restart closed meanwhile. Kept connections are
//! out of the pool's count of idle ones, so its idle timeout does not close
//! them; [`Store::close`] gives them back first.

use std::{
    sync::{Mutex, PoisonError},
    time::Instant,
};

use sqlx::{pool::PoolConnection, Any, AnyConnection};

use super::{Store, StoreError, PING_IDLE};

/// Most connections kept here: half the PostgreSQL pool, so that every
/// other query always finds one.
const KEPT: usize = 4;

/// The connections kept, each with the time it was put back.
#[derive(Debug, Default)]
pub(super) struct Kept(Mutex<Vec<(Instant, PoolConnection<Any>)>>);

impl Kept {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(Instant, PoolConnection<Any>)>> {
        // A plain list: consistent whatever panicked while holding it.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Gives every kept connection back to the pool (before it closes).
    pub(super) fn release_all(&self) {
        self.lock().clear();
    }
}

/// A connection for one statement of the move path; see the module
/// documentation.
pub struct HotConnection<'a> {
    store: &'a Store,
    conn: Option<PoolConnection<Any>>,
}

impl Store {
    /// Connections kept for the move path's next statement (for tests).
    #[doc(hidden)]
    pub fn kept_connections(&self) -> usize {
        self.kept.lock().len()
    }

    /// A connection for one statement: one kept from the statement before,
    /// else one from the pool. Call [`HotConnection::finished`] once the
    /// statement has finished.
    pub async fn hot_connection(&self) -> Result<HotConnection<'_>, StoreError> {
        let kept = {
            let mut kept = self.kept.lock();
            // Idle too long: back to the pool, which tests it.
            let stale = kept
                .iter()
                .position(|(at, _)| at.elapsed() < PING_IDLE)
                .unwrap_or(kept.len());
            kept.drain(..stale);
            kept.pop()
        };
        let conn = match kept {
            Some((_, conn)) => conn,
            None => self.pool.acquire().await?,
        };
        Ok(HotConnection {
            store: self,
            conn: Some(conn),
        })
    }
}

impl HotConnection<'_> {
    /// The connection, to run the statement on.
    pub fn conn(&mut self) -> &mut AnyConnection {
        self.conn
            .as_deref_mut()
            .expect("a hot connection holds its connection until finished")
    }

    /// The statement has finished (it succeeded or the database refused
    /// it): keep the connection for the next one, if there is room.
    pub fn finished(mut self) {
        let Some(conn) = self.conn.take() else {
            return;
        };
        let mut kept = self.store.kept.lock();
        // Looked at under the lock that `Kept::release_all` takes after the
        // pool is marked closed (`Store::close`): a connection is never
        // kept once the pool waits for all of them.
        if kept.len() < KEPT && !self.store.pool.is_closed() {
            kept.push((Instant::now(), conn));
        }
    }
}
