//! The files a board page loads, embedded in the binary: lichess's
//! chessground (GPL-3.0-or-later, vendored by `assets/web/refresh-vendor.sh`
//! at a pinned version and checksum), Discord's Embedded App SDK (MIT,
//! bundled by the same script), the board's own script and styles,
//! and a style sheet per board theme, made from the theme the bot's
//! images use.

use axum::{
    extract::Path,
    http::{header, StatusCode},
    response::{IntoResponse, Response},
};

use crate::render::Theme;

/// Name, media type and contents of each embedded file.
const ASSETS: [(&str, &str, &[u8]); 9] = [
    (
        "chessground.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../assets/web/vendor/chessground.min.js"),
    ),
    (
        "chessground.base.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../assets/web/vendor/chessground.base.css"),
    ),
    (
        "chessground.cburnett.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../assets/web/vendor/chessground.cburnett.css"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../assets/web/board.js"),
    ),
    (
        "board.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../assets/web/board.css"),
    ),
    (
        "discord-sdk.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../assets/web/vendor/discord-sdk.min.js"),
    ),
    (
        "activity.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../assets/web/activity.js"),
    ),
    (
        "club.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../../assets/web/club.js"),
    ),
    (
        "club.css",
        "text/css; charset=utf-8",
        include_bytes!("../../../assets/web/club.css"),
    ),
];

/// Every embedded file with its size, for the benchmark's page weight.
pub fn files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    ASSETS.iter().map(|(name, _, bytes)| (*name, *bytes))
}

/// `GET /assets/{file}`.
pub(super) async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, media_type, bytes)) => (
            [
                (header::CONTENT_TYPE, *media_type),
                (header::CACHE_CONTROL, "public, max-age=3600"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            *bytes,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `GET /theme/{name}.css`: the board's squares in a theme's colours.
pub(super) async fn theme(Path(file): Path<String>) -> Response {
    let theme = file
        .strip_suffix(".css")
        .and_then(Theme::by_name)
        .unwrap_or_else(|| Theme::all()[0]);
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        theme_css(&theme),
    )
        .into_response()
}

/// Squares of `theme`: a checkerboard drawn by the style sheet (a8 light,
/// whichever side is at the bottom), the last move and check as the
/// images show them.
fn theme_css(theme: &Theme) -> String {
    let rgb = |c: crate::render::theme::Rgb| format!("rgb({},{},{})", c.0, c.1, c.2);
    let overlay = |o: crate::render::theme::Overlay| {
        format!(
            "rgba({},{},{},{:.2})",
            o.color.0,
            o.color.1,
            o.color.2,
            f32::from(o.alpha_pct) / 100.0
        )
    };
    format!(
        "cg-board{{background-color:{dark};background-image:repeating-conic-gradient({dark} 0 25%,{light} 0 50%);\
background-size:25% 25%;}}\n\
cg-board square.last-move{{background-color:{last};}}\n\
cg-board square.check{{background:radial-gradient(ellipse at center,{check} 0%,rgba(0,0,0,0) 80%);}}\n\
body{{--bar-bg:{bar_bg};--bar-fg:{bar_fg};}}\n",
        light = rgb(theme.light),
        dark = rgb(theme.dark),
        last = overlay(theme.last_move),
        check = rgb(theme.check),
        bar_bg = rgb(theme.bar_bg),
        bar_fg = rgb(theme.bar_fg),
    )
}
