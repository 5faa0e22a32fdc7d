//! Flood protection, as a pure core: per-user token buckets for commands,
//! button presses and autocomplete, and per-server buckets for expensive
//! work (images beyond a move's board, replays, charts, exports).
//!
//! The service asks [`Limiter::check`] before doing anything else with a
//! command, so a refused command costs one map lookup and no database or
//! rendering work. Time is passed in as a monotonic offset, which keeps this
//! module free of clocks and lets tests pick the time.
//!
//! Defaults are chosen so that no honest player meets them (see
//! [`Limits::default`]); a zero burst switches a limit off.

mod bucket;

use std::{collections::HashMap, time::Duration};

pub use bucket::{Bucket, Rate, Verdict};

/// What is being limited.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A slash command (per user).
    Command,
    /// A button press (per user).
    Button,
    /// An autocomplete request (per user; fires at each keystroke).
    Autocomplete,
    /// Expensive work: images beyond a move's board, replays, charts,
    /// exports (per server, shared by all its members).
    Expensive,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::Command,
        Kind::Button,
        Kind::Autocomplete,
        Kind::Expensive,
    ];

    const fn index(self) -> usize {
        match self {
            Kind::Command => 0,
            Kind::Button => 1,
            Kind::Autocomplete => 2,
            Kind::Expensive => 3,
        }
    }

    /// The label used in metrics.
    pub const fn label(self) -> &'static str {
        match self {
            Kind::Command => "command",
            Kind::Button => "button",
            Kind::Autocomplete => "autocomplete",
            Kind::Expensive => "expensive",
        }
    }
}

/// The configured rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Limits {
    pub commands: Rate,
    pub buttons: Rate,
    pub autocomplete: Rate,
    /// Per server.
    pub expensive: Rate,
}

impl Default for Limits {
    /// Commands and buttons: 20 at once, then 60 a minute each. A live
    /// bullet game is about one move every two seconds per player; a burst
    /// of 20 covers a player who types fast, clicks through a page of the
    /// ladder and fixes a typo or two. Autocomplete runs at every keystroke,
    /// so it gets 60 at once and 300 a minute. Expensive work is shared by a
    /// whole server: 30 at once, then 60 a minute (one a second) keeps one
    /// server from filling the render pool while a busy club never waits.
    fn default() -> Limits {
        Limits {
            commands: Rate::per_minute(20, 60),
            buttons: Rate::per_minute(20, 60),
            autocomplete: Rate::per_minute(60, 300),
            expensive: Rate::per_minute(30, 60),
        }
    }
}

impl Limits {
    /// No limit at all (tests, the console, benchmarks of the bare path).
    pub const fn off() -> Limits {
        let none = Rate {
            burst: 0,
            per_second: 0.0,
        };
        Limits {
            commands: none,
            buttons: none,
            autocomplete: none,
            expensive: none,
        }
    }

    pub const fn rate(&self, kind: Kind) -> Rate {
        match kind {
            Kind::Command => self.commands,
            Kind::Button => self.buttons,
            Kind::Autocomplete => self.autocomplete,
            Kind::Expensive => self.expensive,
        }
    }
}

/// Checks between sweeps of buckets that have refilled completely.
const SWEEP_EVERY: u32 = 4096;

/// The buckets of every user (and server) seen recently.
#[derive(Debug)]
pub struct Limiter {
    limits: Limits,
    /// One map per [`Kind`] (indexed by [`Kind::index`]), keyed by user or
    /// server id, so that a lookup borrows the key instead of building one.
    buckets: [HashMap<String, Bucket>; 4],
    since_sweep: u32,
}

impl Limiter {
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            limits,
            buckets: Default::default(),
            since_sweep: 0,
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Spends one token of `key`'s (a user's or a server's) `kind` bucket.
    pub fn check(&mut self, kind: Kind, key: &str, now: Duration) -> Verdict {
        let rate = self.limits.rate(kind);
        if rate.is_unlimited() {
            return Verdict::Allowed;
        }
        self.since_sweep += 1;
        if self.since_sweep >= SWEEP_EVERY {
            self.sweep(now);
        }
        let buckets = &mut self.buckets[kind.index()];
        // The common case (a known key) allocates nothing.
        if let Some(bucket) = buckets.get_mut(key) {
            return bucket.take(rate, now);
        }
        let mut bucket = Bucket::full(rate, now);
        let verdict = bucket.take(rate, now);
        buckets.insert(key.to_owned(), bucket);
        verdict
    }

    /// Forgets buckets that are full again: a fresh one says the same, so
    /// memory stays proportional to the users active in the last minute.
    fn sweep(&mut self, now: Duration) {
        self.since_sweep = 0;
        for kind in Kind::ALL {
            let rate = self.limits.rate(kind);
            self.buckets[kind.index()].retain(|_, bucket| !bucket.is_full_at(rate, now));
        }
    }

    /// How many buckets are held (for tests and metrics).
    pub fn len(&self) -> usize {
        self.buckets.iter().map(HashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.iter().all(HashMap::is_empty)
    }
}

/// "N s" rounded up: what the refusal tells the user to wait.
pub fn wait_seconds(retry_after: Duration) -> u64 {
    let secs = retry_after.as_secs_f64().ceil();
    if secs < 1.0 {
        1
    } else {
        secs as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_and_kinds_have_their_own_buckets() {
        let mut limiter = Limiter::new(Limits {
            commands: Rate::per_minute(2, 1),
            buttons: Rate::per_minute(1, 1),
            ..Limits::off()
        });
        let t = Duration::ZERO;
        assert_eq!(limiter.check(Kind::Command, "alice", t), Verdict::Allowed);
        assert_eq!(limiter.check(Kind::Command, "alice", t), Verdict::Allowed);
        assert!(matches!(
            limiter.check(Kind::Command, "alice", t),
            Verdict::Refused { .. }
        ));
        // Bob is not slowed down by Alice, nor Alice's buttons by her commands.
        assert_eq!(limiter.check(Kind::Command, "bob", t), Verdict::Allowed);
        assert_eq!(limiter.check(Kind::Button, "alice", t), Verdict::Allowed);
        // Autocomplete is off in this configuration.
        for _ in 0..100 {
            assert_eq!(
                limiter.check(Kind::Autocomplete, "alice", t),
                Verdict::Allowed
            );
        }
    }

    #[test]
    fn full_buckets_are_swept() {
        let mut limiter = Limiter::new(Limits {
            commands: Rate::per_minute(5, 60),
            ..Limits::off()
        });
        for i in 0..1000 {
            limiter.check(Kind::Command, &format!("user-{i}"), Duration::ZERO);
        }
        assert_eq!(limiter.len(), 1000);
        // A minute later every bucket is full again; the next sweep drops them.
        let later = Duration::from_secs(60);
        for _ in 0..SWEEP_EVERY {
            limiter.check(Kind::Command, "active", later);
        }
        assert!(limiter.len() <= 2, "{}", limiter.len());
    }

    #[test]
    fn waits_are_whole_seconds_rounded_up() {
        assert_eq!(wait_seconds(Duration::from_millis(10)), 1);
        assert_eq!(wait_seconds(Duration::from_millis(1_001)), 2);
        assert_eq!(wait_seconds(Duration::from_secs(3)), 3);
    }
}
