//! A tournament's page, as chess-results and lichess show one: settings,
//! standings with every tie-break column, the crosstable, the pairings of
//! every round with the results so far, a knockout's bracket, each
//! player's card, and the TRF and PGN to download. Also the club's list
//! of tournaments (its front page).

use std::fmt::Write;

use axum::{
    extract::{Path, Query, State},
    http::HeaderMap,
    response::Response,
};

use super::{
    super::{pages::escape, Web},
    download, layout, PageQuery, Visit,
};
use crate::{
    render::{CellColour, CellOutcome},
    service::pages::{path_part, PageRound, TournamentPage},
    store::{TournamentRecord, TournamentStatus},
    t,
};

/// The club's front page: its tournaments, newest first.
pub(super) fn list(visit: &Visit, tournaments: &[TournamentRecord]) -> String {
    let lang = visit.lang;
    let mut html = format!("<h1>{}</h1>", escape(&t!(lang, "web-club-tournaments")));
    if tournaments.is_empty() {
        let _ = write!(
            html,
            "<p>{}</p>",
            escape(&t!(lang, "tournament-list-empty"))
        );
    } else {
        html.push_str("<ul class=\"tournaments\">");
        for r in tournaments {
            let status = match r.status {
                TournamentStatus::Open => t!(lang, "tournament-status-open"),
                TournamentStatus::Running => t!(
                    lang,
                    "tournament-status-running",
                    round = r.current_round,
                    rounds = r.tournament.rounds
                ),
                TournamentStatus::Paused => t!(lang, "tournament-status-paused"),
                TournamentStatus::Finished => t!(lang, "tournament-status-finished"),
                TournamentStatus::Cancelled => t!(lang, "tournament-status-cancelled"),
            };
            let _ = write!(
                html,
                "<li><a href=\"{}\">{}</a> <span class=\"muted\">{}</span></li>",
                escape(&visit.club.path(&format!("/tournament/{}", r.id))),
                escape(&r.tournament.name),
                escape(&status)
            );
        }
        html.push_str("</ul>");
    }
    let _ = write!(
        html,
        "<p><a href=\"{}\">{}</a></p>",
        escape(&visit.club.path("/ladder")),
        escape(&t!(lang, "web-ladder-title"))
    );
    html
}

/// `GET /club/{slug}/tournament/{id}`.
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
    let Ok(Some(t)) = web
        .service
        .tournament_page(&visit.club, id, visit.lang)
        .await
    else {
        return visit.not_found();
    };
    let body = tournament_html(&visit, &t);
    let extra = layout::Extra {
        live: !t.finished,
        ..layout::Extra::default()
    };
    visit.page(&t.name, "tournament", &body, extra)
}

