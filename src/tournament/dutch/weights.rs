//! The FIDE Dutch criteria as edge weights.
//!
//! The round's pairing is a maximum-weight matching ([`super::blossom`]) of
//! the players still to pair. An edge's weight is one wide integer made of
//! fields, most important first, so that a better value in a higher field
//! outweighs everything below it (the criteria of C.04.3 section C are
//! ranked: each applies only among pairings equal on the ones before it).
//! This is the encoding of bbpPairings, the FIDE-endorsed engine (its
//! `computeEdgeWeight`), field for field, so both engines rank pairings the
//! same way. Field widths: `B` bits count players of one scoregroup, `G` bits
//! hold one sub-field per scoregroup (lower scoregroups in lower bits).
//!
//! From the top:
//! 1. compatibility (C.1 no rematch, C.3 absolute colours; zero = no edge),
//!    then 1 + one for each player not a PAB candidate (C.2, C.5: pair
//!    everyone who may not take the bye);
//! 2. pairs in the current bracket, and the scores paired there (C.6, C.7:
//!    maximise pairs, then the scores of the moved-down players paired);
//! 3. the same for the next bracket (C.4 completion, as far as it reaches);
//! 4. the unplayed games of the PAB assignee (C.9);
//! 5. colours (C.10 absolute imbalance, C.11 absolute preference with the
//!    topscorer readings, C.12 preferences, C.13 strong preferences);
//! 6. floats: repeated down- and upfloaters of the last round and the one
//!    before (C.14–C.17), then their scores (C.18–C.21);
//! 7. room for the order of transpositions and exchanges (section D),
//!    filled in by [`super::pairing`].

use std::collections::HashMap;

use super::state::{Float, PlayerState, Strength};
use super::wide::Wide;
use crate::tournament::model::{Colour, Score};

/// Bits needed to write `v` (0 needs 0 bits).
pub fn bits_for(v: usize) -> u32 {
    usize::BITS - v.leading_zeros()
}

/// What the weights know about the round (constant within a round).
pub struct Layout {
    /// `B`: bits for a count of players of one scoregroup.
    pub size_bits: u32,
    /// `G`: bits for one sub-field per scoregroup.
    pub groups_bits: u32,
    /// Where each scoregroup's sub-field starts within a `G` field.
    pub group_shift: HashMap<Score, u32>,
    /// Rounds already paired (floats of one and two rounds back exist).
    pub played_rounds: u32,
}

impl Layout {
    /// `sorted`: the players to pair, highest score first.
    pub fn new(sorted: &[&PlayerState], played_rounds: u32) -> Layout {
        // Scoregroups from the lowest up: each gets bits for its own size.
        let mut group_shift = HashMap::new();
        let (mut shift, mut largest, mut run) = (0u32, 0usize, 0usize);
        for (i, p) in sorted.iter().enumerate().rev() {
            run += 1;
            if i == 0 || sorted[i - 1].score > p.score {
                group_shift.insert(p.score, shift);
                largest = largest.max(run);
                shift += bits_for(run);
                run = 0;
            }
        }
        Layout {
            size_bits: bits_for(largest),
            groups_bits: shift,
            group_shift,
            played_rounds,
        }
    }

    /// The width of the largest weight, plus the two bits the matching's
    /// doubled duals need.
    pub fn total_bits(&self) -> u32 {
        let (b, g) = (self.size_bits, self.groups_bits);
        let mut bits = 2 + b + g + b + g + 2 * b + 4 * b;
        if self.played_rounds >= 1 {
            bits += 2 * b + 2 * g;
        }
        if self.played_rounds > 1 {
            bits += 2 * b + 2 * g;
        }
        bits + 3 * b + 1 + 2
    }

    fn shift_of(&self, s: Score) -> u32 {
        self.group_shift.get(&s).copied().unwrap_or(0)
    }
}

