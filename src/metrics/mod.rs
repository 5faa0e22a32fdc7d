//! Prometheus metrics, kept in a `prometheus-client` registry (the Prometheus
//! project's Rust client) that the service and the adapters bump for almost
//! nothing, and served over HTTP by [`server`] (axum).
//!
//! What is measured, and who records it:
//!
//! | metric                                   | recorded by |
//! |------------------------------------------|-------------|
//! | `chessbot_commands_total{command,outcome}` | [`command_handled`], from `Service::handle` |
//! | `chessbot_command_seconds` (histogram)     | [`command_handled`] |
//! | `chessbot_moves_applied_total`             | [`move_applied`], after a committed move |
//! | `chessbot_render_seconds` (histogram)      | [`observe_render`], around each board render |
//! | `chessbot_interaction_seconds` (histogram) | [`observe_interaction`], by an adapter: event received → answer sent |
//! | `chessbot_rate_limited_total{kind}`        | [`rate_limited`], by the service's flood gate |
//! | `chessbot_backups_total{outcome}`          | [`backup_done`], by the automatic backups |
//! | `chessbot_backup_seconds` (histogram)      | [`backup_done`] |
//! | `chessbot_last_backup_timestamp_seconds`   | [`backup_done`], after a backup succeeded |
//! | `chessbot_open_games`                      | read from the store at scrape time ([`server`]) |
//!
//! Counters are per process; Prometheus sums them across processes. The open
//! games gauge is the database's count, the same in every process.

pub mod server;

pub use server::spawn;

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Mutex, OnceLock,
    },
    time::{Duration, Instant},
};

use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeMetric},
    metrics::{
        counter::Counter,
        family::Family,
        gauge::{ConstGauge, Gauge},
        histogram::Histogram,
        MetricType,
    },
};

/// How a command ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Done.
    Ok,
    /// Refused with a message for the user (bad input, not your turn, …).
    Refused,
    /// Failed on our side (the user saw an apology).
    Error,
    /// Not run: the sender (or their server) went over a rate limit.
    Limited,
}

impl Outcome {
    const fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused",
            Outcome::Error => "error",
            Outcome::Limited => "limited",
        }
    }
}

/// Upper bounds of the latency buckets, in seconds: 1 ms to 10 s.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// `Content-Type` of the OpenMetrics text format, served to scrapers that
/// ask for it (`Accept: application/openmetrics-text`).
pub const OPENMETRICS_CONTENT_TYPE: &str =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";
/// `Content-Type` of the Prometheus text format 0.0.4, served otherwise.
pub const PROMETHEUS_CONTENT_TYPE: &str =
    prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// Label sets: static strings, so recording allocates nothing new.
type CommandLabels = [(&'static str, &'static str); 2];
type OneLabel = [(&'static str, &'static str); 1];

/// The process's metrics.
pub struct Registry {
    registry: prometheus_client::registry::Registry,
    commands: Family<CommandLabels, Counter>,
    command_seconds: Histogram,
    moves_applied: Counter,
    render_seconds: Histogram,
    interaction_seconds: Histogram,
    /// By limit kind (`command`, `button`, `autocomplete`, `expensive`).
    rate_limited: Family<OneLabel, Counter>,
    backups: Family<OneLabel, Counter>,
    backup_seconds: Histogram,
    last_backup_unix: Gauge,
    open_games: &'static OpenGames,
    gateway_connected: AtomicBool,
}

fn latency() -> Histogram {
    Histogram::new(BUCKETS)
}

