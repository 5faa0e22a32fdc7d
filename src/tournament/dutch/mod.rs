//! The FIDE (Dutch) Swiss system, FIDE Handbook C.04.3 (with the general
//! rules C.04.1 and C.04.2). Article numbers in comments are those of the
//! C.04.3 text (A definitions, B bracket procedure, C criteria, D sequence,
//! E colours).
//!
//! A round is one maximum-weight matching problem ([`blossom`]): every
//! criterion of section C becomes a field of the edge weights ([`weights`]),
//! and the brackets are settled from the top scoregroup down in the order of
//! section D ([`pairing`]). This is the method of bbpPairings, the
//! FIDE-endorsed engine lichess uses, and its encoding of the criteria, so
//! the two produce the same pairings; colours follow E.1–E.5 ([`colour`]).
//! Same input, same pairing: no randomness, no hashing order.
//!
//! Readings where the text admits several follow bbpPairings: forfeited
//! games do not count as played (C.1, colours), a round not played that
//! still scored is a downfloat (A.4), and a forfeit win or full-point bye
//! counts like a PAB for C.2.

pub mod blossom;
pub mod colour;
pub mod pairing;
pub mod state;
pub mod weights;
pub mod wide;

use super::model::{Pair, PairingError, Pno, Tournament};

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
pub fn pair_round(t: &Tournament, round: u32) -> Result<Vec<Pair>, PairingError> {
    let states = state::states(t, round);
    let avail = available(t, round);
    let mut ps: Vec<&state::PlayerState> =
        states.iter().filter(|s| avail.contains(&s.pno)).collect();
    // A.2: order by score, then pairing number.
    ps.sort_by(|a, b| b.score.cmp(&a.score).then(a.pno.cmp(&b.pno)));
    let paired = pairing::pair(&ps, round.saturating_sub(1)).map_err(|e| match e {
        pairing::Unpairable::Absolute => PairingError::Impossible(
            "no pairing respects the absolute criteria (no rematch, at most one PAB, \
             colour limits)"
                .to_string(),
        ),
        pairing::Unpairable::TooLarge => PairingError::Impossible(
            "the tournament is too large for this build's pairing weights".to_string(),
        ),
    })?;
    let score_of = |i: usize| ps[i].score;
    let mut pairs = paired.pairs;
    // C.04.2: boards by the higher score, then the lower score, then the
    // higher player's rank.
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
            let (hi, lo) = (i.min(j), i.max(j));
            let c = colour::allocate(ps[hi], ps[lo], true, t.initial_colour);
            let (a, b) = (ps[hi].pno, ps[lo].pno);
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
    if let Some(bye) = paired.bye {
        out.push(Pair {
            white: ps[bye].pno,
            black: None,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