/// The round-wide facts that change how the PAB is weighed.
#[derive(Debug, Clone, Default)]
pub struct ByeContext {
    /// The score of the player the PAB will go to (0 for an even count).
    pub assignee_score: Score,
    /// C.9 applies: the one player leaving the bracket is the PAB assignee.
    pub single_downfloater_is_assignee: bool,
    /// C.9: for each number of games played, the rank among the players
    /// with the assignee's score (most games played = 0; equal counts share
    /// the last rank of their run). Leaving out a high rank costs more, so
    /// the PAB goes to the candidate who has played the most.
    pub played_rank: HashMap<usize, u64>,
}

impl ByeContext {
    fn rank_of(&self, p: &PlayerState) -> u64 {
        self.played_rank.get(&p.colours.len()).copied().unwrap_or(0)
    }
}

/// A.6 with bbpPairings' names: colour imbalance is |whites − blacks|.
fn imbalance(p: &PlayerState) -> u32 {
    p.cd.unsigned_abs()
}

fn absolute_imbalance(p: &PlayerState) -> bool {
    imbalance(p) > 1
}

fn absolute(p: &PlayerState) -> bool {
    p.strength == Strength::Absolute
}

fn strong(p: &PlayerState) -> bool {
    p.strength == Strength::Strong
}

/// Whether two colour preferences can both be granted (E.1).
pub fn preferences_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none() || b.is_none()
}

/// C.1 and C.3: the two may meet. In the last round a topscorer (A.7) may
/// meet someone with the same absolute preference (C.3's exception).
pub fn compatible(a: &PlayerState, b: &PlayerState) -> bool {
    !a.met.contains(&b.pno)
        && (!absolute(a) || !absolute(b) || a.pref != b.pref || a.topscorer || b.topscorer)
}

/// C.2 with C.5: may take the PAB this round.
pub fn bye_candidate(p: &PlayerState, bye: &ByeContext) -> bool {
    p.bye_eligible && p.score <= bye.assignee_score
}