impl Registry {
    fn new() -> Registry {
        let commands = Family::<CommandLabels, Counter>::default();
        let command_seconds = latency();
        let moves_applied = Counter::default();
        let render_seconds = latency();
        let interaction_seconds = latency();
        let rate_limited = Family::<OneLabel, Counter>::default();
        let backups = Family::<OneLabel, Counter>::default();
        // Both outcomes are shown from the start, so that an alert on
        // failures has a series to watch before the first backup.
        for outcome in ["ok", "error"] {
            let _ = backups.get_or_create(&[("outcome", outcome)]);
        }
        let backup_seconds = latency();
        let last_backup_unix = Gauge::default();
        let open_games: &'static OpenGames = &OPEN_GAMES;

        let mut registry = prometheus_client::registry::Registry::default();
        // Help texts without a final full stop: the library adds one.
        registry.register(
            "chessbot_commands",
            "Commands handled, by command and outcome",
            commands.clone(),
        );
        registry.register(
            "chessbot_command_seconds",
            "Time the service took per command",
            command_seconds.clone(),
        );
        registry.register(
            "chessbot_moves_applied",
            "Moves committed by this process",
            moves_applied.clone(),
        );
        registry.register(
            "chessbot_render_seconds",
            "Time to render one board image",
            render_seconds.clone(),
        );
        registry.register(
            "chessbot_interaction_seconds",
            "Time from a platform interaction arriving to its answer",
            interaction_seconds.clone(),
        );
        registry.register(
            "chessbot_rate_limited",
            "Commands, buttons and autocompletes refused by a rate limit",
            rate_limited.clone(),
        );
        registry.register(
            "chessbot_backups",
            "Automatic backups, by outcome",
            backups.clone(),
        );
        registry.register(
            "chessbot_backup_seconds",
            "Time to write one automatic backup",
            backup_seconds.clone(),
        );
        registry.register(
            "chessbot_last_backup_timestamp_seconds",
            "Unix time of the last successful backup (0: none yet)",
            last_backup_unix.clone(),
        );
        registry.register_collector(Box::new(open_games));

        Registry {
            registry,
            commands,
            command_seconds,
            moves_applied,
            render_seconds,
            interaction_seconds,
            rate_limited,
            backups,
            backup_seconds,
            last_backup_unix,
            open_games,
            gateway_connected: AtomicBool::new(false),
        }
    }

    /// Moves committed by this process so far.
    pub fn moves_applied(&self) -> u64 {
        self.moves_applied.get()
    }

    /// Commands handled with this name and outcome so far.
    pub fn commands(&self, command: &str, outcome: Outcome) -> u64 {
        // `Family` is keyed by `&'static str`; look the series up by value.
        let mut n = 0;
        for known in KNOWN_COMMANDS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            if *known == command {
                let labels = [("command", *known), ("outcome", outcome.label())];
                n += self.commands.get(&labels).map_or(0, |c| c.get());
            }
        }
        n
    }

    /// Refusals by a rate limit of this kind so far.
    pub fn rate_limited(&self, kind: &str) -> u64 {
        ["command", "button", "autocomplete", "expensive"]
            .into_iter()
            .filter(|k| *k == kind)
            .map(|k| self.rate_limited.get(&[("kind", k)]).map_or(0, |c| c.get()))
            .sum()
    }

    /// Whether the adapter reports its gateway connected.
    pub fn gateway_connected(&self) -> bool {
        self.gateway_connected.load(Ordering::Relaxed)
    }

    /// Everything, in the Prometheus text format 0.0.4 or (`openmetrics`) the
    /// OpenMetrics text format, with its `Content-Type`. The open-games gauge
    /// is included when the server has read it lately
    /// ([`set_open_games`]).
    pub fn encode(&self, openmetrics: bool) -> (String, &'static str) {
        let mut out = String::new();
        // Writing into a String cannot fail; a metric that could not be
        // written would show as a truncated page, which the scraper rejects.
        if openmetrics {
            let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
            (out, OPENMETRICS_CONTENT_TYPE)
        } else {
            let _ = prometheus_client::encoding::prometheus_text::encode(&mut out, &self.registry);
            (out, PROMETHEUS_CONTENT_TYPE)
        }
    }
}

/// The names `command_handled` has seen, for [`Registry::commands`] (tests
/// and benches read counts back by name).
static KNOWN_COMMANDS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// The open-games count last read from the store, and when.
#[derive(Debug, Default)]
struct OpenGames(Mutex<Option<(Instant, i64)>>);

static OPEN_GAMES: OpenGames = OpenGames(Mutex::new(None));

/// A count older than this is not shown (the store stopped answering).
const OPEN_GAMES_STALE: Duration = Duration::from_secs(60);

impl Collector for &'static OpenGames {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let read = *self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some((at, n)) = read else { return Ok(()) };
        if at.elapsed() > OPEN_GAMES_STALE {
            return Ok(());
        }
        let metric = encoder.encode_descriptor(
            "chessbot_open_games",
            "Games in progress (whole database).",
            None,
            MetricType::Gauge,
        )?;
        ConstGauge::new(n).encode(metric)
    }
}

