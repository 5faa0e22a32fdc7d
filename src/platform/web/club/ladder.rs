//! The leaderboard page (by level and points, paginated) and a player's
//! profile (points chart with the levels as bands, record, openings,
//! recent games).

use axum::{
    extract::{Path, Query, State},
    http::HeaderMap,
    response::Response,
};

use super::{
    super::{pages::escape, Web},
    chart, layout, PageQuery, Visit,
};
use crate::{
    chess::Variant,
    i18n::Lang,
    service::pages::{path_part, LadderPage, ProfilePage},
    t,
};

/// `GET /club/{slug}/ladder?page=N&variant=KEY`.
pub(super) async fn ladder(
    State(web): State<Web>,
    Path(slug): Path<String>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let visit = match Visit::open(&web, &slug, &query, &headers).await {
        Ok(v) => v,
        Err(page) => return page,
    };
    let (Some(page), Some(variant)) = (query.page(), query.variant()) else {
        return visit.not_found();
    };
    let Ok(Some(ladder)) = web
        .service
        .ladder_page(&visit.club, variant, page, visit.lang)
        .await
    else {
        return visit.not_found();
    };
    let title = match variant {
        Variant::Standard => t!(visit.lang, "web-ladder-title"),
        other => t!(
            visit.lang,
            "web-ladder-title-variant",
            variant = other.name(visit.lang)
        ),
    };
    let body = ladder_html(&visit, &title, &ladder);
    let extra = layout::Extra {
        live: true,
        query: format!("{}page={page}", variant_query(variant)),
        ..layout::Extra::default()
    };
    visit.page(&title, "ladder", &body, extra)
}

fn ladder_html(visit: &Visit, title: &str, ladder: &LadderPage) -> String {
    let lang = visit.lang;
    let club = &visit.club;
    let mut html = format!("<h1>{}</h1>", escape(title));
    html.push_str(&variant_tabs(visit, ladder.variant));
    if ladder.rows.is_empty() {
        html.push_str(&format!("<p>{}</p>", escape(&t!(lang, "ladder-empty"))));
        return html;
    }
    html.push_str(&format!(
        "<div class=\"scroll\"><table class=\"ladder\"><thead><tr><th scope=\"col\">{rank}</th>\
<th scope=\"col\">{name}</th><th scope=\"col\">{level}</th><th scope=\"col\" class=\"num\">{points}</th>\
<th scope=\"col\" class=\"num\">{wdl}</th></tr></thead><tbody>",
        rank = escape(&t!(lang, "tournament-col-place")),
        name = escape(&t!(lang, "tournament-col-name")),
        level = escape(&t!(lang, "tournament-col-level")),
        points = escape(&t!(lang, "web-col-points")),
        wdl = escape(&t!(lang, "web-col-record")),
    ));
    for row in &ladder.rows {
        let mark = if row.provisional {
            " class=\"provisional\""
        } else {
            ""
        };
        html.push_str(&format!(
            "<tr{mark}><td class=\"num\">{rank}</td><td><a href=\"{href}\">{name}</a></td>\
<td>{level}</td><td class=\"num\">{points}</td><td class=\"num\">{w}/{d}/{l}</td></tr>",
            rank = row.rank,
            href = escape(&club.path(&format!("/player/{}", path_part(&row.user_id)))),
            name = escape(&row.name),
            level = escape(&row.level),
            points = escape(&row.points),
            w = row.wins,
            d = row.draws,
            l = row.losses,
        ));
    }
    html.push_str("</tbody></table></div>");
    html.push_str(&provisional_note(lang, ladder.provisional_games));
    html.push_str(&pager(visit, ladder.variant, ladder.page, ladder.pages));
    html
}

/// What the `?` after points means (fewer than `games` rated games).
fn provisional_note(lang: Lang, games: i64) -> String {
    format!(
        "<p class=\"note\">{}</p>",
        escape(&t!(lang, "ladder-provisional", games = games))
    )
}

/// `variant=KEY&` for a variant's ladder; nothing for standard chess's.
fn variant_query(variant: Variant) -> String {
    match variant {
        Variant::Standard => String::new(),
        other => format!("variant={}&", other.key()),
    }
}

