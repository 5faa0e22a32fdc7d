//! The standings of a competition as a crosstable: one row per player (or
//! team), ranked, with each round's opponent, colour and result, the score
//! and the tie-break columns. Words and images are the caller's: this only
//! decides who is where and what each cell holds.
//!
//! - Individual events rank by score, then the chosen tie-breaks (FIDE
//!   C.07 via [`standings`]); equal players share the place. A player who
//!   withdrew from a round robin having played less than half of his games
//!   is listed last and his games do not count for the others (FIDE
//!   Tournament Rules, conduct of the players, art. 4.1).
//! - A knockout ranks by the round reached (the winner, the finalist, then
//!   shared places per round lost), a cell being a whole match.
//! - Team events rank teams by game points only (the seed rules: 只计局分),
//!   ties shared; a cell is a team match.

use super::{next::matches_of, next::MatchState, BoardResult, Event, Format};
use crate::tournament::{
    model::{Colour, Outcome, Pno, Score},
    standings::{standings, TieBreak},
};

/// What a cell shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CellResult {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    /// The pairing-allocated bye (or a knockout bye).
    Bye,
    /// Paired, game on.
    Pending,
    /// Not paired (withdrawn, resting, absent).
    Absent,
}

/// One round of one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// The opponent: a pairing number, or a team's number (1-based).
    pub opponent: Option<u32>,
    pub colour: Option<Colour>,
    pub result: CellResult,
    /// A match's score (knockout, team), in tenths.
    pub points: Option<Score>,
}

/// One row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// First and last place shared (equal when not shared).
    pub place: (usize, usize),
    /// Pairing number, or team number.
    pub number: u32,
    pub name: String,
    pub score: Score,
    /// Tie-break values (hundredths; wins a count).
    pub tiebreaks: Vec<i64>,
    pub cells: Vec<Cell>,
    pub withdrawn: bool,
    /// The group (group round robin): places count within it.
    pub section: Option<String>,
}

/// The crosstable with `tiebreaks` (individual events).
pub fn table(event: &Event, tiebreaks: &[TieBreak]) -> Vec<TableRow> {
    let mut rows = match event.settings.format {
        Format::Knockout => knockout_rows(event),
        Format::Team => team_rows(event),
        _ => individual_rows(event, tiebreaks),
    };
    share_places(&mut rows);
    rows
}

fn cell_of(outcome: Outcome) -> CellResult {
    match outcome {
        Outcome::Win | Outcome::UnratedWin => CellResult::Win,
        Outcome::Draw | Outcome::UnratedDraw => CellResult::Draw,
        Outcome::Loss | Outcome::UnratedLoss => CellResult::Loss,
        Outcome::ForfeitWin => CellResult::ForfeitWin,
        Outcome::ForfeitLoss => CellResult::ForfeitLoss,
        Outcome::PairingBye | Outcome::FullBye => CellResult::Bye,
        Outcome::HalfBye | Outcome::ZeroBye => CellResult::Absent,
    }
}

/// Round robin art. 4.1: withdrew having completed less than half.
fn annulled(event: &Event) -> Vec<Pno> {
    if !event.settings.format.is_round_robin() {
        return Vec::new();
    }
    event
        .entrants
        .iter()
        .filter(|e| e.withdrawn_after.is_some())
        .filter(|e| {
            let mine: Vec<&super::Board> = event
                .boards
                .iter()
                .filter(|b| b.white == e.pno || b.black == Some(e.pno))
                .collect();
            let played = mine
                .iter()
                .filter(|b| b.result.is_some_and(BoardResult::played))
                .count();
            2 * played < mine.len()
        })
        .map(|e| e.pno)
        .collect()
}

