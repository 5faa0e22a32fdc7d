//! What a competition needs next: the boards of the first round (or of
//! every round, for a round robin played all at once), the next round once
//! a round is over, the next game of a knockout match, or the end.
//!
//! Colours drawn by lot (a knockout match's first game, a sudden-death
//! game) come from the caller's `coin`, so this stays deterministic for a
//! given draw and testable.

use super::{Board, BoardResult, Event, Format};
use crate::tournament::{
    berger::{berger, snake_groups},
    dutch,
    knockout::{self, Match, Next},
    model::{Colour, Pno},
    team,
};

/// What to do now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing until games end.
    Wait,
    /// Pair round `round` with these boards.
    Pair { round: u32, boards: Vec<Board> },
    /// Further games in the current round (a knockout match goes on).
    Add(Vec<Board>),
    /// The competition is over.
    Finished,
    /// The next round cannot be paired (the reason, in English, for logs
    /// and moderators); the competition ends with the rounds played.
    Stuck(String),
}

/// The boards to create at the start: round 1, or every round of a round
/// robin when `all_at_once`.
pub fn start(
    event: &Event,
    all_at_once: bool,
    coin: &mut dyn FnMut() -> Colour,
) -> Result<Vec<Board>, String> {
    if all_at_once && event.settings.format.is_round_robin() {
        let mut boards = Vec::new();
        for round in 1..=event.planned_rounds() {
            boards.extend(round_boards(event, round, coin)?);
        }
        return Ok(boards);
    }
    round_boards(event, 1, coin)
}

/// The next step after the boards recorded so far.
pub fn next(event: &Event, coin: &mut dyn FnMut() -> Colour) -> Step {
    if event.settings.format == Format::Knockout {
        return next_knockout(event, coin);
    }
    if !event.all_decided() {
        return Step::Wait;
    }
    let current = event.last_round();
    if current >= event.planned_rounds() || active(event, current + 1).len() < 2 {
        return Step::Finished;
    }
    match round_boards(event, current + 1, coin) {
        Ok(boards) if boards.is_empty() => Step::Finished,
        Ok(boards) => Step::Pair {
            round: current + 1,
            boards,
        },
        Err(why) => Step::Stuck(why),
    }
}

/// Players still in for `round`.
fn active(event: &Event, round: u32) -> Vec<Pno> {
    event
        .entrants
        .iter()
        .filter(|e| e.withdrawn_after.is_none_or(|w| w >= round))
        .map(|e| e.pno)
        .collect()
}

fn withdrawn_by(event: &Event, pno: Pno, round: u32) -> bool {
    event
        .entrant(pno)
        .and_then(|e| e.withdrawn_after)
        .is_some_and(|w| w < round)
}

/// The boards of `round`, numbered from 1.
fn round_boards(
    event: &Event,
    round: u32,
    coin: &mut dyn FnMut() -> Colour,
) -> Result<Vec<Board>, String> {
    let pairs: Vec<(Pno, Option<Pno>)> = match event.settings.format {
        Format::Swiss => {
            let mut record = event.record();
            for p in &mut record.players {
                p.rounds.truncate(round as usize - 1);
            }
            dutch::pair_round(&record, round)
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(|p| (p.white, p.black))
                .collect()
        }
        Format::RoundRobin | Format::DoubleRoundRobin => {
            let n = event.entrants.len() as u32;
            let double = event.settings.format == Format::DoubleRoundRobin;
            berger_round(&berger(n, double), round, |i| i)
        }
        Format::Groups => {
            let seeds: Vec<Pno> = event.entrants.iter().map(|e| e.pno).collect();
            let mut out = Vec::new();
            for group in snake_groups(&seeds, event.settings.groups.max(1) as usize) {
                let table = berger(group.len() as u32, false);
                out.extend(berger_round(&table, round, |i| group[i as usize - 1]));
            }
            out
        }
        Format::Team => team_round(event, round),
        Format::Knockout => return Ok(knockout_round(event, round, coin)),
    };
    Ok(pairs
        .into_iter()
        // A round robin's rest (the bye slot) is no board: it scores nothing.
        .filter(|(_, b)| b.is_some() || event.settings.format == Format::Swiss)
        .enumerate()
        .map(|(i, (white, black))| {
            let result = match black {
                None => Some(BoardResult::Bye),
                // A withdrawn player's remaining round-robin games are lost
                // by forfeit (FIDE Tournament Rules, conduct of the players,
                // art. 4: "-" for him, "+" for the opponent).
                Some(black) => match (
                    withdrawn_by(event, white, round),
                    withdrawn_by(event, black, round),
                ) {
                    (true, true) => Some(BoardResult::DoubleForfeit),
                    (true, false) => Some(BoardResult::BlackForfeitWin),
                    (false, true) => Some(BoardResult::WhiteForfeitWin),
                    (false, false) => None,
                },
            };
            Board {
                round,
                board: i as u32 + 1,
                game_no: 1,
                white,
                black,
                result,
            }
        })
        .collect())
}

