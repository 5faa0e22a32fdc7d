//! Serving an axum app with TCP_NODELAY on every connection. axum 0.7's
//! own `serve` leaves Nagle's algorithm on, so a small frame written while
//! the previous one is unacknowledged waits for the peer's delayed ACK
//! (40 ms on Linux): every board update would arrive 40 ms late.

use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::conn::auto::Builder,
    service::TowerToHyperService,
};

/// Accepts connections on `listener` and serves `app` on each (WebSocket
/// upgrades included) until the process ends.
pub async fn serve_nodelay(listener: tokio::net::TcpListener, app: axum::Router) {
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, usually: wait instead of spinning.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _ = Builder::new(TokioExecutor::new())
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .await;
        });
    }
}
