//! Flood protection at the service's door: every command and button press
//! spends a token of its sender's bucket (and expensive work one of the
//! server's) before anything else happens, so a flood costs a map lookup
//! per command and never reaches the database or the renderer. The buckets
//! themselves are the pure [`crate::limits`] core.

use std::{sync::Mutex, time::Instant};

use super::{Actor, Command, Reply, Service};
use crate::limits::{wait_seconds, Kind, Limiter, Limits, Verdict};

/// The limiter and the moment its time is counted from.
pub(super) struct Gate {
    limiter: Mutex<Limiter>,
    started: Instant,
}

impl Gate {
    pub(super) fn new(limits: Limits) -> Gate {
        Gate {
            limiter: Mutex::new(Limiter::new(limits)),
            started: Instant::now(),
        }
    }

    fn check(&self, kind: Kind, key: &str) -> Verdict {
        // Real (monotonic) time, not the service's clock: a flood is about
        // how fast requests arrive, whatever time the games are played in.
        let now = self.started.elapsed();
        let verdict = self
            .limiter
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .check(kind, key, now);
        if let Verdict::Refused { .. } = verdict {
            crate::metrics::rate_limited(kind.label());
        }
        verdict
    }
}

/// Commands whose answer is expensive to make: an image beyond a move's
/// board (the points chart), a game's history, an export.
fn is_expensive(command: &Command) -> bool {
    matches!(
        command,
        Command::Profile { .. }
            | Command::History { .. }
            | Command::Pgn { .. }
            | Command::PrivacyShow
            | Command::Show { .. }
    )
}

impl Service {
    /// Replaces the flood limits (before the service is shared: call it on
    /// the value [`Service::new`] returned).
    pub fn with_limits(mut self, limits: Limits) -> Service {
        match std::sync::Arc::get_mut(&mut self.inner) {
            Some(inner) => inner.gate = Gate::new(limits),
            None => tracing::warn!("limits set on a service already shared: ignored"),
        }
        self
    }

    /// Whether `user` may have one more autocomplete answer now (a looser
    /// limit than commands: it fires at every keystroke). Adapters answer a
    /// refused one with no suggestions.
    pub fn allow_autocomplete(&self, user: &str) -> bool {
        self.inner.gate.check(Kind::Autocomplete, user) == Verdict::Allowed
    }

    /// `None` if `command` may run now; otherwise the private "slow down"
    /// answer. Nothing else is done for a refused command.
    pub(super) fn rate_limit(&self, actor: &Actor, command: &Command) -> Option<Reply> {
        let kind = match command {
            // A live board's moves and buttons are clicks, as Discord's.
            Command::Button { .. } | Command::BoardMove { .. } | Command::BoardAction { .. } => {
                Kind::Button
            }
            _ => Kind::Command,
        };
        let gate = &self.inner.gate;
        let (verdict, server_wide) = match gate.check(kind, &actor.user) {
            Verdict::Allowed if is_expensive(command) => {
                (gate.check(Kind::Expensive, &actor.server), true)
            }
            verdict => (verdict, false),
        };
        match verdict {
            Verdict::Allowed => None,
            Verdict::Refused { retry_after, first } => {
                let seconds = wait_seconds(retry_after);
                if first {
                    tracing::info!(user = %actor.user, server = %actor.server, kind = kind.label(), "rate limit reached");
                }
                let lang = actor.lang();
                let text = if server_wide {
                    crate::t!(lang, "ops-server-busy", seconds = seconds)
                } else {
                    crate::t!(lang, "ops-slow-down", seconds = seconds)
                };
                Some(Reply::private(text))
            }
        }
    }
}
