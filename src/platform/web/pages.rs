//! The HTML pages: a game's board page (server-rendered status and moves,
//! enhanced by `board.js`), and the refusals (403, 404). Every text that
//! comes from users or the catalogues is escaped; no page has inline
//! script (its words travel as a JSON data block, which no browser runs).

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{Html, IntoResponse, Response},
};

use super::{session, Web};
use crate::{i18n::Lang, service::LiveView, t};

/// The catalogue messages `board.js` shows, in `lang`, sent with each
/// page (the page fills in `{left}` itself as a deadline nears).
fn page_words(lang: Lang) -> [(&'static str, String); 40] {
    [
        ("web-connecting", t!(lang, "web-connecting")),
        ("web-reconnecting", t!(lang, "web-reconnecting")),
        ("web-watching", t!(lang, "web-watching")),
        ("web-your-turn", t!(lang, "web-your-turn")),
        ("web-premove-set", t!(lang, "web-premove-set")),
        (
            "web-premove-cancel-hint",
            t!(lang, "web-premove-cancel-hint"),
        ),
        ("web-resign", t!(lang, "web-resign")),
        ("web-resign-confirm", t!(lang, "web-resign-confirm")),
        ("web-yes", t!(lang, "web-yes")),
        ("web-no", t!(lang, "web-no")),
        ("web-draw-offer", t!(lang, "web-draw-offer")),
        ("web-draw-accept", t!(lang, "web-draw-accept")),
        ("web-draw-decline", t!(lang, "web-draw-decline")),
        ("web-draw-claim", t!(lang, "web-draw-claim")),
        (
            "web-draw-offered-by-you",
            t!(lang, "web-draw-offered-by-you"),
        ),
        (
            "web-draw-offered-to-you",
            t!(lang, "web-draw-offered-to-you"),
        ),
        ("web-takeback", t!(lang, "web-takeback")),
        ("web-takeback-accept", t!(lang, "web-takeback-accept")),
        ("web-takeback-decline", t!(lang, "web-takeback-decline")),
        (
            "web-takeback-asked-by-you",
            t!(lang, "web-takeback-asked-by-you"),
        ),
        (
            "web-takeback-asked-to-you",
            t!(lang, "web-takeback-asked-to-you"),
        ),
        ("web-abort", t!(lang, "web-abort")),
        ("web-rematch", t!(lang, "web-rematch")),
        (
            "web-rematch-offered-to-you",
            t!(lang, "web-rematch-offered-to-you"),
        ),
        ("web-give-time", t!(lang, "web-give-time")),
        ("web-promote-to", t!(lang, "web-promote-to")),
        ("web-queen", t!(lang, "web-queen")),
        ("web-rook", t!(lang, "web-rook")),
        ("web-bishop", t!(lang, "web-bishop")),
        ("web-knight", t!(lang, "web-knight")),
        ("web-king", t!(lang, "web-king")),
        ("web-pawn", t!(lang, "web-pawn")),
        ("web-pocket", t!(lang, "web-pocket")),
        ("web-checks-given", t!(lang, "web-checks-given")),
        ("web-moves", t!(lang, "web-moves")),
        ("web-deadline", t!(lang, "web-deadline", left = "{left}")),
        ("web-game-over", t!(lang, "web-game-over")),
        ("web-white", t!(lang, "web-white")),
        ("web-black", t!(lang, "web-black")),
        ("web-rematch-open", t!(lang, "web-rematch-open")),
    ]
}

/// The Content-Security-Policy of every page: scripts, styles and the
/// socket from this origin only, nothing inline; framed only by this
/// origin and Discord (the board runs as an Activity inside Discord).
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com";

/// Headers every page carries: the CSP, no sniffing, no referrer (a
/// player's link must not leak to another site), and no caching (a page
/// may have been reached with a token).
pub(super) fn secure_headers(headers: &mut HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

pub(super) fn page(status: StatusCode, html: String) -> Response {
    let mut response = (status, Html(html)).into_response();
    secure_headers(response.headers_mut());
    response
}

/// The language of a page: the viewer's stored locale on the game's
/// server, else the browser's first language the catalogues have.
pub(super) async fn request_lang(
    web: &Web,
    headers: &HeaderMap,
    player: Option<(&str, &str)>,
) -> Lang {
    if let Some((server, user)) = player
        && let Ok(Some(row)) = web.service.store().player(server, user).await
        && let Some(locale) = row.locale.as_deref()
    {
        return Lang::from_locale(Some(locale));
    }
    accept_language(
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default(),
    )
}

/// The first language of the request's `Accept-Language` that has a
/// catalogue, if it names one.
pub(super) fn accept_language_known(headers: &HeaderMap) -> Option<Lang> {
    let header = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())?;
    accept_language_of(header)
}

/// The first language of an `Accept-Language` header that has a
/// catalogue, by the browser's weights; English if none.
fn accept_language(header: &str) -> Lang {
    accept_language_of(header).unwrap_or(Lang::En)
}

fn accept_language_of(header: &str) -> Option<Lang> {
    let mut choices: Vec<(f32, usize, &str)> = header
        .split(',')
        .enumerate()
        .filter_map(|(i, part)| {
            let mut fields = part.split(';');
            let tag = fields.next()?.trim();
            let weight = fields
                .find_map(|f| f.trim().strip_prefix("q="))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            (!tag.is_empty() && weight > 0.0).then_some((weight, i, tag))
        })
        .collect();
    choices.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    choices.iter().find_map(|(_, _, tag)| {
        let lower = tag.to_ascii_lowercase();
        if lower.starts_with("zh") {
            Some(Lang::ZhCn)
        } else if lower.starts_with("en") {
            Some(Lang::En)
        } else {
            None
        }
    })
}

/// Text safe inside HTML elements and attribute values.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A short page saying one thing (an error).
fn message_page(lang: Lang, title: &str, text: &str) -> String {
    format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/assets/board.css\"></head>\
         <body><main class=\"message\"><h1>{title}</h1><p>{text}</p></main></body></html>",
        code = lang.code(),
        title = escape(title),
        text = escape(text),
    )
}

