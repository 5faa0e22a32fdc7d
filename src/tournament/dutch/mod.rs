//! The FIDE (Dutch) Swiss system, FIDE Handbook C.04.3 (with the general
//! rules C.04.1 and C.04.2). Article numbers in comments are those of the
//! C.04.3 text (A definitions, B bracket procedure, C criteria, D sequence,
//! E colours).
//!
//! The round is paired bracket by bracket from the top scoregroup down
//! ([`bracket`]): each bracket is its scoregroup's residents plus the players
//! moved down from above (A.3, A.4); its pairing must leave the rest of the
//! round pairable (C.4, checked with a maximum matching: [`matching`]), then
//! is the best by C.5–C.19 in order, the first in the Dutch sequence winning
//! ties. Colours follow E.1–E.5 ([`colour`]). Same input, same pairing: no
//! randomness, no hashing order.
//!
//! Readings where the text admits several follow bbpPairings (FIDE-endorsed):
//! forfeited games do not count as played (C.1, colours), a round not played
//! that still scored is a downfloat (A.4), and a forfeit win or full-point bye
//! counts like a PAB for C.2.

pub mod bracket;
pub mod colour;
pub mod matching;
pub mod state;

use bracket::{Budget, Ctx, Search};

use super::model::{Pair, PairingError, Pno, Tournament};

/// Options of the Dutch engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Search budget per bracket (see [`Budget`]).
    pub budget: Budget,
}

/// The players to pair in `round`: registered, not withdrawn, and with no
/// entry already recorded for that round (a requested bye or an absence).
pub fn available(t: &Tournament, round: u32) -> Vec<Pno> {
    t.players
        .iter()
        .filter(|p| !p.withdrawn && p.entry(round).is_none())
        .map(|p| p.pno)
        .collect()
}

/// Pairs round `round` (1-based) from the entries of the rounds before it.
/// Returns the boards in FIDE order (C.04.2: higher score first, then the
/// higher sum, then the higher ranked player), the PAB last.
pub fn pair_round(t: &Tournament, round: u32, opts: Options) -> Result<Vec<Pair>, PairingError> {
    let states = state::states(t, round);
    let avail = available(t, round);
    let mut ps: Vec<&state::PlayerState> =
        states.iter().filter(|s| avail.contains(&s.pno)).collect();
    // A.2: order by score, then pairing number.
    ps.sort_by(|a, b| b.score.cmp(&a.score).then(a.pno.cmp(&b.pno)));
    let n = ps.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    let ctx = Ctx::new(ps, t.initial_colour, opts.budget);
    let all: Vec<usize> = (0..n).collect();
    if !ctx.completable(&all) {
        return Err(PairingError::Impossible(
            "no pairing respects the absolute criteria (no rematch, at most one PAB, \
             colour limits)"
                .to_string(),
        ));
    }
    // A.3: scoregroups (index ranges of equal score).
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in 1..=n {
        if i == n || ctx.ps[i].score != ctx.ps[start].score {
            groups.push((start, i));
            start = i;
        }
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut mdps: Vec<usize> = Vec::new();
    for (g, &(from, to)) in groups.iter().enumerate() {
        let mut bracket = mdps.clone();
        bracket.extend(from..to);
        let lower: Vec<usize> = (to..n).collect();
        let next: Vec<usize> = groups
            .get(g + 1)
            .map_or(Vec::new(), |&(a, b)| (a..b).collect());
        let found = Search::pair(&ctx, &bracket, mdps.len(), lower, next).ok_or_else(|| {
            PairingError::Impossible(format!(
                "the bracket of score {} found no pairing within the search budget",
                super::model::show_score(ctx.ps[from].score)
            ))
        })?;
        pairs.extend(found.pairs);
        mdps = found.floaters;
    }
    // What floats out of the last bracket is the PAB assignee (A.5, C.2).
    if mdps.len() > 1 {
        return Err(PairingError::Impossible(
            "more than one player left unpaired".to_string(),
        ));
    }
    let score_of = |i: usize| ctx.ps[i].score;
    pairs.sort_by(|&(a1, b1), &(a2, b2)| {
        let (hi1, hi2) = (
            score_of(a1).max(score_of(b1)),
            score_of(a2).max(score_of(b2)),
        );
        hi2.cmp(&hi1)
            .then((score_of(a2) + score_of(b2)).cmp(&(score_of(a1) + score_of(b1))))
            .then(a1.min(b1).cmp(&a2.min(b2)))
    });
    let mut out: Vec<Pair> = pairs
        .iter()
        .map(|&(i, j)| {
            let c = ctx.colour_of_higher(i, j);
            let (a, b) = (ctx.ps[i].pno, ctx.ps[j].pno);
            match c {
                super::model::Colour::White => Pair {
                    white: a,
                    black: Some(b),
                },
                super::model::Colour::Black => Pair {
                    white: b,
                    black: Some(a),
                },
            }
        })
        .collect();
    if let Some(&bye) = mdps.first() {
        out.push(Pair {
            white: ctx.ps[bye].pno,
            black: None,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