/// The ladders of every variant, the one shown marked.
fn variant_tabs(visit: &Visit, shown: Variant) -> String {
    let lang = visit.lang;
    let tabs: String = Variant::ALL
        .iter()
        .map(|&variant| {
            let href = match variant {
                Variant::Standard => visit.club.path("/ladder"),
                other => visit.club.path(&format!("/ladder?variant={}", other.key())),
            };
            let current = if variant == shown {
                " aria-current=\"page\""
            } else {
                ""
            };
            format!(
                "<a href=\"{}\"{current}>{}</a>",
                escape(&href),
                escape(&variant.name(lang))
            )
        })
        .collect();
    format!(
        "<nav class=\"variants\" aria-label=\"{}\">{tabs}</nav>",
        escape(&t!(lang, "web-ladder-variants"))
    )
}

/// Previous / page N of M / next (of the ladder of `variant`).
fn pager(visit: &Visit, variant: Variant, page: i64, pages: i64) -> String {
    let lang = visit.lang;
    let link = |to: i64, label: String, rel: &str| {
        format!(
            "<a href=\"{}\" rel=\"{rel}\">{}</a>",
            escape(
                &visit
                    .club
                    .path(&format!("/ladder?{}page={to}", variant_query(variant)))
            ),
            escape(&label)
        )
    };
    let previous = if page > 1 {
        link(page - 1, t!(lang, "web-previous"), "prev")
    } else {
        String::new()
    };
    let next = if page < pages {
        link(page + 1, t!(lang, "web-next"), "next")
    } else {
        String::new()
    };
    format!(
        "<nav class=\"pager\" aria-label=\"{label}\">{previous}<span>{where_}</span>{next}</nav>",
        label = escape(&t!(lang, "web-pages-nav")),
        where_ = escape(&t!(lang, "web-page-of", page = page, pages = pages)),
    )
}

/// `GET /club/{slug}/player/{user}`.
pub(super) async fn profile(
    State(web): State<Web>,
    Path((slug, user)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let visit = match Visit::open(&web, &slug, &query, &headers).await {
        Ok(v) => v,
        Err(page) => return page,
    };
    let Ok(Some(profile)) = web
        .service
        .profile_page(&visit.club, &user, visit.lang)
        .await
    else {
        return visit.not_found();
    };
    let body = profile_html(&visit, &profile);
    visit.page(&profile.name, "player", &body, layout::Extra::default())
}

fn profile_html(visit: &Visit, p: &ProfilePage) -> String {
    let lang = visit.lang;
    let mut html = format!(
        "<h1>{name}</h1><dl class=\"facts\"><dt>{points_label}</dt><dd>{points}</dd>\
<dt>{level_label}</dt><dd>{level}</dd><dt>{record_label}</dt><dd>{record}</dd></dl>",
        name = escape(&p.name),
        points_label = escape(&t!(lang, "profile-field-points")),
        points = escape(&p.points),
        level_label = escape(&t!(lang, "profile-field-level")),
        level = escape(&p.level),
        record_label = escape(&t!(lang, "profile-field-record")),
        record = escape(&t!(
            lang,
            "profile-record",
            count = p.rated_games,
            wins = p.wins,
            draws = p.draws,
            losses = p.losses
        )),
    );
    if p.provisional {
        html.push_str(&provisional_note(lang, p.provisional_games));
    }
    if p.series.len() > 1 {
        html.push_str(&format!(
            "<section><h2>{}</h2>{}</section>",
            escape(&t!(lang, "chart-title", name = p.name.as_str())),
            chart::points_svg(lang, &p.series)
        ));
    }
    if !p.openings.is_empty() {
        html.push_str(&format!(
            "<section><h2>{}</h2><ul>",
            escape(&t!(lang, "profile-field-openings"))
        ));
        for line in &p.openings {
            html.push_str(&format!("<li>{}</li>", escape(line)));
        }
        html.push_str("</ul></section>");
    }
    if !p.recent.is_empty() {
        html.push_str(&format!(
            "<section><h2>{}</h2><ul class=\"games\">",
            escape(&t!(lang, "profile-field-recent"))
        ));
        for g in &p.recent {
            html.push_str(&format!(
                "<li><a href=\"{}\">{}</a></li>",
                escape(&visit.club.path(&format!("/game/{}", g.game_id))),
                escape(&g.text)
            ));
        }
        html.push_str("</ul></section>");
    }
    html
}
