//! The running bot's `/metrics`, scraped over HTTP and read by the Prometheus
//! project's own parsers (the PyPI package `prometheus-client`: its
//! Prometheus text 0.0.4 parser, and its strict OpenMetrics parser for the
//! page served to `Accept: application/openmetrics-text`).
//!
//! The real bot (`platform::discord::run`) runs against the fake Discord of
//! `tests/support` with `metrics_addr` set. The test checks every metric
//! family and its type, that `/healthz` and `/readyz` answer, and that the
//! command, refusal and interaction counters move after a burst of slash
//! commands that goes past the flood limit.
//!
//! Skipped, with a notice, where python3 with `prometheus_client` is missing;
//! under CI (`CI` set) that is a failure instead (`.ci/run` installs it).

use crate::{optional, support};

use std::{collections::BTreeMap, process::Stdio, time::Duration};

use chessbot::platform::discord::{run, BotSettings};
use serde_json::{json, Value};
use support::fake_discord::{FakeDiscord, ALICE, CHESS_CHANNEL, GUILD_ID, TOKEN};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::oneshot,
};

const WAIT: Duration = Duration::from_secs(15);

/// Every family the bot exports, as the parsers name them (a counter
/// without its `_total`), with its type.
const FAMILIES: [(&str, &str); 10] = [
    ("chessbot_commands", "counter"),
    ("chessbot_command_seconds", "histogram"),
    ("chessbot_moves_applied", "counter"),
    ("chessbot_render_seconds", "histogram"),
    ("chessbot_interaction_seconds", "histogram"),
    ("chessbot_rate_limited", "counter"),
    ("chessbot_backups", "counter"),
    ("chessbot_backup_seconds", "histogram"),
    ("chessbot_last_backup_timestamp_seconds", "gauge"),
    ("chessbot_open_games", "gauge"),
];

/// Parses exposition text (stdin) with prometheus_client and prints the
/// families as JSON: {name: {"type": ..., "samples": [[name, labels, value]]}}.
const PARSER: &str = r#"
import json, sys
from prometheus_client.parser import text_string_to_metric_families as prometheus
from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics
parse = openmetrics if sys.argv[1] == "openmetrics" else prometheus
out = {}
for f in parse(sys.stdin.read()):
    out[f.name] = {"type": f.type, "samples": [[s.name, s.labels, s.value] for s in f.samples]}
print(json.dumps(out))
"#;

/// The families of `text`, as parsed by prometheus_client (`format`:
/// `prometheus` or `openmetrics`). A page the parser rejects fails the test.
fn parse(text: &str, format: &str) -> BTreeMap<String, Value> {
    use std::io::Write;
    let mut child = std::process::Command::new("python3")
        .args(["-c", PARSER, format])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .expect("stdin piped")
        .write_all(text.as_bytes())
        .expect("page written to the parser");
    let out = child.wait_with_output().expect("parser ends");
    assert!(
        out.status.success(),
        "the {format} parser rejected the page:\n{}\n--- page ---\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("parser prints JSON")
}

/// One HTTP/1.1 GET; returns the status line, the head and the body.
async fn get(port: u16, path: &str, accept: Option<&str>) -> (String, String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connects");
    let accept = accept.map_or(String::new(), |a| format!("Accept: {a}\r\n"));
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n{accept}Connection: close\r\n\r\n")
            .as_bytes(),
    )
    .await
    .expect("request sent");
    let mut text = String::new();
    s.read_to_string(&mut text).await.expect("answer read");
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.lines().next().unwrap_or_default().to_owned();
    (status, head.to_owned(), body.to_owned())
}

/// The value of the sample `name` with exactly `labels`, or 0.
fn sample(
    families: &BTreeMap<String, Value>,
    family: &str,
    name: &str,
    labels: &[(&str, &str)],
) -> f64 {
    let Some(samples) = families.get(family).and_then(|f| f["samples"].as_array()) else {
        return 0.0;
    };
    samples
        .iter()
        .filter(|s| s[0] == name)
        .filter(|s| {
            let got = s[1].as_object().map_or(0, |m| m.len());
            got == labels.len() && labels.iter().all(|(k, v)| s[1][*k] == *v)
        })
        .map(|s| s[2].as_f64().unwrap_or(0.0))
        .sum()
}

/// Families with labels that appear with their first series (the library
/// leaves a family without series out of the page).
const LAZY: [&str; 2] = ["chessbot_commands", "chessbot_rate_limited"];