/// Round `round` of a Berger table, its local numbers mapped by `to_pno`.
fn berger_round(
    table: &[Vec<crate::tournament::model::Pair>],
    round: u32,
    to_pno: impl Fn(u32) -> Pno,
) -> Vec<(Pno, Option<Pno>)> {
    table
        .get(round as usize - 1)
        .map(|pairs| {
            pairs
                .iter()
                .map(|p| (to_pno(p.white), p.black.map(&to_pno)))
                .collect()
        })
        .unwrap_or_default()
}

/// A team round: each match's boards, the first-named team White on the
/// odd boards (the seed rules: 全队循环制; colours alternate by board).
fn team_round(event: &Event, round: u32) -> Vec<(Pno, Option<Pno>)> {
    let teams = event.teams();
    let members = |name: &str| -> Vec<Pno> {
        event
            .entrants
            .iter()
            .filter(|e| e.section.as_deref() == Some(name))
            .map(|e| e.pno)
            .collect()
    };
    let schedule = team::round_robin(teams.len() as u32, false);
    let Some(matches) = schedule.get(round as usize - 1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &(home, away) in matches {
        // A team facing the bye slot rests.
        let Some(away) = away else { continue };
        let home = members(&teams[home as usize - 1]);
        let away = members(&teams[away as usize - 1]);
        for (i, (&h, &a)) in home.iter().zip(&away).enumerate() {
            out.push(if i % 2 == 0 {
                (h, Some(a))
            } else {
                (a, Some(h))
            });
        }
    }
    out
}

/// A knockout round: round 1 from the seeded bracket, later rounds from the
/// winners of neighbouring matches. Each match starts with game 1.
fn knockout_round(event: &Event, round: u32, coin: &mut dyn FnMut() -> Colour) -> Vec<Board> {
    let pairs: Vec<(Pno, Option<Pno>)> = if round == 1 {
        knockout::first_round(event.entrants.len() as u32)
    } else {
        let winners: Vec<Pno> = matches_of(event, round - 1)
            .iter()
            .filter_map(|m| match m {
                MatchState::Decided(w) => Some(*w),
                _ => None,
            })
            .collect();
        winners
            .chunks(2)
            .map(|c| match c {
                [a, b] => ((*a).min(*b), Some((*a).max(*b))),
                [a] => (*a, None),
                _ => unreachable!("chunks of two"),
            })
            .collect()
    };
    pairs
        .into_iter()
        .enumerate()
        .map(|(i, (a, b))| {
            let board = i as u32 + 1;
            match b {
                None => Board {
                    round,
                    board,
                    game_no: 1,
                    white: a,
                    black: None,
                    result: Some(BoardResult::Bye),
                },
                Some(b) => match_game(round, board, 1, a, b, coin()),
            }
        })
        .collect()
}

fn match_game(round: u32, board: u32, game_no: u32, a: Pno, b: Pno, a_colour: Colour) -> Board {
    let (white, black) = match a_colour {
        Colour::White => (a, b),
        Colour::Black => (b, a),
    };
    Board {
        round,
        board,
        game_no,
        white,
        black: Some(black),
        result: None,
    }
}

/// Where a knockout match stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// A game is being played.
    Playing,
    /// It needs this game next.
    NeedsGame(Board),
    Decided(Pno),
}

