//! One token bucket: `burst` tokens to start with, refilled at a steady
//! `per_second` rate up to `burst`. Each allowed action spends one token; an
//! action finding less than one is refused, and the bucket says how long
//! until the next token arrives.
//!
//! Time is passed in (a monotonic offset from any fixed start), so the
//! bucket is plain arithmetic: no clock, no I/O, and tests choose the time.

use std::time::Duration;

/// A burst allowance and a steady rate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rate {
    /// Actions allowed at once, from a full bucket.
    pub burst: u32,
    /// Tokens added back per second (the sustained rate).
    pub per_second: f64,
}

impl Rate {
    /// `burst` at once, then `per_minute` a minute.
    pub const fn per_minute(burst: u32, per_minute: u32) -> Rate {
        Rate {
            burst,
            per_second: per_minute as f64 / 60.0,
        }
    }

    /// Whether this rate limits anything (a zero burst means "no limit").
    pub fn is_unlimited(&self) -> bool {
        self.burst == 0
    }
}

/// What a bucket said about one action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Go ahead (one token spent).
    Allowed,
    /// Refused: try again after `retry_after`. `first` is true for the
    /// first refusal since the bucket last allowed something, so the caller
    /// can answer once per burst rather than at every dropped action.
    Refused { retry_after: Duration, first: bool },
}

/// The state of one bucket.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Bucket {
    tokens: f64,
    /// When `tokens` was last brought up to date.
    at: Duration,
    /// Whether a refusal has been reported since the last allowed action.
    warned: bool,
}

impl Bucket {
    /// A full bucket at time `now`.
    pub fn full(rate: Rate, now: Duration) -> Bucket {
        Bucket {
            tokens: f64::from(rate.burst),
            at: now,
            warned: false,
        }
    }

    /// Tokens now, after refilling for the time since the last look.
    fn refill(&mut self, rate: Rate, now: Duration) {
        let elapsed = now.saturating_sub(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate.per_second).min(f64::from(rate.burst));
        self.at = now.max(self.at);
    }

    /// Spends one token if there is one.
    pub fn take(&mut self, rate: Rate, now: Duration) -> Verdict {
        if rate.is_unlimited() {
            return Verdict::Allowed;
        }
        self.refill(rate, now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.warned = false;
            return Verdict::Allowed;
        }
        let missing = 1.0 - self.tokens;
        let retry_after = if rate.per_second > 0.0 {
            Duration::from_secs_f64((missing / rate.per_second).min(86_400.0 * 365.0))
        } else {
            Duration::from_secs(86_400 * 365)
        };
        let first = !self.warned;
        self.warned = true;
        Verdict::Refused { retry_after, first }
    }

    /// Whether the bucket is full again at `now` (and can be forgotten: a
    /// fresh bucket would say the same).
    pub fn is_full_at(&self, rate: Rate, now: Duration) -> bool {
        let elapsed = now.saturating_sub(self.at).as_secs_f64();
        self.tokens + elapsed * rate.per_second >= f64::from(rate.burst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn a_burst_then_the_steady_rate() {
        let rate = Rate::per_minute(3, 60);
        let mut b = Bucket::full(rate, secs(0));
        for _ in 0..3 {
            assert_eq!(b.take(rate, secs(0)), Verdict::Allowed);
        }
        assert_eq!(
            b.take(rate, secs(0)),
            Verdict::Refused {
                retry_after: secs(1),
                first: true
            }
        );
        // Answered once per burst: the next refusal is not the first.
        assert!(matches!(
            b.take(rate, secs(0)),
            Verdict::Refused { first: false, .. }
        ));
        // One second later one token is back, and only one.
        assert_eq!(b.take(rate, secs(1)), Verdict::Allowed);
        assert!(matches!(
            b.take(rate, secs(1)),
            Verdict::Refused { first: true, .. }
        ));
        // A long pause refills up to the burst, not beyond.
        let mut allowed = 0;
        while b.take(rate, secs(1_000)) == Verdict::Allowed {
            allowed += 1;
        }
        assert_eq!(allowed, 3);
    }

    #[test]
    fn retry_after_is_the_time_to_the_next_token() {
        let rate = Rate::per_minute(1, 6); // one token every 10 s
        let mut b = Bucket::full(rate, secs(0));
        assert_eq!(b.take(rate, secs(0)), Verdict::Allowed);
        match b.take(rate, secs(4)) {
            Verdict::Refused { retry_after, .. } => {
                assert!(
                    (retry_after.as_secs_f64() - 6.0).abs() < 1e-6,
                    "{retry_after:?}"
                )
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        assert!(!b.is_full_at(rate, secs(9)));
        assert!(b.is_full_at(rate, secs(10)));
    }

    #[test]
    fn zero_burst_means_no_limit() {
        let rate = Rate::per_minute(0, 0);
        let mut b = Bucket::full(rate, secs(0));
        for _ in 0..10_000 {
            assert_eq!(b.take(rate, secs(0)), Verdict::Allowed);
        }
    }

    #[test]
    fn time_going_backwards_refills_nothing() {
        let rate = Rate::per_minute(1, 60);
        let mut b = Bucket::full(rate, secs(10));
        assert_eq!(b.take(rate, secs(10)), Verdict::Allowed);
        assert!(matches!(b.take(rate, secs(5)), Verdict::Refused { .. }));
    }
}