/// `GET /club/{slug}/tournament/{id}/trf`: the FIDE TRF file.
pub(super) async fn trf(
    State(web): State<Web>,
    Path((slug, id)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    file(web, slug, id, query, headers, false).await
}

/// `GET /club/{slug}/tournament/{id}/pgn`: every game so far.
pub(super) async fn pgn(
    State(web): State<Web>,
    Path((slug, id)): Path<(String, String)>,
    Query(query): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    file(web, slug, id, query, headers, true).await
}

async fn file(
    web: Web,
    slug: String,
    id: String,
    query: PageQuery,
    headers: HeaderMap,
    pgn: bool,
) -> Response {
    let (visit, id) = match Visit::open_item(&web, &slug, &id, &query, &headers).await {
        Ok(found) => found,
        Err(page) => return page,
    };
    let Ok(Some((trf, games))) = web.service.tournament_files(&visit.club, id).await else {
        return visit.not_found();
    };
    if pgn {
        download(
            "application/x-chess-pgn; charset=utf-8",
            &format!("tournament-{id}.pgn"),
            games,
        )
    } else {
        download(
            "text/plain; charset=utf-8",
            &format!("tournament-{id}.trf"),
            trf,
        )
    }
}

fn tournament_html(visit: &Visit, t: &TournamentPage) -> String {
    let lang = visit.lang;
    let club = &visit.club;
    let mut html = format!("<h1>{}</h1><dl class=\"facts\">", escape(&t.name));
    for (name, value) in &t.card.fields {
        let _ = write!(html, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(value));
    }
    html.push_str("</dl>");
    if t.started {
        let _ = write!(
            html,
            "<p class=\"downloads\"><a href=\"{trf}\" download>{trf_label}</a> \
<a href=\"{pgn}\" download>{pgn_label}</a></p>",
            trf = escape(&club.path(&format!("/tournament/{}/trf", t.id))),
            pgn = escape(&club.path(&format!("/tournament/{}/pgn", t.id))),
            trf_label = escape(&t!(lang, "web-download-trf")),
            pgn_label = escape(&t!(lang, "web-download-pgn")),
        );
    } else {
        let _ = write!(
            html,
            "<section><h2>{}</h2><ol class=\"entrants\">",
            escape(&t!(lang, "web-entrants"))
        );
        for name in &t.entrants {
            let _ = write!(html, "<li>{}</li>", escape(name));
        }
        html.push_str("</ol></section>");
    }
    if let Some(table) = &t.table {
        html.push_str(&standings_html(visit, t, table));
        if t.knockout {
            let champion = t
                .finished
                .then(|| t.cards.first().map(|c| c.name.as_str()))
                .flatten();
            html.push_str(&bracket_html(visit, &t.rounds, champion));
        }
        html.push_str(&crosstable_html(visit, t, table));
    }
    html.push_str(&rounds_html(visit, &t.rounds, t.knockout));
    if !t.cards.is_empty() {
        html.push_str(&cards_html(visit, t));
    }
    html
}

/// Place, name, level, score and one column per tie-break.
fn standings_html(visit: &Visit, t: &TournamentPage, table: &crate::render::Crosstable) -> String {
    let mut html = format!(
        "<section id=\"standings\"><h2>{}</h2><div class=\"scroll\"><table class=\"standings\">\
<thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th>",
        escape(&table.title),
        escape(&table.place_heading),
        escape(&table.name_heading),
    );
    if !table.level_heading.is_empty() {
        let _ = write!(
            html,
            "<th scope=\"col\">{}</th>",
            escape(&table.level_heading)
        );
    }
    let _ = write!(
        html,
        "<th scope=\"col\" class=\"num\">{}</th>",
        escape(&table.score_heading)
    );
    for heading in &table.tiebreak_headings {
        let _ = write!(
            html,
            "<th scope=\"col\" class=\"num\">{}</th>",
            escape(heading)
        );
    }
    html.push_str("</tr></thead><tbody>");
    for (i, row) in table.rows.iter().enumerate() {
        let dim = if row.withdrawn {
            " class=\"withdrawn\""
        } else {
            ""
        };
        let name = match t.users.get(i).cloned().flatten() {
            Some(user) => format!(
                "<a href=\"{}\">{}</a>",
                escape(&visit.club.path(&format!("/player/{}", path_part(&user)))),
                escape(&row.name)
            ),
            None => escape(&row.name),
        };
        let _ = write!(
            html,
            "<tr{dim}><td class=\"num\">{}</td><td>{name}</td>",
            escape(&row.place)
        );
        if !table.level_heading.is_empty() {
            let _ = write!(html, "<td>{}</td>", escape(&row.level));
        }
        let _ = write!(html, "<td class=\"num\"><b>{}</b></td>", escape(&row.score));
        for value in &row.tiebreaks {
            let _ = write!(html, "<td class=\"num\">{}</td>", escape(value));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table></div></section>");
    html
}

/// Rows by place, a column per round: the opponent's number, the colour
/// (a square before it) and the result; each number links to that card.
fn crosstable_html(visit: &Visit, t: &TournamentPage, table: &crate::render::Crosstable) -> String {
    let lang = visit.lang;
    let mut html = format!(
        "<section id=\"crosstable\"><h2>{}</h2><div class=\"scroll\"><table class=\"crosstable\">\
<thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th>",
        escape(&t!(lang, "web-crosstable")),
        escape(&table.place_heading),
        escape(&table.name_heading),
    );
    for heading in &table.round_headings {
        let _ = write!(html, "<th scope=\"col\">{}</th>", escape(heading));
    }
    let _ = write!(
        html,
        "<th scope=\"col\" class=\"num\">{}</th></tr></thead><tbody>",
        escape(&table.score_heading)
    );
    for (i, row) in table.rows.iter().enumerate() {
        let number = t.numbers.get(i).copied().unwrap_or(0);
        let _ = write!(
            html,
            "<tr id=\"row-{number}\"><td class=\"num\">{}</td><th scope=\"row\"><a href=\"#player-{number}\">{}</a></th>",
            escape(&row.place),
            escape(&row.name)
        );
        for cell in &row.cells {
            let colour = match cell.colour {
                Some(CellColour::White) => "<i class=\"w\"></i>",
                Some(CellColour::Black) => "<i class=\"b\"></i>",
                None => "",
            };
            let opponent = if cell.opponent.is_empty() || t.team {
                escape(&cell.opponent)
            } else {
                format!("<a href=\"#player-{0}\">{0}</a>", escape(&cell.opponent))
            };
            let _ = write!(
                html,
                "<td class=\"{}\">{opponent}{colour} {}</td>",
                outcome_class(cell.outcome),
                escape(&cell.result)
            );
        }
        let _ = write!(
            html,
            "<td class=\"num\"><b>{}</b></td></tr>",
            escape(&row.score)
        );
    }
    html.push_str("</tbody></table></div></section>");
    html
}

fn outcome_class(outcome: CellOutcome) -> &'static str {
    match outcome {
        CellOutcome::Win => "win",
        CellOutcome::Draw => "draw",
        CellOutcome::Loss => "loss",
        CellOutcome::Pending => "pending",
        CellOutcome::Unplayed => "unplayed",
    }
}

/// Every round, the latest first (open), each board with its result and
/// a link to the game.
fn rounds_html(visit: &Visit, rounds: &[PageRound], knockout: bool) -> String {
    let lang = visit.lang;
    let mut html = format!(
        "<section id=\"pairings\"><h2>{}</h2>",
        escape(&t!(lang, "web-pairings"))
    );
    for (i, round) in rounds.iter().enumerate().rev() {
        let open = if i + 1 == rounds.len() { " open" } else { "" };
        let _ = write!(
            html,
            "<details{open} id=\"round-{r}\"><summary>{title}</summary><div class=\"scroll\">\
<table class=\"pairings\"><thead><tr><th scope=\"col\">{board}</th><th scope=\"col\">{white}</th>\
<th scope=\"col\">{result}</th><th scope=\"col\">{black}</th></tr></thead><tbody>",
            r = round.round,
            title = escape(&t!(lang, "web-round", round = round.round)),
            board = escape(&t!(lang, "web-col-board")),
            white = escape(&t!(lang, "web-white")),
            result = escape(&t!(lang, "web-col-result")),
            black = escape(&t!(lang, "web-black")),
        );
        for b in &round.boards {
            let board = if knockout {
                format!("{}.{}", b.board, b.game_no)
            } else {
                b.board.to_string()
            };
            let result = match (&b.result, b.game_id, &b.black) {
                (_, _, None) => escape(&t!(lang, "tournament-cell-bye")),
                (Some(r), Some(id), _) => game_link(visit, id, r),
                (Some(r), None, _) => escape(r),
                (None, Some(id), _) => game_link(visit, id, "…"),
                (None, None, _) => "…".to_owned(),
            };
            let _ = write!(
                html,
                "<tr><td class=\"num\">{board}</td><td>{}</td><td class=\"result\">{result}</td><td>{}</td></tr>",
                escape(&b.white),
                escape(b.black.as_deref().unwrap_or("")),
            );
        }
        html.push_str("</tbody></table></div></details>");
    }
    html.push_str("</section>");
    html
}

fn game_link(visit: &Visit, game: i64, text: &str) -> String {
    format!(
        "<a href=\"{}\">{}</a>",
        escape(&visit.club.path(&format!("/game/{game}"))),
        escape(text)
    )
}

/// A knockout as a bracket: a column per round, a box per match with its
/// two players (the one who went through in bold: found in the next
/// round, or the champion after the final) and the results of its games.
fn bracket_html(visit: &Visit, rounds: &[PageRound], champion: Option<&str>) -> String {
    let lang = visit.lang;
    let mut html = format!(
        "<section id=\"bracket\"><h2>{}</h2><div class=\"scroll\"><div class=\"bracket\">",
        escape(&t!(lang, "web-bracket"))
    );
    for (i, round) in rounds.iter().enumerate() {
        let went_through = |name: &str| match rounds.get(i + 1) {
            Some(next) => next
                .boards
                .iter()
                .any(|b| b.white == name || b.black.as_deref() == Some(name)),
            None => champion == Some(name),
        };
        let side = |name: &str| {
            let class = if went_through(name) {
                "side won"
            } else {
                "side"
            };
            format!("<span class=\"{class}\">{}</span>", escape(name))
        };
        let _ = write!(
            html,
            "<div class=\"bracket-round\"><h3>{}</h3>",
            escape(&t!(lang, "web-round", round = round.round))
        );
        let mut boards: Vec<i64> = round.boards.iter().map(|b| b.board).collect();
        boards.dedup();
        for board in boards {
            let games: Vec<_> = round.boards.iter().filter(|b| b.board == board).collect();
            let first = games[0];
            let results: Vec<String> = games
                .iter()
                .map(|g| match (&g.result, g.game_id) {
                    (Some(r), Some(id)) => game_link(visit, id, r),
                    (Some(r), None) => escape(r),
                    (None, Some(id)) => game_link(visit, id, "…"),
                    (None, None) => "…".to_owned(),
                })
                .collect();
            let black = match &first.black {
                Some(name) => side(name),
                None => format!(
                    "<span class=\"side\">{}</span>",
                    escape(&t!(lang, "tournament-cell-bye"))
                ),
            };
            let _ = write!(
                html,
                "<div class=\"match\">{}{black}<span class=\"games\">{}</span></div>",
                side(&first.white),
                results.join(" ")
            );
        }
        html.push_str("</div>");
    }
    html.push_str("</div></div></section>");
    html
}

/// Each player's rounds: colour, opponent and result.
fn cards_html(visit: &Visit, t: &TournamentPage) -> String {
    let lang = visit.lang;
    let mut html = format!(
        "<section id=\"cards\"><h2>{}</h2>",
        escape(&t!(lang, "web-player-cards"))
    );
    let (white, black) = (t!(lang, "web-white"), t!(lang, "web-black"));
    for card in &t.cards {
        let _ = write!(
            html,
            "<details class=\"card\" id=\"player-{n}\"><summary>{n}. {name} — {score}</summary><table><tbody>",
            n = card.number,
            name = escape(&card.name),
            score = escape(&card.score),
        );
        for g in &card.games {
            let colour = match g.colour {
                Some(CellColour::White) => white.as_str(),
                Some(CellColour::Black) => black.as_str(),
                None => "",
            };
            let _ = write!(
                html,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
                escape(&t!(lang, "web-round", round = g.round)),
                escape(colour),
                escape(&g.opponent),
                escape(&g.result)
            );
        }
        html.push_str("</tbody></table></details>");
    }
    html.push_str("</section>");
    html
}