fn individual_rows(event: &Event, tiebreaks: &[TieBreak]) -> Vec<TableRow> {
    let annulled = annulled(event);
    // The standings count what has a result, without the annulled games.
    let mut counted = event.clone();
    counted.boards.retain(|b| {
        !annulled.contains(&b.white) && !b.black.is_some_and(|x| annulled.contains(&x))
    });
    let record = counted.record();
    let ranked = standings(&record, tiebreaks);
    let rounds = event.planned_rounds().max(event.last_round());
    let mut rows: Vec<TableRow> = ranked
        .iter()
        .map(|r| TableRow {
            place: (r.place, r.place),
            number: r.pno,
            name: r.name.clone(),
            score: r.score,
            tiebreaks: r.tiebreaks.clone(),
            cells: (1..=rounds)
                .map(|round| cell(event, r.pno, round))
                .collect(),
            withdrawn: event
                .entrant(r.pno)
                .is_some_and(|e| e.withdrawn_after.is_some()),
            section: match event.settings.format {
                Format::Groups => event.entrant(r.pno).and_then(|e| e.section.clone()),
                _ => None,
            },
        })
        .collect();
    // Groups one after the other (the sort is stable: ranked within each).
    rows.sort_by(|a, b| a.section.cmp(&b.section));
    // The annulled go last, in pairing order, with no place of their own
    // among the counted players.
    let (mut kept, gone): (Vec<TableRow>, Vec<TableRow>) =
        rows.drain(..).partition(|r| !annulled.contains(&r.number));
    let mut gone = gone;
    gone.sort_by_key(|r| r.number);
    for r in &mut gone {
        r.score = 0;
        r.tiebreaks.iter_mut().for_each(|v| *v = 0);
    }
    kept.extend(gone);
    kept
}

/// The cell of `pno` in `round` (individual events).
fn cell(event: &Event, pno: Pno, round: u32) -> Cell {
    let board = event
        .boards
        .iter()
        .find(|b| b.round == round && (b.white == pno || b.black == Some(pno)));
    let Some(b) = board else {
        return Cell {
            opponent: None,
            colour: None,
            result: CellResult::Absent,
            points: None,
        };
    };
    let white = b.white == pno;
    let opponent = if white { b.black } else { Some(b.white) };
    let result = match b.result {
        None => CellResult::Pending,
        Some(r) => {
            let (w, bl) = r.outcomes();
            cell_of(if white { w } else { bl })
        }
    };
    Cell {
        opponent,
        colour: opponent.map(|_| if white { Colour::White } else { Colour::Black }),
        result,
        points: None,
    }
}

