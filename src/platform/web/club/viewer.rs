//! The game viewer: the board at one position and the moves, each a link
//! to its position (so it works without script; `club.js` steps through
//! the game in place, with the arrow keys or a click on a move or on the
//! chart); clocks after each move; for an analysed game the advantage
//! chart, the accuracies and the mistakes with the better moves; the PGN.

use std::fmt::Write;

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};

use super::{
    super::{pages::escape, Web},
    chart, download, layout, PageQuery, Visit,
};
use crate::{service::pages::ViewerPage, t};

/// `GET /club/{slug}/game/{id}?ply=N`.
pub(super) async fn page(
    State(web): State<Web>,
    Path((slug, id)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let (visit, id) = match Visit::open_item(&web, &slug, &id, &query, &headers).await {
        Ok(found) => found,
        Err(page) => return page,
    };
    let Ok(Some(game)) = web.service.viewer_page(&visit.club, id, visit.lang).await else {
        return visit.not_found();
    };
    let ply = query
        .ply()
        .unwrap_or(game.plies.len())
        .min(game.plies.len());
    let title = t!(
        visit.lang,
        "web-viewer-title",
        id = id,
        white = game.players[0].as_str(),
        black = game.players[1].as_str()
    );
    // A game still on: the way to its live board (the players' own
    // links come from Discord; anyone watches where spectators may).
    let watch = game.active.then(|| web.links.watch_url(id));
    let body = viewer_html(&visit, &game, ply, &title, watch.as_deref());
    let data = serde_json::json!({
        "start": game.start_fen,
        "ply": ply,
        "plies": game.plies.iter().map(|p| serde_json::json!({
            "fen": p.fen, "from": p.from, "to": p.to,
        })).collect::<Vec<_>>(),
    });
    let extra = layout::Extra {
        styles: vec![
            "/assets/chessground.base.css".to_owned(),
            "/assets/chessground.cburnett.css".to_owned(),
            format!("/theme/{}.css", game.theme),
        ],
        data: Some(super::super::pages::script_json(&data)),
        query: format!("ply={ply}"),
        ..layout::Extra::default()
    };
    visit.page(&title, "game", &body, extra)
}

fn viewer_html(
    visit: &Visit,
    game: &ViewerPage,
    ply: usize,
    title: &str,
    watch: Option<&str>,
) -> String {
    let lang = visit.lang;
    let club = &visit.club;
    let at = |n: usize| club.path(&format!("/game/{}?ply={n}", game.game_id));
    let last = game.plies.len();
    let step = |to: usize, label: &str, key: &str| {
        format!(
            "<a href=\"{}\" data-step=\"{key}\" aria-label=\"{label}\">{}</a>",
            escape(&at(to)),
            match key {
                "first" => "«",
                "prev" => "‹",
                "next" => "›",
                _ => "»",
            },
            label = escape(label),
        )
    };
    let mut html = format!(
        "<div class=\"viewer\"><section class=\"viewer-board\"><p class=\"side-name\">{black}</p>\
<div id=\"viewer-board\"><img src=\"{img}\" width=\"480\" height=\"480\" alt=\"{alt}\"></div>\
<p class=\"side-name\">{white}</p><nav class=\"steps\" aria-label=\"{steps}\">{first}{prev}{next}{end}</nav></section>\
<section class=\"viewer-side\"><h1>{title}</h1><p class=\"status\">{status}</p>",
        black = escape(&game.players[1]),
        white = escape(&game.players[0]),
        img = escape(&club.path(&format!("/game/{}/board?ply={ply}", game.game_id))),
        alt = escape(&game.position_text(ply, lang)),
        steps = escape(&t!(lang, "web-viewer-steps")),
        first = step(0, &t!(lang, "web-viewer-first"), "first"),
        prev = step(ply.saturating_sub(1), &t!(lang, "web-viewer-prev"), "prev"),
        next = step((ply + 1).min(last), &t!(lang, "web-viewer-next"), "next"),
        end = step(last, &t!(lang, "web-viewer-last"), "last"),
        title = escape(title),
        status = escape(&game.status),
    );
    if let Some(opening) = &game.opening {
        let _ = write!(html, "<p class=\"opening\">{}</p>", escape(opening));
    }
    if let Some(url) = watch {
        let _ = write!(
            html,
            "<p><a href=\"{}\">{}</a></p>",
            escape(url),
            escape(&t!(lang, "web-button-watch"))
        );
    }
    // A row per move number: White's move, then Black's (a game from a
    // position with Black to move starts its first row with Black's).
    html.push_str("<ol class=\"viewer-moves\">");
    let mut row_open = false;
    for (i, p) in game.plies.iter().enumerate() {
        let n = i + 1;
        let white_move = p.number.ends_with('.');
        if white_move || !row_open {
            if row_open {
                html.push_str("</li>");
            }
            let number = p.number.trim_end_matches(['.', '…']);
            let _ = write!(html, "<li><span class=\"no\">{}.</span>", escape(number));
            if !white_move {
                html.push_str("<span class=\"skip\">…</span>");
            }
            row_open = true;
        }
        let current = if n == ply {
            " aria-current=\"step\""
        } else {
            ""
        };
        let clock = p
            .clock
            .as_deref()
            .map(|c| format!("<span class=\"clk\">{}</span>", escape(c)))
            .unwrap_or_default();
        let _ = write!(
            html,
            "<span class=\"mv\"><a href=\"{}\" data-ply=\"{n}\"{current}>{}{}</a>{clock}</span>",
            escape(&at(n)),
            escape(&p.san),
            escape(p.judgement.unwrap_or("")),
        );
        if !white_move {
            html.push_str("</li>");
            row_open = false;
        }
    }
    if row_open {
        html.push_str("</li>");
    }
    html.push_str("</ol>");
    if let Some(pawns) = &game.pawns {
        html.push_str(&analysis_html(visit, game, pawns, ply, &at));
    }
    let _ = write!(
        html,
        "<p class=\"downloads\"><a href=\"{}\" download>{}</a></p>\
<details><summary>PGN</summary><pre class=\"pgn\">{}</pre></details></section></div>",
        escape(&club.path(&format!("/game/{}/pgn", game.game_id))),
        escape(&t!(lang, "web-download-pgn")),
        escape(&game.pgn),
    );
    html
}

/// The advantage chart, each side's accuracy and counts, and the judged
/// moves with the engine's better move.
fn analysis_html(
    visit: &Visit,
    game: &ViewerPage,
    pawns: &[f64],
    ply: usize,
    at: &impl Fn(usize) -> String,
) -> String {
    let lang = visit.lang;
    let marks: Vec<(usize, &'static str)> = game
        .plies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i + 1, p.judgement?)))
        .collect();
    let mut html = format!(
        "<section class=\"analysis\"><h2>{}</h2>{}",
        escape(&t!(lang, "web-analysis")),
        chart::advantage_svg(lang, pawns, &marks, ply, at)
    );
    if let (Some(accuracy), Some(counts)) = (&game.accuracy, &game.counts) {
        let _ = write!(
            html,
            "<table class=\"accuracy\"><thead><tr><th></th><th scope=\"col\">{acc}</th>\
<th scope=\"col\">?!</th><th scope=\"col\">?</th><th scope=\"col\">??</th></tr></thead><tbody>",
            acc = escape(&t!(lang, "web-accuracy")),
        );
        for side in 0..2 {
            let _ = write!(
                html,
                "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td>\
<td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                escape(&game.players[side]),
                escape(accuracy[side].as_deref().unwrap_or("–")),
                counts[side][0],
                counts[side][1],
                counts[side][2],
            );
        }
        html.push_str("</tbody></table>");
    }
    let judged: Vec<_> = game
        .plies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.judgement.is_some())
        .collect();
    if !judged.is_empty() {
        html.push_str("<ul class=\"mistakes\">");
        for (i, p) in judged {
            let better = p
                .better
                .as_deref()
                .map(|b| t!(lang, "web-better-move", better = b))
                .unwrap_or_default();
            let _ = write!(
                html,
                "<li><a href=\"{}\" data-ply=\"{}\">{} {}{}</a> {}</li>",
                escape(&at(i + 1)),
                i + 1,
                escape(&p.number),
                escape(&p.san),
                escape(p.judgement.unwrap_or("")),
                escape(&better)
            );
        }
        html.push_str("</ul>");
    }
    html.push_str("</section>");
    html
}

/// `GET /club/{slug}/game/{id}/pgn`.
pub(super) async fn pgn(
    State(web): State<Web>,
    Path((slug, id)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let (visit, id) = match Visit::open_item(&web, &slug, &id, &query, &headers).await {
        Ok(found) => found,
        Err(page) => return page,
    };
    match web.service.viewer_page(&visit.club, id, visit.lang).await {
        Ok(Some(game)) => download(
            "application/x-chess-pgn; charset=utf-8",
            &format!("game-{id}.pgn"),
            game.pgn,
        ),
        _ => visit.not_found(),
    }
}

/// `GET /club/{slug}/game/{id}/board?ply=N`: the position as a PNG.
pub(super) async fn board(
    State(web): State<Web>,
    Path((slug, id)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let (visit, id) = match Visit::open_item(&web, &slug, &id, &query, &headers).await {
        Ok(found) => found,
        Err(page) => return page,
    };
    let ply = query.ply().unwrap_or(usize::MAX);
    match web.service.viewer_board(&visit.club, id, ply).await {
        Ok(Some(png)) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, "public, max-age=60"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            png,
        )
            .into_response(),
        _ => visit.not_found(),
    }
}