/// 403: a forged, expired or other game's link.
pub(super) fn forbidden(lang: Lang) -> Response {
    let html = message_page(
        lang,
        &t!(lang, "web-forbidden-title"),
        &t!(lang, "web-forbidden"),
    );
    page(StatusCode::FORBIDDEN, html)
}

pub(super) async fn not_found(State(web): State<Web>, headers: HeaderMap) -> Response {
    let lang = request_lang(&web, &headers, None).await;
    not_found_in(lang)
}

pub(super) fn not_found_in(lang: Lang) -> Response {
    let html = message_page(
        lang,
        &t!(lang, "web-not-found-title"),
        &t!(lang, "web-not-found"),
    );
    page(StatusCode::NOT_FOUND, html)
}

/// `GET /`: what this address is, and the clubs whose pages are public.
pub(super) async fn index(State(web): State<Web>, headers: HeaderMap) -> Response {
    let lang = request_lang(&web, &headers, None).await;
    let clubs = web.service.public_clubs().await.unwrap_or_default();
    let mut html = message_page(lang, &t!(lang, "web-index-title"), &t!(lang, "web-index"));
    if !clubs.is_empty() {
        let list: String = clubs
            .iter()
            .map(|club| {
                format!(
                    "<li><a href=\"{}\">{}</a></li>",
                    escape(&club.path("")),
                    escape(&t!(lang, "web-club-listed", slug = club.slug.as_str()))
                )
            })
            .collect();
        html = html.replace(
            "</main>",
            &format!(
                "<h2>{}</h2><ul>{list}</ul></main>",
                escape(&t!(lang, "web-public-clubs"))
            ),
        );
    }
    page(StatusCode::OK, html)
}

/// Whether a viewer who is not a player may see game `game`'s board.
pub(super) async fn may_watch(web: &Web, view: &LiveView) -> bool {
    view.viewer.is_some()
        || web
            .service
            .store()
            .server(&view.server_id)
            .await
            .is_ok_and(|s| s.spectators)
}

/// Who is looking at game `game` and in which language; `Err` is the page
/// to answer instead (no such game, spectators not allowed).
pub(super) async fn viewer_of(
    web: &Web,
    game: &str,
    headers: &HeaderMap,
    session: &session::SessionQuery,
) -> Result<(LiveView, Option<String>, Lang), Response> {
    let fallback = request_lang(web, headers, None).await;
    let Ok(game) = game.parse::<i64>() else {
        return Err(not_found_in(fallback));
    };
    let user = session::user_of(web, headers, session);
    // The game's server, to read the viewer's stored language there.
    let server = match web.service.store().game(game).await {
        Ok(Some(record)) => record.game.server_id,
        _ => return Err(not_found_in(fallback)),
    };
    let lang = request_lang(web, headers, user.as_deref().map(|u| (server.as_str(), u))).await;
    let view = match web.service.live_view(game, user.as_deref(), lang).await {
        Ok(Some(view)) => view,
        _ => return Err(not_found_in(lang)),
    };
    // A session of someone who does not play this game watches it.
    let user = user.filter(|_| view.viewer.is_some());
    if !may_watch(web, &view).await {
        let html = message_page(
            lang,
            &t!(lang, "web-forbidden-title"),
            &t!(lang, "web-spectators-off"),
        );
        return Err(page(StatusCode::FORBIDDEN, html));
    }
    Ok((view, user, lang))
}

