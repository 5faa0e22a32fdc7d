//! Colour allocation for a pair (C.04.3 section E), and the colour checks
//! the quality criteria count.

use super::state::{PlayerState, Strength};
use crate::tournament::model::Colour;

/// The colour `a` gets against `b`. `a_higher` says whether `a` ranks above
/// `b` (A.2: score, then pairing number); `initial` is the colour drawn by
/// lot for pairing number 1 in round 1 (TRF(x) `XXC`).
pub fn allocate(a: &PlayerState, b: &PlayerState, a_higher: bool, initial: Colour) -> Colour {
    // E.1: grant both colour preferences.
    match (a.pref, b.pref) {
        (Some(pa), Some(pb)) if pa != pb => return pa,
        (Some(pa), None) => return pa,
        (None, Some(pb)) => return pb.invert(),
        _ => {}
    }
    if let (Some(pa), Some(_)) = (a.pref, b.pref) {
        // Same preference on both sides.
        // E.2: grant the stronger preference; when both are absolute
        // (topscorers, C.3 exception) the wider colour difference wins.
        if a.strength != b.strength {
            return if a.strength > b.strength {
                pa
            } else {
                pa.invert()
            };
        }
        if a.strength == Strength::Absolute && a.cd.abs() != b.cd.abs() {
            return if a.cd.abs() > b.cd.abs() {
                pa
            } else {
                pa.invert()
            };
        }
        // E.3: alternate the colours to the most recent round in which one
        // had white and the other black (games played, latest first).
        let (ca, cb) = (&a.colours, &b.colours);
        for k in 1..=ca.len().min(cb.len()) {
            let (x, y) = (ca[ca.len() - k], cb[cb.len() - k]);
            if x != y {
                return x.invert();
            }
        }
        // E.4: grant the preference of the higher ranked player.
        return if a_higher { pa } else { pa.invert() };
    }
    // E.5: no preferences: the higher ranked player gets the initial colour
    // if his pairing number is odd, the other colour if it is even (the
    // effective number: see `PlayerState::rank`).
    let (higher, a_is_higher) = if a_higher { (a, true) } else { (b, false) };
    let higher_colour = if higher.rank % 2 == 0 {
        initial
    } else {
        initial.invert()
    };
    if a_is_higher {
        higher_colour
    } else {
        higher_colour.invert()
    }
}

/// Whether a player given `c` gets his preference (C.10 counts misses).
pub fn granted(p: &PlayerState, c: Colour) -> bool {
    p.pref.is_none_or(|x| x == c)
}

/// Colour difference after receiving `c`.
pub fn cd_after(p: &PlayerState, c: Colour) -> i32 {
    p.cd + if c == Colour::White { 1 } else { -1 }
}

/// Whether receiving `c` makes three games in a row with the same colour.
pub fn third_in_row(p: &PlayerState, c: Colour) -> bool {
    p.twice() == Some(c)
}
