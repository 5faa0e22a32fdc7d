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

/// What this process last committed for a player.
#[derive(Clone)]
struct Known {
    name: String,
    locale: Option<String>,
    at: Instant,
}

/// (server, user) → the display name and client locale last committed by
/// this process, and when.
#[derive(Default)]
pub(super) struct KnownPlayers(Mutex<HashMap<(String, String), Known>>);

/// How long a remembered player is trusted. Another process may erase a
/// player's rows (`/privacy forget`); after this long, their next command
/// here writes their row again instead of trusting the memory. One write a
/// minute per active player costs nothing next to their moves.
const TRUST: Duration = Duration::from_secs(60);

/// Upper bound on remembered players; past it the map starts over (a
/// forgotten player costs one write on their next command).
const LIMIT: usize = 100_000;

impl KnownPlayers {
    /// What this process last wrote for the player, if it is still trusted.
    fn get(&self, server: &str, user: &str) -> Option<Known> {
        let known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        known
            .get(&(server.to_owned(), user.to_owned()))
            .filter(|k| k.at.elapsed() < TRUST)
            .cloned()
    }

    fn remember(&self, server: &str, user: &str, name: &str, locale: Option<&str>) {
        let mut known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= LIMIT {
            known.clear();
        }
        known.insert(
            (server.to_owned(), user.to_owned()),
            Known {
                name: name.to_owned(),
                locale: locale.map(str::to_owned),
                at: Instant::now(),
            },
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
        let before = known.get(server, user);
        if before.as_ref().is_some_and(|k| k.name == name) {
            return Ok(());
        }
        self.store().touch_player(server, user, name).await?;
        let locale = before.and_then(|k| k.locale);
        known.remember(server, user, name, locale.as_deref());
        Ok(())
    }

    /// [`Self::touch_player`] for the sender of a command, also recording
    /// their client locale (the language of DMs sent to them later).
    pub(super) async fn touch_actor(
        &self,
        server: &str,
        user: &str,
        name: &str,
        locale: Option<&str>,
    ) -> Result<(), ServiceError> {
        let known = &self.inner.known_players;
        let before = known.get(server, user);
        if before
            .as_ref()
            .is_some_and(|k| k.name == name && k.locale.as_deref() == locale)
        {
            return Ok(());
        }
        if before.as_ref().is_none_or(|k| k.name != name) {
            self.store().touch_player(server, user, name).await?;
        }
        if locale.is_some() {
            self.store().set_player_locale(server, user, locale).await?;
        }
        known.remember(server, user, name, locale);
        Ok(())
    }
}
