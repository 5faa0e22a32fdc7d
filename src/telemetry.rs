//! Logging set-up: `tracing` events written as readable lines or as JSON
//! (one object per line, for log collectors), filtered by `RUST_LOG`
//! (default: `info` for the bot, warnings only from the chatty libraries).

use tracing_subscriber::{fmt, EnvFilter};

use crate::config::LogFormat;

/// What is logged when `RUST_LOG` is not set. sqlx logs every statement at
/// `info`, and serenity's gateway chatter is of no use day to day.
pub const DEFAULT_FILTER: &str = "info,sqlx=warn,serenity=warn,tracing::span=warn";

/// Installs the global subscriber. Calling it twice is harmless (the second
/// call does nothing), so tests and subcommands need not coordinate.
pub fn init(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    // Logs go to stderr: stdout belongs to subcommands' output (the console,
    // `render`, `rating`).
    // Colours only for a terminal: a log redirected to a file or a
    // journal must not fill up with escape codes.
    let builder = fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colours_wanted(
            std::io::IsTerminal::is_terminal(&std::io::stderr()),
            std::env::var_os("NO_COLOR").is_some(),
        ));
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// Whether log lines get ANSI colours: only on a terminal, and never with
/// `NO_COLOR` set (no-color.org).
pub fn colours_wanted(stderr_is_terminal: bool, no_color: bool) -> bool {
    stderr_is_terminal && !no_color
}

#[cfg(test)]
mod tests {
    #[test]
    fn colours_only_on_a_terminal() {
        assert!(super::colours_wanted(true, false));
        assert!(!super::colours_wanted(false, false));
        assert!(!super::colours_wanted(true, true));
    }
}