/// The weight of pairing `higher` (earlier in the pairing order) with
/// `lower`. `lower_in_current`: `lower` is a resident of the bracket being
/// paired; `lower_in_next`: of the scoregroup below it.
pub fn edge_weight<const N: usize>(
    layout: &Layout,
    bye: &ByeContext,
    higher: &PlayerState,
    lower: &PlayerState,
    lower_in_current: bool,
    lower_in_next: bool,
) -> Wide<N> {
    let mut r = Wide::<N>::zero();
    if !compatible(higher, lower) {
        return r;
    }
    let (b, g) = (layout.size_bits, layout.groups_bits);
    let cur = lower_in_current;
    let flag = |x: bool| x as u64;
    let (sh, sl) = (higher.score, lower.score);

    // 1. completion and PAB eligibility.
    r = r.add_small(1 + flag(!bye_candidate(higher, bye)) + flag(!bye_candidate(lower, bye)));
    // 2. pairs in the current bracket, then the scores paired there.
    r.shl(b);
    r.or_small(flag(cur));
    r.shl(g);
    if cur {
        r = r.add(&Wide::bit(layout.shift_of(sh)));
    }
    // 3. the same for the next bracket.
    r.shl(b);
    r.or_small(flag(lower_in_next));
    r.shl(g);
    if lower_in_next {
        r = r.add(&Wide::bit(layout.shift_of(sh)));
    }
    // 4. C.9: unplayed games of the PAB assignee (a field of 2B bits).
    r.shl(2 * b);
    if bye.single_downfloater_is_assignee {
        if sh == bye.assignee_score {
            r.or_small(bye.rank_of(higher));
        }
        if sl == bye.assignee_score {
            r = r.add_small(bye.rank_of(lower));
        }
    }
    // 5. colours, only inside the current bracket.
    let (p, o) = (lower, higher);
    let same_pref = p.pref == o.pref;
    r.shl(b);
    r.or_small(flag(
        cur && (!absolute_imbalance(p) || !absolute_imbalance(o) || !same_pref),
    ));
    r.shl(b);
    let repeated_ok = if imbalance(p) == imbalance(o) {
        p.twice().is_none() || p.twice() != o.twice()
    } else {
        let smaller = if imbalance(p) > imbalance(o) { o } else { p };
        smaller.twice() != p.pref.map(Colour::invert)
    };
    r.or_small(flag(
        cur && (!absolute(p) || !absolute(o) || !same_pref || repeated_ok),
    ));
    r.shl(b);
    r.or_small(flag(cur && preferences_compatible(p.pref, o.pref)));
    r.shl(b);
    r.or_small(flag(
        cur && ((!strong(p) && !absolute(p))
            || (!strong(o) && !absolute(o))
            || (absolute(p) && absolute(o))
            || !same_pref),
    ));
    // 6. floats of the last two rounds, then their scores.
    let float = |q: &PlayerState, back: u32| if back == 1 { q.float1 } else { q.float2 };
    for back in [1, 2] {
        if layout.played_rounds < back {
            continue;
        }
        r.shl(b);
        if cur {
            r.or_small(flag(float(lower, back) == Float::Down));
            r = r.add_small(flag(sh <= sl && float(higher, back) == Float::Down));
        }
        r.shl(b);
        if cur {
            r.or_small(flag(!(sh > sl && float(lower, back) == Float::Up)));
        }
    }
    for back in [1, 2] {
        if layout.played_rounds < back {
            continue;
        }
        r.shl(g);
        if cur {
            if float(lower, back) == Float::Down {
                r = r.add(&Wide::bit(layout.shift_of(sl)));
            }
            if float(higher, back) == Float::Down {
                r = r.add(&Wide::bit(layout.shift_of(sh)));
            }
        }
        r.shl(g);
        if cur && !(float(lower, back) == Float::Up && sh > sl) {
            r = r.add(&Wide::bit(layout.shift_of(sh)));
        }
    }
    // 7. room for the ordering of section D.
    r.shl(3 * b + 1);
    r
}

/// The weight used before the PAB assignee's score is known (odd number of
/// players): pair as many as possible, those who may not take the PAB
/// first, then leave out someone from as low a scoregroup as possible.
pub fn bye_search_weight<const N: usize>(
    layout: &Layout,
    top_score: Score,
    a: &PlayerState,
    b: &PlayerState,
) -> Wide<N> {
    let mut r = Wide::<N>::zero();
    if !compatible(a, b) {
        return r;
    }
    r = r.add_small(1 + !a.bye_eligible as u64 + !b.bye_eligible as u64);
    r.shl(layout.groups_bits);
    r = r.add_small((layout.shift_of(a.score) + layout.shift_of(b.score)) as u64);
    r.shl(layout.size_bits);
    r.or_small((a.score >= top_score) as u64);
    r
}

/// A starting dual for `p` in the PAB search: with these, every pair's
/// doubled [`bye_search_weight`] is at most the sum of the two duals
/// (a feasible start), and exactly the sum for every compatible pair except
/// a topscorer with a player who is not one. The weight is a sum of one
/// part per player, (1 + a + b)·2^(G+B) + (shift a + shift b)·2^B, plus one
/// for two topscorers; the dual is the player's half of it, doubled:
/// (1 + 2a)·2^(G+B) + 2·shift·2^B, plus one for a topscorer. So the search
/// starts with nearly every pair tight and little left to find, where a
/// start from the largest weight leaves it a stage per pair.
pub fn bye_search_dual<const N: usize>(
    layout: &Layout,
    top_score: Score,
    p: &PlayerState,
) -> Wide<N> {
    let mut r = Wide::<N>::small(1 + 2 * !p.bye_eligible as u64);
    r.shl(layout.groups_bits);
    r = r.add_small(2 * layout.shift_of(p.score) as u64);
    r.shl(layout.size_bits);
    r.add_small((p.score >= top_score) as u64)
}