/// The matches of knockout round `round`, in board order.
pub fn matches_of(event: &Event, round: u32) -> Vec<MatchState> {
    let mut boards: Vec<&Board> = event.boards.iter().filter(|b| b.round == round).collect();
    boards.sort_by_key(|b| (b.board, b.game_no));
    let mut out = Vec::new();
    for games in boards.chunk_by(|x, y| x.board == y.board) {
        out.push(match_state(event, games, &mut || Colour::White).0);
    }
    out
}

/// A match's state from its games (in order); `coin` draws the colours of a
/// sudden-death game. The second value is the match as the core sees it.
fn match_state(
    event: &Event,
    games: &[&Board],
    coin: &mut dyn FnMut() -> Colour,
) -> (MatchState, Option<Match>) {
    let first = games[0];
    let Some(other) = first.black else {
        return (MatchState::Decided(first.white), None);
    };
    if games.iter().any(|g| g.result.is_none()) {
        return (MatchState::Playing, None);
    }
    let a = first.white.min(other);
    let b = first.white.max(other);
    let colour_of_a = |g: &Board| {
        if g.white == a {
            Colour::White
        } else {
            Colour::Black
        }
    };
    let scoring = &event.settings.scoring;
    let points_of_a = |g: &Board| {
        let white = g.result.map_or(0, |r| r.white_points(scoring));
        let black = g.result.map_or(0, |r| scoring.points(r.outcomes().1));
        let (mine, theirs) = if g.white == a {
            (white, black)
        } else {
            (black, white)
        };
        // Points as a share of the game (a match scores out of 1 a game;
        // both forfeited counts as shared).
        if mine + theirs == 0 {
            5
        } else {
            mine * 10 / (mine + theirs)
        }
    };
    let regular = event.settings.match_games + 2 * event.settings.decider.extra_pairs;
    let m = Match {
        a,
        b,
        games: event.settings.match_games,
        decider: event.settings.decider,
        a_first: colour_of_a(first),
        results: games.iter().map(|g| points_of_a(g)).collect(),
        sudden_death_colours: games
            .iter()
            .skip(regular as usize)
            .map(|g| colour_of_a(g))
            .collect(),
    };
    let (round, board) = (first.round, first.board);
    let state = match m.next() {
        Next::Winner(w) => MatchState::Decided(w),
        // No decider left: the higher seed goes through (the bot's rule;
        // a moderator may correct a result to change it).
        Next::Tied => MatchState::Decided(a),
        Next::Game { game, a_colour } => {
            MatchState::NeedsGame(match_game(round, board, game, a, b, a_colour))
        }
        Next::DrawColours { game } => {
            MatchState::NeedsGame(match_game(round, board, game, a, b, coin()))
        }
    };
    (state, Some(m))
}

fn next_knockout(event: &Event, coin: &mut dyn FnMut() -> Colour) -> Step {
    let round = event.last_round();
    if round == 0 {
        return Step::Wait;
    }
    let mut boards: Vec<&Board> = event.boards.iter().filter(|b| b.round == round).collect();
    boards.sort_by_key(|b| (b.board, b.game_no));
    let mut adds = Vec::new();
    let mut decided = 0;
    let mut matches = 0;
    for games in boards.chunk_by(|x, y| x.board == y.board) {
        matches += 1;
        match match_state(event, games, coin).0 {
            MatchState::Playing => {}
            MatchState::NeedsGame(b) => adds.push(b),
            MatchState::Decided(_) => decided += 1,
        }
    }
    if !adds.is_empty() {
        return Step::Add(adds);
    }
    if decided < matches {
        return Step::Wait;
    }
    if matches <= 1 {
        return Step::Finished;
    }
    Step::Pair {
        round: round + 1,
        boards: knockout_round(event, round + 1, coin),
    }
}
