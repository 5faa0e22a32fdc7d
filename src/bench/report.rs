//! Small statistics over latency samples and the text the bench prints.

use std::time::Duration;

/// Latency samples in nanoseconds.
#[derive(Default, Clone)]
pub struct Samples(pub Vec<u64>);

impl Samples {
    pub fn push(&mut self, d: Duration) {
        self.0.push(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    }

    pub fn extend(&mut self, other: Samples) {
        self.0.extend(other.0);
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The `q` quantile (0.5 median, 0.99 p99), nearest rank, in ms.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.0.is_empty() {
            return f64::NAN;
        }
        let mut sorted = self.0.clone();
        sorted.sort_unstable();
        let rank = ((sorted.len() as f64 - 1.0) * q).round() as usize;
        sorted[rank.min(sorted.len() - 1)] as f64 / 1e6
    }

    pub fn mean_ms(&self) -> f64 {
        if self.0.is_empty() {
            return f64::NAN;
        }
        self.0.iter().map(|&n| n as f64).sum::<f64>() / self.0.len() as f64 / 1e6
    }

    /// `median 1.23 ms, p99 4.56 ms, mean 1.50 ms (n = 1000)`.
    pub fn summary(&self) -> String {
        format!(
            "median {:.3} ms, p99 {:.3} ms, mean {:.3} ms (n = {})",
            self.quantile_ms(0.5),
            self.quantile_ms(0.99),
            self.mean_ms(),
            self.len()
        )
    }
}

/// Milliseconds per move of a stage's `(total ns, count)`: stages that run
/// on only some moves (a drawing waited for) count for all of them.
pub fn per_move((nanos, _count): (u64, u64), moves: usize) -> f64 {
    if moves == 0 {
        return 0.0;
    }
    nanos as f64 / moves as f64 / 1e6
}

/// The median of `sorted` (ascending): the mean of the middle two for an
/// even count; NaN for none.
pub fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The resident set size of this process in KiB (Linux `/proc/self/status`).
pub fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_use_nearest_rank() {
        let s = Samples((1..=100).map(|ms| ms * 1_000_000).collect());
        assert_eq!(s.quantile_ms(0.5), 51.0);
        assert_eq!(s.quantile_ms(0.99), 99.0);
        assert_eq!(s.quantile_ms(0.0), 1.0);
        assert!(Samples::default().quantile_ms(0.5).is_nan());
    }

    #[test]
    fn median_of_odd_even_and_no_values() {
        assert_eq!(median(&[1.0, 2.0, 9.0]), 2.0);
        assert_eq!(median(&[1.0, 2.0, 4.0, 9.0]), 3.0);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn rss_is_readable_here() {
        assert!(rss_kib().is_some_and(|kib| kib > 0));
    }
}
