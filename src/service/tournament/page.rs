//! A tournament's web page contents: its settings, every round's pairings
//! with the results so far, the standings with every tie-break column it
//! uses, the crosstable and each player's card; the web adapter draws them
//! (and a knockout's rounds as a bracket). Read with the same tables as
//! the Discord standings, so both always agree.

use super::{
    view::{cross_cell_of, entrant_label, points_text},
    Loaded,
};
use crate::{
    i18n::Lang,
    render::{CellColour, Crosstable},
    service::{pages::Club, Card, Service, ServiceError},
    store::TournamentStatus,
    tournament::{
        event::{table::table, BoardResult, Format},
        standings::TieBreak,
    },
};

/// What a tournament's page shows.
#[derive(Clone, Debug)]
pub struct TournamentPage {
    pub id: i64,
    pub name: String,
    /// Format, status, players, time control… (the `/tournament info` card).
    pub card: Card,
    pub knockout: bool,
    pub team: bool,
    pub started: bool,
    pub finished: bool,
    /// Entrants in order of entry (before the start: no table yet).
    pub entrants: Vec<String>,
    /// The standings and crosstable, every row (after the start).
    pub table: Option<Crosstable>,
    /// Each row's player (or team) number, in the table's order.
    pub numbers: Vec<u32>,
    /// Each row's user, for a link to their profile (none for a team).
    pub users: Vec<Option<String>>,
    pub rounds: Vec<PageRound>,
    pub cards: Vec<PlayerCard>,
}

/// One round's boards.
#[derive(Clone, Debug)]
pub struct PageRound {
    pub round: i64,
    pub boards: Vec<PageBoard>,
}

#[derive(Clone, Debug)]
pub struct PageBoard {
    /// The board, and the game of a knockout match on it (from 1).
    pub board: i64,
    pub game_no: i64,
    pub white: String,
    /// `None`: a bye.
    pub black: Option<String>,
    /// "1-0", "½-½", "+/−"… or `None` while it is played.
    pub result: Option<String>,
    pub game_id: Option<i64>,
}

/// One player's (or team's) rounds, as chess-results shows under a name.
#[derive(Clone, Debug)]
pub struct PlayerCard {
    pub number: u32,
    pub name: String,
    pub score: String,
    pub games: Vec<CardGame>,
}

#[derive(Clone, Debug)]
pub struct CardGame {
    pub round: usize,
    pub colour: Option<CellColour>,
    /// The opponent's name, empty for a bye or an absence.
    pub opponent: String,
    pub result: String,
}

impl Service {
    /// Tournament `id` of `club`'s server, in `lang`; `None` if it is not one
    /// of its.
    pub async fn tournament_page(
        &self,
        club: &Club,
        id: i64,
        lang: Lang,
    ) -> Result<Option<TournamentPage>, ServiceError> {
        let Some(t) = self.load_tournament(id).await? else {
            return Ok(None);
        };
        if t.record.tournament.server_id != club.server() {
            return Ok(None);
        }
        let format = t.format();
        let card = self
            .tournament_card(lang, &t.record, t.entrants.len())
            .await?;
        let started = t.record.current_round > 0;
        let tiebreaks = t.tiebreaks();
        let shown_tiebreaks: &[TieBreak] = match format {
            Format::Knockout | Format::Team => &[],
            _ => &tiebreaks,
        };
        let rows = if started {
            table(&t.event(), shown_tiebreaks)
        } else {
            Vec::new()
        };
        let team = format == Format::Team;
        let name_of = |number: u32| -> String {
            if team {
                rows.iter()
                    .find(|r| r.number == number)
                    .map_or_else(|| number.to_string(), |r| r.name.clone())
            } else {
                entrant_label(&t, number)
            }
        };
        let cards = rows
            .iter()
            .map(|r| PlayerCard {
                number: r.number,
                name: r.name.clone(),
                score: points_text(r.score),
                games: r
                    .cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| CardGame {
                        round: i + 1,
                        colour: cross_cell_of(lang, c).colour,
                        opponent: c.opponent.map(name_of).unwrap_or_default(),
                        result: cross_cell_of(lang, c).result,
                    })
                    .collect(),
            })
            .collect();
        let table = started.then(|| {
            let title = self.standings_title(&t, lang);
            self.crosstable(&t, lang, title, &rows, shown_tiebreaks)
        });
        Ok(Some(TournamentPage {
            id,
            name: t.record.tournament.name.clone(),
            card,
            knockout: format == Format::Knockout,
            team,
            started,
            finished: t.record.status == TournamentStatus::Finished,
            entrants: t.entrants.iter().map(|e| t.titled_name(e)).collect(),
            numbers: rows.iter().map(|r| r.number).collect(),
            users: rows
                .iter()
                .map(|r| {
                    (!team)
                        .then(|| t.user_of(r.number).map(|e| e.user_id.clone()))
                        .flatten()
                })
                .collect(),
            rounds: page_rounds(&t),
            cards,
            table,
        }))
    }

    /// Tournament `id`'s TRF and PGN texts, if it is `club`'s and started.
    pub async fn tournament_files(
        &self,
        club: &Club,
        id: i64,
    ) -> Result<Option<(String, String)>, ServiceError> {
        let Some(t) = self.load_tournament(id).await? else {
            return Ok(None);
        };
        if t.record.tournament.server_id != club.server() || t.record.current_round == 0 {
            return Ok(None);
        }
        Ok(Some(self.export_texts(&t).await?))
    }
}

/// Every round's boards, in order, a board's games in order.
fn page_rounds(t: &Loaded) -> Vec<PageRound> {
    let name = |user: &str| {
        t.entrant(user)
            .map_or_else(|| user.to_owned(), |e| t.titled_name(e))
    };
    let mut games: Vec<_> = t.games.iter().collect();
    games.sort_by_key(|g| (g.round, g.board, g.game_no));
    let mut rounds: Vec<PageRound> = Vec::new();
    for g in games {
        let board = PageBoard {
            board: g.board,
            game_no: g.game_no,
            white: name(&g.white_id),
            black: g.black_id.as_deref().map(name),
            result: g
                .result
                .as_deref()
                .and_then(BoardResult::from_id)
                .map(|r| super::direct::result_text(r).to_owned()),
            game_id: g.game_id,
        };
        match rounds.last_mut() {
            Some(last) if last.round == g.round => last.boards.push(board),
            _ => rounds.push(PageRound {
                round: g.round,
                boards: vec![board],
            }),
        }
    }
    rounds
}