/// `GET /game/{game}`: the board page.
pub(super) async fn game_page(
    State(web): State<Web>,
    Path(game): Path<String>,
    Query(session): Query<session::SessionQuery>,
    headers: HeaderMap,
) -> Response {
    let (view, _user, lang) = match viewer_of(&web, &game, &headers, &session).await {
        Ok(found) => found,
        Err(page) => return page,
    };
    let theme = web
        .service
        .store()
        .server(&view.server_id)
        .await
        .map(|s| s.theme)
        .unwrap_or_else(|_| "brown".to_owned());
    // The socket is opened with the same session as the page.
    let ws = match &session.s {
        Some(token) => format!("/game/{}/ws?s={token}", view.game_id),
        None => format!("/game/{}/ws", view.game_id),
    };
    page(StatusCode::OK, board_page(lang, &view, &theme, &ws))
}

/// The words of `board.js` in `lang`, as a JSON object safe inside a
/// `<script type="application/json">` block.
fn words_json(lang: Lang) -> String {
    let words: serde_json::Map<String, serde_json::Value> = page_words(lang)
        .into_iter()
        .map(|(id, text)| (id.to_owned(), serde_json::Value::String(text)))
        .collect();
    script_json(&serde_json::Value::Object(words))
}

/// `value` as JSON safe inside a `<script type="application/json">` block
/// (no `<`, `>` or `&` that could close it).
pub(super) fn script_json(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn board_page(lang: Lang, view: &LiveView, theme: &str, ws: &str) -> String {
    let role = if view.viewer.is_some() {
        "player"
    } else {
        "spectator"
    };
    let moves: String = view
        .moves
        .iter()
        .map(|san| format!("<li>{}</li>", escape(san)))
        .collect();
    let [(white, white_points), (black, black_points)] = &view.players;
    let (top, bottom) = match view.orientation {
        shakmaty::Color::White => ((black, black_points), (white, white_points)),
        shakmaty::Color::Black => ((white, white_points), (black, black_points)),
    };
    let player = |id: &str, (name, points): (&String, &String)| {
        format!(
            "<section class=\"player\" id=\"{id}\"><span class=\"name\">{}</span> \
             <span class=\"points\">{}</span> <span class=\"clock\"></span></section>",
            escape(name),
            escape(points)
        )
    };
    format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<title>{title}</title>\
<link rel=\"stylesheet\" href=\"/assets/chessground.base.css\">\
<link rel=\"stylesheet\" href=\"/assets/chessground.cburnett.css\">\
<link rel=\"stylesheet\" href=\"/assets/board.css\">\
<link rel=\"stylesheet\" href=\"/theme/{theme}.css\">\
<script type=\"module\" src=\"/assets/board.js\"></script>\
</head><body data-game=\"{game}\" data-ws=\"{ws}\" data-role=\"{role}\" \
data-variant=\"{variant}\">\
<script type=\"application/json\" id=\"chessbot-words\">{words}</script>\
<main class=\"game\">{top}\
<div id=\"board-wrap\"><div id=\"board\"></div></div>{bottom}\
<aside id=\"side\"><div id=\"status\" role=\"status\" aria-live=\"polite\">{status}</div>\
<ol id=\"moves\">{moves}</ol><div id=\"actions\"></div><div id=\"prompt\"></div>\
<div id=\"notice\" role=\"alert\"></div></aside></main></body></html>",
        code = lang.code(),
        title = escape(&view.title),
        theme = escape(theme),
        game = view.game_id,
        ws = escape(ws),
        variant = view.variant.key,
        words = words_json(lang),
        top = player("player-top", (top.0, top.1)),
        bottom = player("player-bottom", (bottom.0, bottom.1)),
        status = escape(&view.status),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browsers_first_known_language_wins() {
        assert_eq!(accept_language("zh-CN,zh;q=0.9,en;q=0.8"), Lang::ZhCn);
        assert_eq!(accept_language("de-DE,en;q=0.5,zh;q=0.4"), Lang::En);
        assert_eq!(accept_language("fr, zh-TW;q=0.7, en;q=0.3"), Lang::ZhCn);
        assert_eq!(accept_language("en;q=0.1, zh;q=0.9"), Lang::ZhCn);
        assert_eq!(accept_language(""), Lang::En);
        assert_eq!(accept_language("zh;q=0"), Lang::En);
    }

    #[test]
    fn user_text_cannot_open_a_tag() {
        assert_eq!(
            escape("<script>\"a\" & 'b'</script>"),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
    }
}
