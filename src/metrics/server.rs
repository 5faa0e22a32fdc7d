//! The operations HTTP server (axum): `GET /metrics` for Prometheus,
//! `GET /healthz` (the process is alive) and `GET /readyz` (the gateway is
//! connected, as the adapter reports with
//! [`set_gateway_connected`](super::set_gateway_connected), and the database
//! answers a query).
//!
//! `/metrics` speaks the Prometheus text format 0.0.4, or OpenMetrics when
//! the scraper's `Accept` header asks for `application/openmetrics-text`
//! (Prometheus itself does).

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use axum::{
    extract::State,
    http::{header, HeaderMap, Method, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use tokio::net::TcpListener;

use crate::store::Store;

/// Binds `addr` and serves in a background task. With a store, the
/// open-games gauge is read from it at scrape time and `/readyz` pings it.
pub async fn spawn(
    addr: SocketAddr,
    store: Option<Store>,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    tracing::info!(%local, "serving Prometheus metrics on /metrics");
    let app = router(store);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::warn!(error = %e, "metrics server stopped");
        }
    });
    Ok((local, task))
}

/// The routes; anything else is a 404 (a 405 for other methods) that says
/// where things are.
pub fn router(store: Option<Store>) -> Router {
    Router::new()
        .route("/metrics", get(metrics).fallback(only_get))
        .route("/healthz", get(healthz).fallback(only_get))
        .route("/readyz", get(readyz).fallback(only_get))
        .fallback(not_found)
        .with_state(store)
}

async fn metrics(State(store): State<Option<Store>>, headers: HeaderMap) -> Response {
    if let Some(store) = &store {
        refresh_open_games(store).await;
    }
    let openmetrics = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("application/openmetrics-text"));
    let (body, content_type) = super::registry().encode(openmetrics);
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn healthz() -> &'static str {
    "ok\n"
}

async fn readyz(State(store): State<Option<Store>>) -> Response {
    let problems = readiness(store.as_ref()).await;
    if problems.is_empty() {
        "ready\n".into_response()
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("not ready: {}\n", problems.join("; ")),
        )
            .into_response()
    }
}

async fn only_get() -> (StatusCode, &'static str) {
    (StatusCode::METHOD_NOT_ALLOWED, "only GET\n")
}

async fn not_found(method: Method) -> (StatusCode, &'static str) {
    if method == Method::GET {
        (
            StatusCode::NOT_FOUND,
            "metrics are at /metrics; health at /healthz and /readyz\n",
        )
    } else {
        only_get().await
    }
}

/// What keeps the bot from serving: the gateway down, the database not
/// answering (within 2 s). Empty when ready.
async fn readiness(store: Option<&Store>) -> Vec<&'static str> {
    let mut problems = Vec::new();
    if !super::registry().gateway_connected() {
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

/// How long a read open-games count serves further scrapes, so that frequent
/// scrapes from several processes do not each count the table.
const OPEN_GAMES_FRESH: Duration = Duration::from_secs(5);

/// Reads the open-games count from the store unless it was read lately.
async fn refresh_open_games(store: &Store) {
    if super::open_games_read_at().is_some_and(|at| at.elapsed() < OPEN_GAMES_FRESH) {
        return;
    }
    let started = Instant::now();
    match store.open_game_count().await {
        Ok(n) => super::set_open_games(n),
        Err(e) => {
            tracing::warn!(error = %e, took_ms = started.elapsed().as_millis() as u64, "metrics: cannot count open games")
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    async fn get(addr: SocketAddr, method: &str, path: &str) -> String {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(
            format!("{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).await.unwrap();
        text
    }

    #[tokio::test]
    async fn serves_metrics_health_and_refuses_the_rest() {
        super::super::command_handled("help", super::super::Outcome::Ok, Duration::from_millis(2));
        let (addr, task) = spawn("127.0.0.1:0".parse().unwrap(), None).await.unwrap();
        let text = get(addr, "GET", "/metrics").await;
        assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
        assert!(text.contains("text/plain; version=0.0.4"), "{text}");
        assert!(
            text.contains("chessbot_commands_total{command=\"help\",outcome=\"ok\"}"),
            "{text}"
        );
        assert!(get(addr, "GET", "/healthz").await.ends_with("\r\n\r\nok\n"));
        assert!(get(addr, "GET", "/").await.starts_with("HTTP/1.1 404"));
        assert!(get(addr, "POST", "/metrics")
            .await
            .starts_with("HTTP/1.1 405"));
        assert!(get(addr, "DELETE", "/nowhere")
            .await
            .starts_with("HTTP/1.1 405"));
        task.abort();
    }
}
