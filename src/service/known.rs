//! Players this process has already written with their current display
//! name. Every command records its sender (and a challenge its opponent) on
//! the server's ladder; without this, each move would spend two writes
//! rewriting a row that has not changed. The database stays the truth: a
//! name is only remembered after it was committed, and a new name is
//! written at once.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use super::{error::ServiceError, Service};

/// (server, user) → the display name last committed by this process, and when.
#[derive(Default)]
pub(super) struct KnownPlayers(Mutex<HashMap<(String, String), (String, Instant)>>);

/// How long a remembered player is trusted. Another process may erase a
/// player's rows (`/privacy forget`); after this long, their next command
/// here writes their row again instead of trusting the memory. One write a
/// minute per active player costs nothing next to their moves.
const TRUST: Duration = Duration::from_secs(60);

/// Upper bound on remembered players; past it the map starts over (a
/// forgotten player costs one write on their next command).
const LIMIT: usize = 100_000;

impl KnownPlayers {
    fn is_current(&self, server: &str, user: &str, name: &str) -> bool {
        let known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        known
            .get(&(server.to_owned(), user.to_owned()))
            .is_some_and(|(n, at)| n == name && at.elapsed() < TRUST)
    }

    fn remember(&self, server: &str, user: &str, name: &str) {
        let mut known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= LIMIT {
            known.clear();
        }
        known.insert(
            (server.to_owned(), user.to_owned()),
            (name.to_owned(), Instant::now()),
        );
    }

    /// Drops `user` on every server (their rows were erased: their next
    /// command must record them afresh).
    pub(super) fn forget_user(&self, user: &str) {
        let mut known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        known.retain(|(_, u), _| u != user);
    }
}

impl Service {
    /// Records `user` on `server`'s ladder under `name` (already cleaned by
    /// [`super::display_name`]), unless this process already did.
    pub(super) async fn touch_player(
        &self,
        server: &str,
        user: &str,
        name: &str,
    ) -> Result<(), ServiceError> {
        let known = &self.inner.known_players;
        if known.is_current(server, user, name) {
            return Ok(());
        }
        self.store().touch_player(server, user, name).await?;
        known.remember(server, user, name);
        Ok(())
    }
}
