//! What the Dutch rules need to know about each player before a round:
//! score, colour difference and preference (C.04.3 A.6), floats of the last
//! two rounds (A.4), who they have met (C.1) and whether they may receive the
//! pairing-allocated bye (C.2).

use std::collections::HashSet;

use crate::tournament::model::{Colour, Outcome, Pno, Score, Tournament};

/// Strength of a colour preference (A.6), weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No games played yet: no preference.
    None,
    /// A.6.c: colour difference 0, alternate from the last game.
    Mild,
    /// A.6.b: colour difference ±1.
    Strong,
    /// A.6.a: colour difference beyond ±1, or the same colour twice in a row.
    Absolute,
}

/// A float received in a past round (A.4.b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

/// One player as the pairing sees them.
#[derive(Debug, Clone)]
pub struct PlayerState {
    pub pno: Pno,
    pub score: Score,
    /// Colours of the games played, oldest first (forfeits and byes give no
    /// colour: C.04.1.f, A.6).
    pub colours: Vec<Colour>,
    /// Whites minus blacks (A.6).
    pub cd: i32,
    pub pref: Option<Colour>,
    pub strength: Strength,
    /// Floats of the previous round and of two rounds before.
    pub float1: Float,
    pub float2: Float,
    /// Opponents met over the board (C.1). A forfeited game is not a game
    /// played: those two may be paired again, as bbpPairings and JaVaFo do.
    pub met: HashSet<Pno>,
    /// May receive the PAB (C.2): has not had one, nor a win without playing
    /// (forfeit win or full-point bye).
    pub bye_eligible: bool,
    /// A.7: in the last round, a score above half the maximum possible.
    pub topscorer: bool,
    /// The effective pairing number, 0-based: the rank by pairing number
    /// among the players taking part so far (E.5 uses its parity). A player
    /// absent from every round paired so far, and from this one, is not
    /// counted, as in bbpPairings.
    pub rank: u32,
}

impl PlayerState {
    /// Whether the player had the same colour in the last two games played.
    pub fn twice(&self) -> Option<Colour> {
        let n = self.colours.len();
        (n >= 2 && self.colours[n - 1] == self.colours[n - 2]).then(|| self.colours[n - 1])
    }
}

/// The states of all players before round `round` (1-based), using the
/// entries of rounds `1..round`.
pub fn states(t: &Tournament, round: u32) -> Vec<PlayerState> {
    let played = round.saturating_sub(1);
    let score_before =
        |pno: Pno, r: u32| -> Score { t.player(pno).map_or(0, |p| p.score_after(&t.scoring, r)) };
    // A.7: topscorers exist only when pairing the last round.
    let last_round = t.total_rounds.is_some_and(|n| round >= n);
    let max_point = t.scoring.win.max(t.scoring.draw);
    t.players
        .iter()
        .map(|p| {
            let score = p.score_after(&t.scoring, played);
            let mut colours = Vec::new();
            let mut met = HashSet::new();
            let mut bye_eligible = true;
            for e in p.rounds.iter().take(played as usize).flatten() {
                if e.played() {
                    if let Some(c) = e.colour {
                        colours.push(c);
                    }
                    if let Some(o) = e.opponent {
                        met.insert(o);
                    }
                }
                if matches!(
                    e.outcome,
                    Outcome::PairingBye | Outcome::FullBye | Outcome::ForfeitWin
                ) {
                    bye_eligible = false;
                }
            }
            let cd = colours
                .iter()
                .map(|c| if *c == Colour::White { 1 } else { -1 })
                .sum::<i32>();
            let float_of = |back: u32| -> Float {
                if played < back {
                    return Float::None;
                }
                let r = played - back + 1;
                let Some(e) = p.entry(r) else {
                    return Float::None;
                };
                // A game not played (forfeit, bye, absence) floats no one,
                // unless it scored: then it counts as a downfloat.
                if !e.played() {
                    return if t.scoring.points(e.outcome) > t.scoring.loss {
                        Float::Down
                    } else {
                        Float::None
                    };
                }
                // Otherwise compare the scores before that round (A.4.b).
                let Some(o) = e.opponent else {
                    return Float::None;
                };
                let (mine, theirs) = (score_before(p.pno, r - 1), score_before(o, r - 1));
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                }
            };
            let mut s = PlayerState {
                pno: p.pno,
                score,
                colours,
                cd,
                pref: None,
                strength: Strength::None,
                float1: float_of(1),
                float2: float_of(2),
                met,
                bye_eligible,
                topscorer: last_round && 2 * score > played as Score * max_point,
                rank: 0,
            };
            let (pref, strength) = preference(&s);
            s.pref = pref;
            s.strength = strength;
            s
        })
        .collect::<Vec<_>>()
        .into_iter()
        .scan(0u32, |next, mut s| {
            let p = t.player(s.pno);
            let taking_part = p.is_some_and(|p| {
                p.entry(round).is_none()
                    || p.rounds.iter().take(played as usize).flatten().any(|e| {
                        e.opponent.is_some()
                            || matches!(e.outcome, Outcome::PairingBye | Outcome::ForfeitWin)
                    })
            });
            s.rank = *next;
            if taking_part {
                *next += 1;
            }
            Some(s)
        })
        .collect()
}

/// A.6: the colour preference and its strength.
fn preference(s: &PlayerState) -> (Option<Colour>, Strength) {
    let Some(&last) = s.colours.last() else {
        return (None, Strength::None);
    };
    if s.cd < -1 || s.cd > 1 {
        let c = if s.cd < -1 {
            Colour::White
        } else {
            Colour::Black
        };
        return (Some(c), Strength::Absolute);
    }
    if let Some(c) = s.twice() {
        return (Some(c.invert()), Strength::Absolute);
    }
    match s.cd {
        -1 => (Some(Colour::White), Strength::Strong),
        1 => (Some(Colour::Black), Strength::Strong),
        _ => (Some(last.invert()), Strength::Mild),
    }
}
