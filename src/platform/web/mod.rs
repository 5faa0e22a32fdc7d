//! The web adapter: the live board in the browser, the third adapter beside
//! Discord and the console. It serves a page per game and one WebSocket per
//! open page; a move or a button from the page is a [`Command`] through
//! [`Service::handle`] like a Discord one, answered after the commit, and
//! what it says in public is posted in the game's channel too. Nothing
//! here knows a rule or a table: positions, legal moves and what a viewer
//! may do come from [`Service::live_view`].
//!
//! - `pages`: the HTML (server-rendered, every text escaped, no inline
//!   script) and the security headers.
//! - `session`: signed links exchanged for a session cookie.
//! - `socket`: the WebSocket protocol (`protocol`: its JSON frames).
//! - `assets`: chessground and the board's script and styles, embedded.
//! - `club`: the club's pages (tournaments, ladder, profiles, games).
//! - `activity`: the board as a Discord Activity (its page and sign-in).
//!
//! [`Command`]: crate::service::Command

mod activity;
mod assets;
mod club;
mod pages;
mod protocol;
mod serve;
mod session;
mod socket;

use std::{net::SocketAddr, sync::Arc};

pub use activity::{api_base, ActivityAuth};
pub use assets::files as asset_files;
pub use serve::serve_nodelay;

use axum::{routing::get, Router};

use crate::service::{links::WebLinks, Service};

/// What the web board needs to run.
#[derive(Clone)]
pub struct WebOptions {
    /// Where players' links point (`https://chess.example.org`).
    pub links: WebLinks,
    /// The Discord Activity's sign-in, if the operator set it up.
    pub activity: Option<ActivityAuth>,
}

/// Shared by every request.
#[derive(Clone)]
struct Web {
    service: Service,
    links: Arc<WebLinks>,
    activity: Option<Arc<ActivityAuth>>,
}

/// The signing secret: the configured one, else the one kept in the
/// database (made on first use).
pub async fn secret(service: &Service, configured: Option<&str>) -> anyhow::Result<Vec<u8>> {
    Ok(match configured {
        Some(secret) if !secret.trim().is_empty() => secret.trim().as_bytes().to_vec(),
        _ => service.store().web_secret().await?.into_bytes(),
    })
}

/// The public address for `addr` when none is configured: what a browser
/// on this machine opens.
pub fn default_public_url(addr: SocketAddr) -> String {
    let mut shown = addr;
    if shown.ip().is_unspecified() {
        shown.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    format!("http://{shown}")
}

/// Binds `addr` and serves the web board until the process ends; returns
/// the address bound (port 0 picks one). Board messages get their Watch
/// live and Play in browser buttons from now on, and on PostgreSQL the
/// changes other processes make reach this process's pages.
pub async fn start(
    service: Service,
    addr: SocketAddr,
    options: WebOptions,
) -> anyhow::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot serve the web board on {addr}: {e}"))?;
    let bound = listener.local_addr()?;
    service.enable_web_links(options.links.clone());
    if options.activity.is_some() {
        service.enable_activity();
    }
    service.listen_for_changes().await?;
    let app = router(service, options);
    let task = tokio::spawn(serve_nodelay(listener, app));
    tracing::info!(%bound, "web board serving");
    Ok((bound, task))
}

/// [`start`] with the operator's settings: the public address (default
/// `http://` + the address served) and the secret (default: kept in the
/// database).
pub async fn start_board(
    service: &Service,
    board: &crate::platform::discord::WebBoard,
) -> anyhow::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let secret = secret(service, board.secret.as_ref().map(|s| s.expose())).await?;
    let public_url = board
        .public_url
        .clone()
        .unwrap_or_else(|| default_public_url(board.addr));
    let links = WebLinks::new(&public_url, &secret);
    let options = WebOptions {
        links,
        activity: board.activity.clone(),
    };
    let (bound, task) = start(service.clone(), board.addr, options).await?;
    tracing::info!(%bound, public_url = %public_url, "web board: players' links start with the public address");
    Ok((bound, task))
}

fn router(service: Service, options: WebOptions) -> Router {
    let web = Web {
        service,
        links: Arc::new(options.links),
        activity: options.activity.map(Arc::new),
    };
    Router::new()
        .route("/", get(pages::index))
        .route("/play/:game", get(session::exchange_link))
        .route("/game/:game", get(pages::game_page))
        .route("/game/:game/ws", get(socket::upgrade))
        .route("/assets/:file", get(assets::asset))
        .route("/theme/:file", get(assets::theme))
        .route("/activity", get(activity::page))
        .route("/activity/token", axum::routing::post(activity::token))
        .merge(club::routes())
        .fallback(pages::not_found)
        .with_state(web)
}