fn knockout_rows(event: &Event) -> Vec<TableRow> {
    let rounds = event.planned_rounds();
    let scoring = &event.settings.scoring;
    // Matches won (a bye counts as one): the knockout's score.
    let mut won = vec![0u32; event.entrants.len()];
    let mut cells = vec![Vec::new(); event.entrants.len()];
    for round in 1..=rounds {
        let states = matches_of(event, round);
        for (m, state) in states.iter().enumerate() {
            let games: Vec<&super::Board> = event
                .boards
                .iter()
                .filter(|b| b.round == round && b.board == m as u32 + 1)
                .collect();
            let Some(first) = games.first() else { continue };
            let players: Vec<Pno> = [Some(first.white), first.black]
                .into_iter()
                .flatten()
                .collect();
            for &p in &players {
                let opponent = players.iter().copied().find(|&o| o != p);
                let points: Score = games
                    .iter()
                    .filter_map(|g| {
                        let r = g.result?;
                        let (w, b) = r.outcomes();
                        Some(scoring.points(if g.white == p { w } else { b }))
                    })
                    .sum();
                let result = match state {
                    MatchState::Decided(w) if opponent.is_none() && *w == p => CellResult::Bye,
                    MatchState::Decided(w) if *w == p => CellResult::Win,
                    MatchState::Decided(_) => CellResult::Loss,
                    _ => CellResult::Pending,
                };
                let i = p as usize - 1;
                if matches!(result, CellResult::Win | CellResult::Bye) {
                    won[i] += 1;
                }
                cells[i].push(Cell {
                    opponent,
                    colour: None,
                    result,
                    points: opponent.map(|_| points),
                });
            }
        }
    }
    let mut rows: Vec<TableRow> = event
        .entrants
        .iter()
        .map(|e| {
            let i = e.pno as usize - 1;
            let mut c = std::mem::take(&mut cells[i]);
            c.resize(
                rounds as usize,
                Cell {
                    opponent: None,
                    colour: None,
                    result: CellResult::Absent,
                    points: None,
                },
            );
            TableRow {
                place: (0, 0),
                number: e.pno,
                name: e.name.clone(),
                score: i64::from(won[i]) * 10,
                tiebreaks: Vec::new(),
                cells: c,
                withdrawn: e.withdrawn_after.is_some(),
                section: None,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.score.cmp(&a.score).then(a.number.cmp(&b.number)));
    rows
}

fn team_rows(event: &Event) -> Vec<TableRow> {
    let teams = event.teams();
    let team_of = |pno: Pno| {
        event
            .entrant(pno)
            .and_then(|e| e.section.as_ref())
            .and_then(|s| teams.iter().position(|t| t == s))
    };
    let rounds = event.planned_rounds();
    let scoring = &event.settings.scoring;
    let mut rows: Vec<TableRow> = teams
        .iter()
        .enumerate()
        .map(|(t, name)| {
            let mut total = 0;
            let cells = (1..=rounds)
                .map(|round| {
                    let mut opponent = None;
                    let (mut mine, mut theirs, mut pending) = (0, 0, false);
                    for b in event.boards.iter().filter(|b| b.round == round) {
                        let Some(black) = b.black else { continue };
                        let (wt, bt) = (team_of(b.white), team_of(black));
                        let us_white = wt == Some(t);
                        if !us_white && bt != Some(t) {
                            continue;
                        }
                        opponent = if us_white { bt } else { wt };
                        match b.result {
                            None => pending = true,
                            Some(r) => {
                                let (w, bl) = r.outcomes();
                                let (ours, other) = if us_white { (w, bl) } else { (bl, w) };
                                mine += scoring.points(ours);
                                theirs += scoring.points(other);
                            }
                        }
                    }
                    total += mine;
                    let result = match opponent {
                        None => CellResult::Absent,
                        Some(_) if pending => CellResult::Pending,
                        Some(_) if mine > theirs => CellResult::Win,
                        Some(_) if mine < theirs => CellResult::Loss,
                        Some(_) => CellResult::Draw,
                    };
                    Cell {
                        opponent: opponent.map(|o| o as u32 + 1),
                        colour: None,
                        result,
                        points: opponent.map(|_| mine),
                    }
                })
                .collect();
            TableRow {
                place: (0, 0),
                number: t as u32 + 1,
                name: name.clone(),
                score: total,
                tiebreaks: Vec::new(),
                cells,
                withdrawn: false,
                section: None,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.score.cmp(&a.score).then(a.number.cmp(&b.number)));
    rows
}

/// Places shared by rows equal on score and tie-breaks ("2–3"), counted
/// within each group. Rows come ranked, so equal rows are neighbours.
fn share_places(rows: &mut [TableRow]) {
    let mut start = 0;
    while start < rows.len() {
        let section = rows[start].section.clone();
        let end = start
            + rows[start..]
                .iter()
                .take_while(|r| r.section == section)
                .count();
        let keys: Vec<(Score, Vec<i64>)> = rows[start..end]
            .iter()
            .map(|r| (r.score, r.tiebreaks.clone()))
            .collect();
        for i in 0..keys.len() {
            let first = keys.iter().position(|k| *k == keys[i]).unwrap_or(i);
            let last = keys.iter().rposition(|k| *k == keys[i]).unwrap_or(i);
            rows[start + i].place = (first + 1, last + 1);
        }
        start = end;
    }
}
