//! Who a request comes from: a player's signed link is exchanged, on the
//! first visit, for a session cookie (HttpOnly, SameSite=Lax, Secure over
//! https) naming the user, and the browser is sent on to the game's page
//! so the token leaves the address bar. Pages and sockets then read the
//! cookie; without one a visitor is a spectator. The Activity's pages
//! carry the session in their address instead (`?s=`).

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};

use super::{pages, Web};
use crate::service::links::{Purpose, SESSION_VALID_MS};

/// The session cookie's name.
pub(super) const COOKIE: &str = "chessbot_session";

#[derive(serde::Deserialize)]
pub(super) struct LinkQuery {
    t: Option<String>,
}

/// `GET /play/{game}?t=TOKEN`: a valid link for this game sets the
/// session and redirects to the game's page; anything else is refused
/// with a 403 page.
pub(super) async fn exchange_link(
    State(web): State<Web>,
    Path(game): Path<String>,
    Query(query): Query<LinkQuery>,
    headers: HeaderMap,
) -> Response {
    let lang = pages::request_lang(&web, &headers, None).await;
    let now = web.service.now_ms();
    let grant = match (game.parse::<i64>(), query.t.as_deref()) {
        (Ok(game), Some(token)) => web
            .links
            .verify(Purpose::Link, token, now)
            .ok()
            .filter(|grant| grant.game == game),
        _ => None,
    };
    let Some(grant) = grant else {
        return pages::forbidden(lang);
    };
    let session = web
        .links
        .sign(Purpose::Session, 0, &grant.user, now + SESSION_VALID_MS);
    let secure = if web.links.is_https() { "; Secure" } else { "" };
    let cookie = format!(
        "{COOKIE}={session}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        SESSION_VALID_MS / 1000
    );
    let mut response = (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, format!("/game/{}", grant.game))],
    )
        .into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        headers.insert(header::SET_COOKIE, value);
    }
    pages::secure_headers(headers);
    response
}

/// The session a page or socket was opened with in its address
/// (`?s=TOKEN`): the Activity's, inside Discord's iframe, where cookies
/// may be refused.
#[derive(Debug, Default, serde::Deserialize)]
pub(super) struct SessionQuery {
    pub s: Option<String>,
}

/// The user of the request's session (in its address, else its cookie),
/// if it holds a valid one.
pub(super) fn user_of(web: &Web, headers: &HeaderMap, query: &SessionQuery) -> Option<String> {
    let now = web.service.now_ms();
    if let Some(token) = query.s.as_deref() {
        return web
            .links
            .verify(Purpose::Session, token, now)
            .ok()
            .map(|grant| grant.user);
    }
    let cookies = headers.get_all(header::COOKIE);
    cookies
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == COOKIE)
        .find_map(|(_, token)| web.links.verify(Purpose::Session, token, now).ok())
        .map(|grant| grant.user)
}
