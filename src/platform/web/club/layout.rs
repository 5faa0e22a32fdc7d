//! The frame of every club page: head (styles, the script, whether search
//! engines may list it), the navigation between the club's pages, the
//! language switch, and the body.

use super::{super::pages::escape, Visit};
use crate::{i18n::Lang, t};

/// What a page adds to the shared frame.
#[derive(Default)]
pub(crate) struct Extra {
    /// The page keeps itself up to date (tournament, ladder).
    pub live: bool,
    /// Style sheets besides `club.css` (the viewer's board).
    pub styles: Vec<String>,
    /// A JSON data block for `club.js` (already safe inside `<script>`).
    pub data: Option<String>,
    /// The query to keep when switching language (`page=2`, `ply=10`).
    pub query: String,
}

/// The whole page.
pub(super) fn page(visit: &Visit, title: &str, here: &str, body: &str, extra: &Extra) -> String {
    let lang = visit.lang;
    let club = &visit.club;
    let robots = if club.is_public() {
        ""
    } else {
        // An unlisted club: its address is shared by hand, never indexed.
        "<meta name=\"robots\" content=\"noindex, nofollow\">"
    };
    let styles: String = extra
        .styles
        .iter()
        .map(|s| format!("<link rel=\"stylesheet\" href=\"{}\">", escape(s)))
        .collect();
    let nav_link = |id: &str, path: &str, label: String| {
        let current = if id == here {
            " aria-current=\"page\""
        } else {
            ""
        };
        format!(
            "<a href=\"{}\"{current}>{}</a>",
            escape(&club.path(path)),
            escape(&label)
        )
    };
    let switch = |to: Lang, label: &str| {
        if to == lang {
            format!("<span aria-current=\"true\">{label}</span>")
        } else {
            let query = if extra.query.is_empty() {
                format!("?lang={}", to.code())
            } else {
                format!("?{}&lang={}", extra.query, to.code())
            };
            format!(
                "<a href=\"{}\" hreflang=\"{code}\" lang=\"{code}\">{label}</a>",
                escape(&query),
                code = to.code()
            )
        }
    };
    let live = if extra.live {
        format!(" data-live=\"{}\"", escape(&club.path("/events")))
    } else {
        String::new()
    };
    let data = extra
        .data
        .as_deref()
        .map(|json| format!("<script type=\"application/json\" id=\"page-data\">{json}</script>"))
        .unwrap_or_default();
    format!(
        "<!doctype html><html lang=\"{code}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">{robots}\
<title>{title}</title>{styles}<link rel=\"stylesheet\" href=\"/assets/club.css\">\
<script type=\"module\" src=\"/assets/club.js\"></script></head>\
<body{live}>{data}<header class=\"club-nav\"><nav aria-label=\"{nav_label}\">{home}{ladder}</nav>\
<p class=\"langs\">{en} · {zh}</p></header><main id=\"page\">{body}</main></body></html>",
        code = lang.code(),
        title = escape(title),
        nav_label = escape(&t!(lang, "web-club-nav")),
        home = nav_link("home", "", t!(lang, "web-club-tournaments")),
        ladder = nav_link("ladder", "/ladder", t!(lang, "web-club-ladder")),
        en = switch(Lang::En, "English"),
        zh = switch(Lang::ZhCn, "中文"),
    )
}
