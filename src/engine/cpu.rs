//! CPU time spent, read from `/proc` (Linux): this process's and the
//! engine processes'. Puzzle generation is measured in puzzles per
//! CPU-minute, and nearly all of that CPU is Stockfish's, in a child
//! process that the bot's own `getrusage` does not see while it runs; wall
//! time on a shared machine says more about the neighbours than about the
//! generator. Where `/proc` cannot be read (another system), a process
//! counts as 0 seconds.

use super::EnginePool;

/// Clock ticks per second of `/proc/*/stat`: Linux's `USER_HZ`, 100 on
/// every architecture the bot runs on (`sysconf(_SC_CLK_TCK)`).
pub const TICKS_PER_SEC: f64 = 100.0;

/// The CPU seconds (user + system) in the text of a `/proc/PID/stat` file,
/// `None` when it does not read.
pub fn parse_stat(stat: &str) -> Option<f64> {
    // The command name (field 2, in parentheses) may hold spaces and
    // parentheses: fields count from after its last `)`.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after
    // the name (state is field 3, index 0 here).
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / TICKS_PER_SEC)
}

/// CPU seconds used so far by process `pid` (`"self"` for this one); 0 when
/// it is gone or `/proc` does not read.
pub fn seconds_of(pid: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| parse_stat(&s))
        .unwrap_or(0.0)
}

/// CPU seconds of this process so far.
pub fn own() -> f64 {
    seconds_of("self")
}

/// CPU seconds of the pool's engine processes alive now (request and
/// background lanes).
pub fn engines(pool: &EnginePool) -> f64 {
    pool.pids().iter().map(|p| seconds_of(&p.to_string())).sum()
}

/// CPU seconds spent between [`Meter::start`] and now, split into the
/// engines' and ours. An engine replaced meanwhile (a crash) loses what its
/// process had used: the figure is then low, never high.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meter {
    engines: f64,
    own: f64,
}

/// What a [`Meter`] read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    pub engines: f64,
    pub own: f64,
}

impl Spent {
    /// Engines' and ours together.
    pub fn total(&self) -> f64 {
        self.engines + self.own
    }

    /// `count` per CPU-minute (0 when no CPU time was measured).
    pub fn per_minute(&self, count: usize) -> f64 {
        let minutes = self.total() / 60.0;
        if minutes > 0.0 {
            count as f64 / minutes
        } else {
            0.0
        }
    }
}

impl Meter {
    pub fn start(pool: &EnginePool) -> Meter {
        Meter {
            engines: engines(pool),
            own: own(),
        }
    }

    pub fn spent(&self, pool: &EnginePool) -> Spent {
        Spent {
            engines: (engines(pool) - self.engines).max(0.0),
            own: (own() - self.own).max(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_reads_with_a_name_holding_spaces_and_parentheses() {
        // A real line's shape: pid (comm) state ppid ... utime stime ...
        let line = "4242 (stock fish (x)) R 1 4242 4242 0 -1 4194304 2500 0 0 0 \
                    1234 56 0 0 39 19 1 0 1000 123456789 3000 18446744073709551615";
        assert_eq!(parse_stat(line), Some(12.9));
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(parse_stat("1 (x) R 1 2"), None);
    }

    #[test]
    fn our_own_cpu_time_grows_with_work() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return;
        }
        let before = own();
        let started = std::time::Instant::now();
        let mut x: u64 = 1;
        while started.elapsed() < std::time::Duration::from_millis(150) {
            for i in 0..10_000u64 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
            }
        }
        std::hint::black_box(x);
        assert!(own() > before, "{before} then {}", own());
        assert_eq!(seconds_of("not-a-pid"), 0.0);
    }

    #[test]
    fn per_minute_counts_both_processes() {
        let spent = Spent {
            engines: 50.0,
            own: 10.0,
        };
        assert_eq!(spent.total(), 60.0);
        assert_eq!(spent.per_minute(9), 9.0);
        assert_eq!(Spent::default().per_minute(3), 0.0);
    }
}
