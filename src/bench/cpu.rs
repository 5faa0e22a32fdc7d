//! CPU time spent during a phase of the bench, by whom: this process (the
//! bot) and, when the database is a local PostgreSQL server, the server's
//! processes. Divided by the phase's moves, it says what one move costs
//! each side, which wall-clock figures on a shared two-core machine cannot.
//!
//! Read from `/proc` (Linux); elsewhere every figure is zero and the bench
//! prints none.

use std::time::Duration;

/// CPU time used so far by the bot and by the local database server.
#[derive(Clone, Copy, Default, Debug)]
pub struct CpuSample {
    pub bot: Duration,
    pub database: Duration,
}

impl CpuSample {
    /// Now, with the database server's processes named `server` (`postgres`)
    /// counted when `server` is given.
    pub fn now(server: Option<&str>) -> CpuSample {
        CpuSample {
            bot: process_cpu("self").unwrap_or_default(),
            database: server.map_or(Duration::ZERO, processes_named),
        }
    }

    /// What was used between `earlier` and this sample.
    pub fn since(&self, earlier: &CpuSample) -> CpuSample {
        CpuSample {
            bot: self.bot.saturating_sub(earlier.bot),
            database: self.database.saturating_sub(earlier.database),
        }
    }

    pub fn plus(&self, other: &CpuSample) -> CpuSample {
        CpuSample {
            bot: self.bot + other.bot,
            database: self.database + other.database,
        }
    }

    /// Whether anything was measured (false off Linux).
    pub fn measured(&self) -> bool {
        !self.bot.is_zero()
    }
}

/// Clock ticks per second of `/proc`'s figures.
#[cfg(unix)]
fn ticks_per_sec() -> f64 {
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 {
        ticks as f64
    } else {
        100.0
    }
}

#[cfg(not(unix))]
fn ticks_per_sec() -> f64 {
    100.0
}

/// User plus system time of `/proc/<pid>`, children not included.
fn process_cpu(pid: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces:
    // the fields that follow are counted from its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after field 2.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_secs_f64(
        (utime + stime) as f64 / ticks_per_sec(),
    ))
}

/// The CPU time of every process whose name is `name` (PostgreSQL's
/// backends, checkpointer, WAL writer, …), as far as `/proc` shows them.
/// Backends that exit between two samples take their time with them; the
/// bench's connections live through the run.
fn processes_named(name: &str) -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().into_string().ok()?;
            if !pid.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
            (comm.trim_end() == name).then(|| process_cpu(&pid))?
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_uses_cpu() {
        let before = CpuSample::now(None);
        // Burn CPU until a clock tick (10 ms at 100 Hz) has been counted;
        // a machine busy with others only makes this take longer.
        let mut x = 0u64;
        let started = std::time::Instant::now();
        let mut used = CpuSample::default();
        while !used.measured() && started.elapsed() < Duration::from_secs(30) {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
            }
            used = CpuSample::now(None).since(&before);
        }
        if cfg!(target_os = "linux") {
            assert!(used.bot > Duration::ZERO, "{used:?}");
        }
        assert_eq!(used.database, Duration::ZERO);
    }
}