/// The open-games count as just read from the store (by the server, at
/// scrape time).
pub fn set_open_games(n: i64) {
    *registry()
        .open_games
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), n));
}

/// When the open-games count was last read, if ever.
pub fn open_games_read_at() -> Option<Instant> {
    registry()
        .open_games
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .map(|(at, _)| at)
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

/// The process-wide registry.
pub fn registry() -> &'static Registry {
    REGISTRY.get_or_init(Registry::new)
}

/// A command, button press or autocomplete was refused by a rate limit.
pub fn rate_limited(kind: &'static str) {
    registry()
        .rate_limited
        .get_or_create(&[("kind", kind)])
        .inc();
}

/// An automatic backup finished (`ok`) or failed, after `took`.
pub fn backup_done(ok: bool, took: Duration) {
    let r = registry();
    let outcome = if ok { "ok" } else { "error" };
    r.backups.get_or_create(&[("outcome", outcome)]).inc();
    if ok {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        r.last_backup_unix
            .set(i64::try_from(now).unwrap_or(i64::MAX));
    }
    r.backup_seconds.observe(took.as_secs_f64());
}

/// The platform adapter's gateway connection went up or down (`/readyz`).
pub fn set_gateway_connected(connected: bool) {
    registry()
        .gateway_connected
        .store(connected, Ordering::Relaxed);
}

/// A command (`move`, `challenge`, … as named by the service) finished.
pub fn command_handled(command: &'static str, outcome: Outcome, took: Duration) {
    let r = registry();
    let labels = [("command", command), ("outcome", outcome.label())];
    if r.commands.get(&labels).is_none() {
        let mut known = KNOWN_COMMANDS.lock().unwrap_or_else(|e| e.into_inner());
        if !known.contains(&command) {
            known.push(command);
        }
    }
    r.commands.get_or_create(&labels).inc();
    r.command_seconds.observe(took.as_secs_f64());
}

/// A move was committed.
pub fn move_applied() {
    registry().moves_applied.inc();
}

/// One board image took `took` to render.
pub fn observe_render(took: Duration) {
    registry().render_seconds.observe(took.as_secs_f64());
}

/// A platform interaction was answered `started.elapsed()` after it arrived.
pub fn observe_interaction(started: Instant) {
    registry()
        .interaction_seconds
        .observe(started.elapsed().as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_in_both_formats_under_its_old_name() {
        command_handled("help", Outcome::Ok, Duration::from_millis(2));
        move_applied();
        rate_limited("button");
        let (text, content_type) = registry().encode(false);
        assert_eq!(content_type, PROMETHEUS_CONTENT_TYPE);
        for line in [
            "# TYPE chessbot_commands_total counter\n",
            "# TYPE chessbot_command_seconds histogram\n",
            "# TYPE chessbot_moves_applied_total counter\n",
            "# TYPE chessbot_render_seconds histogram\n",
            "# TYPE chessbot_interaction_seconds histogram\n",
            "# TYPE chessbot_rate_limited_total counter\n",
            "# TYPE chessbot_backups_total counter\n",
            "# TYPE chessbot_backup_seconds histogram\n",
            "# TYPE chessbot_last_backup_timestamp_seconds gauge\n",
            "chessbot_backups_total{outcome=\"error\"} 0\n",
            "chessbot_rate_limited_total{kind=\"button\"} ",
            "chessbot_commands_total{command=\"help\",outcome=\"ok\"} ",
            "# HELP chessbot_moves_applied_total Moves committed by this process.\n",
        ] {
            assert!(text.contains(line), "{line:?} missing from\n{text}");
        }
        let (open, content_type) = registry().encode(true);
        assert_eq!(content_type, OPENMETRICS_CONTENT_TYPE);
        assert!(
            open.contains("# TYPE chessbot_commands counter\n"),
            "{open}"
        );
        assert!(open.ends_with("# EOF\n"), "{open}");
    }

    #[test]
    fn histograms_are_cumulative() {
        let h = latency();
        h.observe(0.0005);
        h.observe(0.02);
        h.observe(60.0);
        let mut r = prometheus_client::registry::Registry::default();
        r.register("x", "help", h);
        let mut out = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut out, &r).unwrap();
        assert!(out.contains("x_bucket{le=\"0.001\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"0.025\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"10\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"+Inf\"} 3\n"), "{out}");
        assert!(out.contains("x_count 3\n"), "{out}");
    }
}
