//! Prometheus metrics without a metrics framework: a process-wide registry of
//! atomics that the service and the adapters bump for almost nothing, and a
//! tiny HTTP server answering `GET /metrics` in the text exposition format.
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
//! | `chessbot_open_games`                      | read from the store at scrape time |
//! | `chessbot_rate_limited_total{kind}`        | [`rate_limited`], by the service's flood gate |
//! | `chessbot_backups_total{outcome}`          | [`backup_done`], by the automatic backups |
//! | `chessbot_backup_seconds` (histogram)      | [`backup_done`] |
//! | `chessbot_last_backup_timestamp_seconds`   | [`backup_done`], after a backup succeeded |
//!
//! Besides `/metrics` the server answers `/healthz` (the process is alive)
//! and `/readyz` (the gateway is connected, as the adapter reports with
//! [`set_gateway_connected`], and the database answers a query).
//!
//! Counters are per process; Prometheus sums them across processes. The open
//! games gauge is the database's count, the same in every process.

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    net::SocketAddr,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Mutex, OnceLock,
    },
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpListener,
};

use crate::store::Store;

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

/// A latency histogram: one atomic per bucket (not cumulative; summed when
/// written out), the count and the sum in microseconds.
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    const fn new() -> Histogram {
        Histogram {
            buckets: [const { AtomicU64::new(0) }; BUCKETS.len()],
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
        }
    }

    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|b| secs <= *b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, bucket) in BUCKETS.iter().zip(&self.buckets) {
            cumulative += bucket.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// The process's metrics.
pub struct Registry {
    commands: Mutex<BTreeMap<(&'static str, Outcome), u64>>,
    command_seconds: Histogram,
    moves_applied: AtomicU64,
    render_seconds: Histogram,
    interaction_seconds: Histogram,
    /// By limit kind (`command`, `button`, `autocomplete`, `expensive`).
    rate_limited: Mutex<BTreeMap<&'static str, u64>>,
    backups_ok: AtomicU64,
    backups_failed: AtomicU64,
    backup_seconds: Histogram,
    last_backup_unix: AtomicU64,
    gateway_connected: AtomicBool,
}

static REGISTRY: Registry = Registry {
    commands: Mutex::new(BTreeMap::new()),
    command_seconds: Histogram::new(),
    moves_applied: AtomicU64::new(0),
    render_seconds: Histogram::new(),
    interaction_seconds: Histogram::new(),
    rate_limited: Mutex::new(BTreeMap::new()),
    backups_ok: AtomicU64::new(0),
    backups_failed: AtomicU64::new(0),
    backup_seconds: Histogram::new(),
    last_backup_unix: AtomicU64::new(0),
    gateway_connected: AtomicBool::new(false),
};

/// A command, button press or autocomplete was refused by a rate limit.
pub fn rate_limited(kind: &'static str) {
    let mut counts = REGISTRY
        .rate_limited
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    *counts.entry(kind).or_default() += 1;
}

/// An automatic backup finished (`ok`) or failed, after `took`.
pub fn backup_done(ok: bool, took: Duration) {
    if ok {
        REGISTRY.backups_ok.fetch_add(1, Ordering::Relaxed);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        REGISTRY.last_backup_unix.store(now, Ordering::Relaxed);
    } else {
        REGISTRY.backups_failed.fetch_add(1, Ordering::Relaxed);
    }
    REGISTRY.backup_seconds.observe(took);
}

/// The platform adapter's gateway connection went up or down (`/readyz`).
pub fn set_gateway_connected(connected: bool) {
    REGISTRY
        .gateway_connected
        .store(connected, Ordering::Relaxed);
}

/// The process-wide registry.
pub fn registry() -> &'static Registry {
    &REGISTRY
}

/// A command (`move`, `challenge`, … as named by the service) finished.
pub fn command_handled(command: &'static str, outcome: Outcome, took: Duration) {
    let mut commands = REGISTRY.commands.lock().unwrap_or_else(|e| e.into_inner());
    *commands.entry((command, outcome)).or_default() += 1;
    drop(commands);
    REGISTRY.command_seconds.observe(took);
}

/// A move was committed.
pub fn move_applied() {
    REGISTRY.moves_applied.fetch_add(1, Ordering::Relaxed);
}

/// One board image took `took` to render.
pub fn observe_render(took: Duration) {
    REGISTRY.render_seconds.observe(took);
}

/// A platform interaction was answered `started.elapsed()` after it arrived.
pub fn observe_interaction(started: Instant) {
    REGISTRY.interaction_seconds.observe(started.elapsed());
}

impl Registry {
    /// Moves committed by this process so far.
    pub fn moves_applied(&self) -> u64 {
        self.moves_applied.load(Ordering::Relaxed)
    }

    /// Commands handled with this name and outcome so far.
    pub fn commands(&self, command: &str, outcome: Outcome) -> u64 {
        let commands = self.commands.lock().unwrap_or_else(|e| e.into_inner());
        commands
            .iter()
            .filter(|((c, o), _)| *c == command && *o == outcome)
            .map(|(_, n)| *n)
            .sum()
    }

    /// Refusals by a rate limit of this kind so far.
    pub fn rate_limited(&self, kind: &str) -> u64 {
        let counts = self.rate_limited.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(kind).copied().unwrap_or(0)
    }

    /// Whether the adapter reports its gateway connected.
    pub fn gateway_connected(&self) -> bool {
        self.gateway_connected.load(Ordering::Relaxed)
    }

    /// Everything, in Prometheus' text format.
    pub fn render(&self, open_games: Option<i64>) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP chessbot_commands_total Commands handled, by command and outcome.\n\
             # TYPE chessbot_commands_total counter\n",
        );
        {
            let commands = self.commands.lock().unwrap_or_else(|e| e.into_inner());
            for ((command, outcome), n) in commands.iter() {
                let _ = writeln!(
                    out,
                    "chessbot_commands_total{{command=\"{command}\",outcome=\"{}\"}} {n}",
                    outcome.label()
                );
            }
        }
        self.command_seconds.write(
            &mut out,
            "chessbot_command_seconds",
            "Time the service took per command.",
        );
        let _ = writeln!(
            out,
            "# HELP chessbot_moves_applied_total Moves committed by this process.\n\
             # TYPE chessbot_moves_applied_total counter\n\
             chessbot_moves_applied_total {}",
            self.moves_applied()
        );
        self.render_seconds.write(
            &mut out,
            "chessbot_render_seconds",
            "Time to render one board image.",
        );
        self.interaction_seconds.write(
            &mut out,
            "chessbot_interaction_seconds",
            "Time from a platform interaction arriving to its answer.",
        );
        out.push_str(
            "# HELP chessbot_rate_limited_total Commands, buttons and autocompletes refused by a rate limit.\n\
             # TYPE chessbot_rate_limited_total counter\n",
        );
        {
            let counts = self.rate_limited.lock().unwrap_or_else(|e| e.into_inner());
            for (kind, n) in counts.iter() {
                let _ = writeln!(out, "chessbot_rate_limited_total{{kind=\"{kind}\"}} {n}");
            }
        }
        let _ = writeln!(
            out,
            "# HELP chessbot_backups_total Automatic backups, by outcome.\n\
             # TYPE chessbot_backups_total counter\n\
             chessbot_backups_total{{outcome=\"ok\"}} {}\n\
             chessbot_backups_total{{outcome=\"error\"}} {}",
            self.backups_ok.load(Ordering::Relaxed),
            self.backups_failed.load(Ordering::Relaxed)
        );
        self.backup_seconds.write(
            &mut out,
            "chessbot_backup_seconds",
            "Time to write one automatic backup.",
        );
        let _ = writeln!(
            out,
            "# HELP chessbot_last_backup_timestamp_seconds Unix time of the last successful backup (0: none yet).\n\
             # TYPE chessbot_last_backup_timestamp_seconds gauge\n\
             chessbot_last_backup_timestamp_seconds {}",
            self.last_backup_unix.load(Ordering::Relaxed)
        );
        if let Some(n) = open_games {
            let _ = writeln!(
                out,
                "# HELP chessbot_open_games Games in progress (whole database).\n\
                 # TYPE chessbot_open_games gauge\n\
                 chessbot_open_games {n}"
            );
        }
        out
    }
}

