//! The club's pages: a server's tournaments, ladder, profiles and games,
//! at `/club/{slug}/…` while its moderators have them on (`/settings
//! web`). Every page is whole HTML that works without script; where script
//! runs, `club.js` steps through games and keeps tournament and ladder
//! pages up to date (`live`). A page that is off, unknown or not the
//! club's is the same 404 as any unknown address.
//!
//! - `layout`: the frame every page shares (navigation, languages).
//! - `ladder`, `tournament`, `viewer`: the pages.
//! - `chart`: the points and advantage charts, drawn as SVG in the page.

mod chart;
mod ladder;
mod layout;
mod live;
mod tournament;
mod viewer;

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use serde::Deserialize;

use super::{pages, Web};
use crate::{i18n::Lang, service::pages::Club};

/// The club routes.
pub(super) fn routes() -> Router<Web> {
    Router::new()
        .route("/club/:slug", get(club_home))
        // The address as `/settings web:` gave it before it dropped the
        // slash; links to it stay in channels.
        .route("/club/:slug/", get(club_home))
        .route("/club/:slug/events", get(live::events))
        .route("/club/:slug/ladder", get(ladder::ladder))
        .route("/club/:slug/player/:user", get(ladder::profile))
        .route("/club/:slug/tournament/:id", get(tournament::page))
        .route("/club/:slug/tournament/:id/trf", get(tournament::trf))
        .route("/club/:slug/tournament/:id/pgn", get(tournament::pgn))
        .route("/club/:slug/game/:id", get(viewer::page))
        .route("/club/:slug/game/:id/pgn", get(viewer::pgn))
        .route("/club/:slug/game/:id/board", get(viewer::board))
}

/// The query every club page understands.
#[derive(Debug, Default, Deserialize)]
pub(super) struct PageQuery {
    /// `en` or `zh-CN`: the reader's choice (kept in a cookie after).
    pub lang: Option<String>,
    /// The leaderboard's page (text: a page that is no number is simply
    /// not found, never a deserialisation error).
    pub page: Option<String>,
    /// The viewer's position (plies from the start; past the end or no
    /// number: the last position).
    pub ply: Option<String>,
    /// The ladder's variant (lichess's key; none: standard chess).
    pub variant: Option<String>,
}

impl PageQuery {
    /// The page asked for (1 when none); `None` if it is no page number.
    pub fn page(&self) -> Option<i64> {
        match &self.page {
            None => Some(1),
            Some(text) => text.trim().parse().ok(),
        }
    }

    /// The ladder's variant (standard when none); `None` if no variant has
    /// that key.
    pub fn variant(&self) -> Option<crate::chess::Variant> {
        match &self.variant {
            None => Some(crate::chess::Variant::Standard),
            Some(key) => crate::chess::Variant::from_key(key),
        }
    }

    /// The position asked for, if any.
    pub fn ply(&self) -> Option<usize> {
        self.ply
            .as_deref()
            .and_then(|text| text.trim().parse().ok())
    }
}

/// The cookie that keeps a reader's language choice.
const LANG_COOKIE: &str = "chessbot_lang";

/// A club page's request, resolved: the club and the reader's language.
pub(super) struct Visit {
    pub club: Club,
    pub lang: Lang,
    /// The language was chosen in the query: the answer sets the cookie.
    pub chosen: Option<Lang>,
}

impl Visit {
    /// Finds the club of `slug` and the language to answer in; `Err` is
    /// the 404 to answer instead.
    pub async fn open(
        web: &Web,
        slug: &str,
        query: &PageQuery,
        headers: &HeaderMap,
    ) -> Result<Visit, Response> {
        let fallback = pages::request_lang(web, headers, None).await;
        let club = match web.service.club(slug).await {
            Ok(Some(club)) => club,
            _ => return Err(pages::not_found_in(fallback)),
        };
        let chosen = query.lang.as_deref().and_then(Lang::parse);
        let asked = chosen
            .or_else(|| cookie(headers, LANG_COOKIE).and_then(Lang::parse))
            .or_else(|| pages::accept_language_known(headers));
        let lang = web.service.club_lang(&club, asked).await;
        Ok(Visit { club, lang, chosen })
    }

    /// [`Visit::open`] for a page of one numbered thing (a tournament, a
    /// game): an id that is no number is the same 404 as an unknown one.
    pub async fn open_item(
        web: &Web,
        slug: &str,
        id: &str,
        query: &PageQuery,
        headers: &HeaderMap,
    ) -> Result<(Visit, i64), Response> {
        let visit = Visit::open(web, slug, query, headers).await?;
        match id.parse::<i64>() {
            Ok(id) => Ok((visit, id)),
            Err(_) => Err(visit.not_found()),
        }
    }

    pub fn not_found(&self) -> Response {
        pages::not_found_in(self.lang)
    }

    /// A whole page: the layout around `body`, as a 200.
    pub fn page(&self, title: &str, here: &str, body: &str, extra: layout::Extra) -> Response {
        let html = layout::page(self, title, here, body, &extra);
        let mut response = pages::page(StatusCode::OK, html);
        self.remember_lang(&mut response);
        response
    }

    /// Sets the language cookie when the reader chose one.
    fn remember_lang(&self, response: &mut Response) {
        if let Some(lang) = self.chosen {
            let cookie = format!(
                "{LANG_COOKIE}={}; Path=/club; Max-Age=31536000; SameSite=Lax",
                lang.code()
            );
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
        }
    }
}

/// The value of cookie `name`, if the request carries it.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (key, value) = pair.trim().split_once('=')?;
            (key == name).then_some(value)
        })
}

/// A file to download (TRF, PGN), named.
pub(super) fn download(media_type: &'static str, file_name: &str, body: String) -> Response {
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    pages::secure_headers(headers);
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{file_name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// `GET /club/{slug}`: the club's front page: its tournaments and the
/// way to its ladder.
async fn club_home(
    State(web): State<Web>,
    Path(slug): Path<String>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let visit = match Visit::open(&web, &slug, &query, &headers).await {
        Ok(v) => v,
        Err(page) => return page,
    };
    let tournaments = web
        .service
        .store()
        .tournaments_of(visit.club.server(), false, 50)
        .await
        .unwrap_or_default();
    let body = tournament::list(&visit, &tournaments);
    let title = crate::t!(visit.lang, "web-club-title");
    visit.page(&title, "home", &body, layout::Extra::default())
}