/// Checks the families and their types; `all`: the lazy ones must be there
/// too (after commands and a refusal).
fn assert_families(families: &BTreeMap<String, Value>, format: &str, all: bool) {
    for (name, kind) in FAMILIES {
        let Some(family) = families.get(name) else {
            assert!(
                !all && LAZY.contains(&name),
                "{format}: family {name} missing: {families:?}"
            );
            continue;
        };
        assert_eq!(family["type"], kind, "{format}: type of {name}");
    }
    let ours: Vec<&String> = families
        .keys()
        .filter(|k| k.starts_with("chessbot_"))
        .collect();
    assert!(
        ours.iter()
            .all(|k| FAMILIES.iter().any(|(name, _)| name == k)),
        "{format}: unexpected families {ours:?}"
    );
    // Both backup outcomes are there before the first backup.
    for outcome in ["ok", "error"] {
        assert_eq!(
            sample(
                families,
                "chessbot_backups",
                "chessbot_backups_total",
                &[("outcome", outcome)]
            ),
            0.0,
            "{format}: backups{{outcome={outcome}}}"
        );
    }
    // Histograms carry the 1 ms .. 10 s buckets.
    let buckets = families["chessbot_command_seconds"]["samples"]
        .as_array()
        .map_or(0, |s| {
            s.iter()
                .filter(|s| s[0] == "chessbot_command_seconds_bucket")
                .count()
        });
    assert_eq!(buckets, 13, "{format}: 12 bounds and +Inf");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_bot_exposes_every_metric_to_prometheus_parsers() {
    if !optional::require(
        "python3 with prometheus_client",
        optional::python_module("prometheus_client"),
        "the metrics exposition test",
        "pip install prometheus-client",
    ) {
        return;
    }
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = format!("sqlite:{}", dir.path().join("chessbot.db").display());
    let port = free_port();
    let mut settings = BotSettings::new(TOKEN, &db);
    settings.http_proxy = Some(fake.http_url());
    settings.dev_guild_id = Some(GUILD_ID);
    settings.metrics_addr = Some(([127, 0, 0, 1], port).into());
    let (stop, stopped) = oneshot::channel::<()>();
    let bot = tokio::spawn(run(settings, async move {
        let _ = stopped.await;
    }));
    fake.wait_commands(WAIT).await;

    // Ready once the gateway is up and the database answers.
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (status, _, body) = get(port, "/readyz", None).await;
        if status.contains(" 200 ") {
            assert_eq!(body, "ready\n");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "/readyz: {status} {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, _, body) = get(port, "/healthz", None).await;
    assert!(
        status.contains(" 200 ") && body == "ok\n",
        "{status} {body}"
    );

    // Before: the Prometheus text format 0.0.4.
    let (status, head, page) = get(port, "/metrics", None).await;
    assert!(status.contains(" 200 "), "{status}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    let before = parse(&page, "prometheus");
    assert_families(&before, "prometheus", false);
    assert_eq!(
        sample(&before, "chessbot_open_games", "chessbot_open_games", &[]),
        0.0
    );

    // /help in a server channel (in a DM the adapter answers it without the
    // service). Commands beyond the burst: 20 go through, the rest are refused by the
    // flood limit (the refill is one a second). Refusals past the first
    // get no answer, so the counters are awaited on the page itself.
    const SENT: usize = 26;
    let mut first = None;
    for _ in 0..SENT {
        let i = fake
            .send_slash(&ALICE, CHESS_CHANNEL, "help", json!([]))
            .await;
        first.get_or_insert(i);
    }
    if let Some(i) = first {
        fake.wait_callback(&i, WAIT).await;
    }

    // After: OpenMetrics, as Prometheus asks for it.
    let accept = "application/openmetrics-text;version=1.0.0;q=0.75,text/plain;version=0.0.4;q=0.5";
    let help_ok = [("command", "help"), ("outcome", "ok")];
    let help_limited = [("command", "help"), ("outcome", "limited")];
    let deadline = tokio::time::Instant::now() + WAIT;
    let after = loop {
        let (status, head, page) = get(port, "/metrics", Some(accept)).await;
        assert!(status.contains(" 200 "), "{status}");
        assert!(head.contains("application/openmetrics-text"), "{head}");
        let after = parse(&page, "openmetrics");
        let handled = sample(
            &after,
            "chessbot_commands",
            "chessbot_commands_total",
            &help_ok,
        ) + sample(
            &after,
            "chessbot_commands",
            "chessbot_commands_total",
            &help_limited,
        );
        // The command is counted before its answer is sent, and the
        // interaction's time only after: wait for both.
        let answered = sample(
            &after,
            "chessbot_interaction_seconds",
            "chessbot_interaction_seconds_count",
            &[],
        ) - sample(
            &before,
            "chessbot_interaction_seconds",
            "chessbot_interaction_seconds_count",
            &[],
        );
        if (handled >= SENT as f64 && answered >= 20.0) || tokio::time::Instant::now() > deadline {
            break after;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_families(&after, "openmetrics", true);

    let moved = |family: &str, name: &str, labels: &[(&str, &str)]| {
        sample(&after, family, name, labels) - sample(&before, family, name, labels)
    };
    let ok = moved("chessbot_commands", "chessbot_commands_total", &help_ok);
    let limited = moved(
        "chessbot_commands",
        "chessbot_commands_total",
        &help_limited,
    );
    assert!(
        ok >= 20.0 && limited >= 1.0 && ok + limited == SENT as f64,
        "ok {ok}, limited {limited}: {after:?}"
    );
    assert_eq!(
        moved(
            "chessbot_rate_limited",
            "chessbot_rate_limited_total",
            &[("kind", "command")]
        ),
        limited,
        "every limited command is counted as a refusal"
    );
    assert!(
        moved(
            "chessbot_command_seconds",
            "chessbot_command_seconds_count",
            &[]
        ) >= SENT as f64
    );
    assert!(
        moved(
            "chessbot_interaction_seconds",
            "chessbot_interaction_seconds_count",
            &[]
        ) >= 20.0
    );

    let _ = stop.send(());
    match tokio::time::timeout(WAIT, bot).await {
        Ok(Ok(Ok(()))) => {}
        other => panic!("the bot did not stop cleanly: {other:?}"),
    }
}