/// Longest request head read: a scraper's request is a few hundred bytes.
const MAX_REQUEST: usize = 8192;

/// Serves `GET /metrics` on `listener` until the task is dropped. With a
/// store, the open-games gauge is read from it at each scrape.
pub async fn serve(listener: TcpListener, store: Option<Store>) {
    loop {
        let (mut socket, _) = match listener.accept().await {
            Ok(conn) => conn,
            Err(e) => {
                tracing::warn!(error = %e, "metrics: accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let store = store.clone();
        tokio::spawn(async move {
            let answer = tokio::time::timeout(Duration::from_secs(10), async {
                let mut head = Vec::with_capacity(512);
                let mut buf = [0u8; 1024];
                // Read until the end of the request head (or give up).
                while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_REQUEST {
                    let n = socket.read(&mut buf).await?;
                    if n == 0 {
                        break;
                    }
                    head.extend_from_slice(&buf[..n]);
                }
                let response = respond(&head, store.as_ref()).await;
                socket.write_all(response.as_bytes()).await?;
                socket.shutdown().await
            })
            .await;
            if let Ok(Err(e)) = answer {
                tracing::debug!(error = %e, "metrics: connection failed");
            }
        });
    }
}

/// Binds `addr` and serves metrics in a background task.
pub async fn spawn(
    addr: SocketAddr,
    store: Option<Store>,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    tracing::info!(%local, "serving Prometheus metrics on /metrics");
    Ok((local, tokio::spawn(serve(listener, store))))
}

async fn respond(head: &[u8], store: Option<&Store>) -> String {
    let request_line = head.split(|b| *b == b'\n').next().unwrap_or_default();
    let request_line = String::from_utf8_lossy(request_line);
    let mut parts = request_line.split_whitespace();
    let (method, path) = (parts.next(), parts.next());
    let (status, body, content_type) = match (method, path) {
        (Some("GET"), Some("/metrics")) => {
            let open = match store {
                Some(store) => open_games(store).await,
                None => None,
            };
            (
                "200 OK",
                registry().render(open),
                "text/plain; version=0.0.4; charset=utf-8",
            )
        }
        (Some("GET"), Some("/healthz")) => ("200 OK", "ok\n".to_owned(), "text/plain"),
        (Some("GET"), Some("/readyz")) => {
            let problems = readiness(store).await;
            if problems.is_empty() {
                ("200 OK", "ready\n".to_owned(), "text/plain")
            } else {
                (
                    "503 Service Unavailable",
                    format!("not ready: {}\n", problems.join("; ")),
                    "text/plain",
                )
            }
        }
        (Some("GET"), _) => (
            "404 Not Found",
            "metrics are at /metrics; health at /healthz and /readyz\n".to_owned(),
            "text/plain",
        ),
        _ => (
            "405 Method Not Allowed",
            "only GET\n".to_owned(),
            "text/plain",
        ),
    };
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// What keeps the bot from serving: the gateway down, the database not
/// answering (within 2 s). Empty when ready.
async fn readiness(store: Option<&Store>) -> Vec<&'static str> {
    let mut problems = Vec::new();
    if !registry().gateway_connected() {
        problems.push("gateway not connected");
    }
    if let Some(store) = store {
        let ping = tokio::time::timeout(Duration::from_secs(2), store.ping()).await;
        if !matches!(ping, Ok(Ok(()))) {
            problems.push("database not answering");
        }
    }
    problems
}

/// The open-games count, cached for a few seconds so that frequent scrapes
/// from several processes do not each count the table.
async fn open_games(store: &Store) -> Option<i64> {
    static CACHE: OnceLock<Mutex<Option<(Instant, i64)>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(None));
    if let Some((at, n)) = *cache.lock().unwrap_or_else(|e| e.into_inner()) {
        if at.elapsed() < Duration::from_secs(5) {
            return Some(n);
        }
    }
    match store.open_game_count().await {
        Ok(n) => {
            *cache.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), n));
            Some(n)
        }
        Err(e) => {
            tracing::warn!(error = %e, "metrics: cannot count open games");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_cumulative_in_the_text_format() {
        let h = Histogram::new();
        h.observe(Duration::from_micros(500));
        h.observe(Duration::from_millis(20));
        h.observe(Duration::from_secs(60));
        let mut out = String::new();
        h.write(&mut out, "x", "help");
        assert!(out.contains("x_bucket{le=\"0.001\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"0.025\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"10\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"+Inf\"} 3\n"), "{out}");
        assert!(out.contains("x_count 3\n"), "{out}");
    }

    #[tokio::test]
    async fn serves_metrics_over_http() {
        command_handled("help", Outcome::Ok, Duration::from_millis(2));
        move_applied();
        let (addr, task) = spawn("127.0.0.1:0".parse().unwrap(), None).await.unwrap();
        let get = |path: &'static str| async move {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            s.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
                .await
                .unwrap();
            let mut text = String::new();
            s.read_to_string(&mut text).await.unwrap();
            text
        };
        let text = get("/metrics").await;
        assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
        assert!(
            text.contains("chessbot_commands_total{command=\"help\",outcome=\"ok\"}"),
            "{text}"
        );
        assert!(text.contains("chessbot_moves_applied_total "), "{text}");
        assert!(text.contains("# TYPE chessbot_render_seconds histogram"));
        assert!(get("/").await.starts_with("HTTP/1.1 404"));
        task.abort();
    }
}
