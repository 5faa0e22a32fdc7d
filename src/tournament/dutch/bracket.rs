//! Pairing one bracket (C.04.3 sections B, C and D): choose the pairs and the
//! downfloaters of a bracket so that the rest of the round can still be
//! paired (C.4), then by the quality criteria in their order (C.5–C.19),
//! candidates tried in the Dutch sequence (D: moved-down players first,
//! floaters taken from the bottom, S1 paired with S2 in transposition order,
//! then exchanges), the first best candidate winning.
//!
//! The search stops at the first candidate that reaches the bracket's lower
//! bound (a "perfect" candidate in B.4's sense); otherwise it keeps the best
//! found within a step budget (see [`Budget`]).

use std::collections::HashMap;

use super::{
    colour::{allocate, cd_after, granted, third_in_row},
    matching::maximum_matching,
    state::{Float, PlayerState, Strength},
};
use crate::tournament::model::{Colour, Score};

/// How many search steps one bracket may take before the best candidate so
/// far is accepted. Perfect candidates end the search long before.
#[derive(Debug, Clone, Copy)]
pub struct Budget(pub usize);

impl Default for Budget {
    fn default() -> Self {
        Budget(200_000)
    }
}

/// Everything about the round the bracket searches share: the players in
/// pairing order (A.2: score, then pairing number) and who may meet whom.
pub struct Ctx<'a> {
    pub ps: Vec<&'a PlayerState>,
    /// Absolute criteria C.1 (no rematch) and C.3 (no two non-topscorers with
    /// the same absolute colour preference).
    pub compat: Vec<Vec<bool>>,
    pub initial: Colour,
    pub budget: Budget,
}

impl<'a> Ctx<'a> {
    pub fn new(ps: Vec<&'a PlayerState>, initial: Colour, budget: Budget) -> Ctx<'a> {
        let n = ps.len();
        let mut compat = vec![vec![false; n]; n];
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (ps[i], ps[j]);
                let rematch = a.met.contains(&b.pno); // C.1
                let colour_clash = a.strength == Strength::Absolute
                    && b.strength == Strength::Absolute
                    && a.pref == b.pref
                    && !(a.topscorer || b.topscorer); // C.3, with A.7's exception
                let ok = !rematch && !colour_clash;
                compat[i][j] = ok;
                compat[j][i] = ok;
            }
        }
        Ctx {
            ps,
            compat,
            initial,
            budget,
        }
    }

    /// Whether the players `set` (indices) can all be paired, one of them
    /// taking the PAB when their number is odd (C.2: only an eligible one).
    pub fn completable(&self, set: &[usize]) -> bool {
        let n = set.len();
        let odd = n % 2 == 1;
        let m = n + usize::from(odd);
        let mate = maximum_matching(m, &|u, v| {
            if u == n || v == n {
                let w = if u == n { v } else { u };
                self.ps[set[w]].bye_eligible
            } else {
                self.compat[set[u]][set[v]]
            }
        });
        mate.iter().all(|&x| x != usize::MAX)
    }

    /// The number of pairs the players `set` can make among themselves.
    pub fn max_pairs(&self, set: &[usize]) -> usize {
        let mate = maximum_matching(set.len(), &|u, v| self.compat[set[u]][set[v]]);
        mate.iter().filter(|&&x| x != usize::MAX).count() / 2
    }

    /// Colour of the higher ranked of a pair (indices `i < j`).
    pub fn colour_of_higher(&self, i: usize, j: usize) -> Colour {
        allocate(self.ps[i], self.ps[j], true, self.initial)
    }
}

/// Counters of the criteria C.8–C.19, lower is better, in their order.
pub type Tail = [i64; 12];

/// The value of a candidate, compared field by field (lower is better).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quality {
    /// C.5: maximise the pairs = minimise the players left unpaired.
    pub unpaired: usize,
    /// C.6: minimise the PSD: the scores of the downfloaters, highest first.
    pub psd: Vec<Score>,
    /// C.7: in the next bracket, the players who could not be paired.
    pub next_unpaired: usize,
    /// C.8–C.19.
    pub tail: Tail,
}

/// What one pair adds to the C.8–C.19 counters (`i` ranks above `j`).
pub fn pair_cost(ctx: &Ctx, i: usize, j: usize) -> Tail {
    let (a, b) = (ctx.ps[i], ctx.ps[j]);
    let ca = ctx.colour_of_higher(i, j);
    let cb = ca.invert();
    let mut t = [0i64; 12];
    if a.topscorer || b.topscorer {
        // C.8: topscorers or their opponents with a colour difference
        // beyond ±2; C.9: ... with the same colour three times in a row.
        t[0] += i64::from(cd_after(a, ca).abs() > 2) + i64::from(cd_after(b, cb).abs() > 2);
        t[1] += i64::from(third_in_row(a, ca)) + i64::from(third_in_row(b, cb));
    }
    // C.10: players who do not get their colour preference.
    t[2] += i64::from(!granted(a, ca)) + i64::from(!granted(b, cb));
    // C.11: players who do not get their strong (or absolute) preference.
    t[3] += i64::from(a.strength >= Strength::Strong && !granted(a, ca))
        + i64::from(b.strength >= Strength::Strong && !granted(b, cb));
    if a.score > b.score {
        // A.4.b: the higher gets a downfloat, the lower an upfloat.
        add_downfloat(&mut t, a);
        // C.13/C.15: the same upfloat as one/two rounds before.
        t[5] += i64::from(b.float1 == Float::Up);
        t[7] += i64::from(b.float2 == Float::Up);
        // C.17/C.19: minimise the scores of the opponents of those upfloaters.
        if b.float1 == Float::Up {
            t[9] += a.score;
        }
        if b.float2 == Float::Up {
            t[11] += a.score;
        }
    }
    t
}

/// What a downfloat of `p` adds: C.12/C.14 (same downfloat as one/two rounds
/// before) and C.16/C.18 (minimise their scores).
fn add_downfloat(t: &mut Tail, p: &PlayerState) {
    if p.float1 == Float::Down {
        t[4] += 1;
        t[8] += p.score;
    }
    if p.float2 == Float::Down {
        t[6] += 1;
        t[10] += p.score;
    }
}

/// The cost of a player left unpaired in the bracket (a downfloater, or the
/// PAB assignee in the last bracket: A.4.b counts both as downfloats).
pub fn floater_cost(ctx: &Ctx, i: usize) -> Tail {
    let mut t = [0i64; 12];
    add_downfloat(&mut t, ctx.ps[i]);
    t
}

fn add(a: &mut Tail, b: &Tail) {
    for k in 0..12 {
        a[k] += b[k];
    }
}

fn sub(a: &mut Tail, b: &Tail) {
    for k in 0..12 {
        a[k] -= b[k];
    }
}

/// The best candidate so far: its value, pairs and downfloaters.
type Candidate = (Quality, Vec<(usize, usize)>, Vec<usize>);

/// What stays fixed while the transpositions of one S1/S2 split are tried.
struct Fixed<'x> {
    s1: &'x [usize],
    s2: &'x [usize],
    limbo: &'x [usize],
    unpaired: usize,
    psd: &'x [Score],
}

/// The outcome of pairing a bracket.
#[derive(Debug, Clone)]
pub struct BracketPairing {
    /// Pairs (indices into the round's order; first ranks higher).
    pub pairs: Vec<(usize, usize)>,
    /// Downfloaters, in order.
    pub floaters: Vec<usize>,
}

/// The search over one bracket.
pub struct Search<'c, 'a> {
    ctx: &'c Ctx<'a>,
    /// Players of the lower brackets (all of them: C.4 looks at the round).
    lower: Vec<usize>,
    /// Resident players of the next bracket (C.7).
    next: Vec<usize>,
    feasible: HashMap<Vec<usize>, bool>,
    next_cache: HashMap<Vec<usize>, usize>,
    costs: HashMap<(usize, usize), Tail>,
    best: Option<Candidate>,
    ideal: Quality,
    steps: usize,
    done: bool,
}

impl<'c, 'a> Search<'c, 'a> {
    /// Pairs `bracket` (indices in order; the first `mdps` moved down from
    /// above), with `lower` the players below and `next` the next scoregroup.
    pub fn pair(
        ctx: &'c Ctx<'a>,
        bracket: &[usize],
        mdps: usize,
        lower: Vec<usize>,
        next: Vec<usize>,
    ) -> Option<BracketPairing> {
        let max_pairs = ctx.max_pairs(bracket);
        let f = bracket.len() - 2 * max_pairs;
        let lowest = bracket.iter().map(|&i| ctx.ps[i].score).min().unwrap_or(0);
        let ideal = Quality {
            unpaired: f,
            psd: vec![lowest; f],
            next_unpaired: if next.is_empty() {
                0
            } else {
                (f + next.len()) % 2
            },
            tail: colour_bound(ctx, bracket, max_pairs),
        };
        let mut s = Search {
            ctx,
            lower,
            next,
            feasible: HashMap::new(),
            next_cache: HashMap::new(),
            costs: HashMap::new(),
            best: None,
            ideal,
            steps: 0,
            done: false,
        };
        let mut used = vec![false; bracket.len()];
        let mut pairs = Vec::new();
        let mut limbo = Vec::new();
        s.mdp_stage(bracket, mdps, 0, &mut used, &mut pairs, &mut limbo, [0; 12]);
        s.best
            .map(|(_, pairs, floaters)| BracketPairing { pairs, floaters })
    }

    fn tick(&mut self) -> bool {
        self.steps += 1;
        if self.steps > self.ctx.budget.0 && self.best.is_some() {
            self.done = true;
        }
        // A hard stop even without a candidate, so a pathological bracket
        // cannot hang the caller; the driver reports it.
        if self.steps > self.ctx.budget.0.saturating_mul(20) {
            self.done = true;
        }
        self.done
    }

    /// B.2/D.3: the moved-down players (S1 of a heterogeneous bracket) are
    /// paired first, each with the first resident that fits, in order; a
    /// moved-down player left unpaired goes to limbo and floats on.
    #[allow(clippy::too_many_arguments)]
    fn mdp_stage(
        &mut self,
        bracket: &[usize],
        mdps: usize,
        k: usize,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        limbo: &mut Vec<usize>,
        tail: Tail,
    ) {
        if self.done || self.tick() {
            return;
        }
        if let Some((q, _, _)) = &self.best {
            if limbo.len() > q.unpaired {
                return;
            }
        }
        if k == mdps {
            let rest: Vec<usize> = (mdps..bracket.len())
                .filter(|&x| !used[x])
                .map(|x| bracket[x])
                .collect();
            self.remainder_stage(&rest, pairs, limbo, tail);
            return;
        }
        let m = bracket[k];
        for r in mdps..bracket.len() {
            if used[r] || !self.ctx.compat[m][bracket[r]] {
                continue;
            }
            used[r] = true;
            pairs.push((m, bracket[r]));
            let mut t = tail;
            add(&mut t, &pair_cost(self.ctx, m, bracket[r]));
            self.mdp_stage(bracket, mdps, k + 1, used, pairs, limbo, t);
            pairs.pop();
            used[r] = false;
            if self.done {
                return;
            }
        }
        limbo.push(m);
        self.mdp_stage(bracket, mdps, k + 1, used, pairs, limbo, tail);
        limbo.pop();
    }

    /// The remainder (a homogeneous bracket, or all of one), B.2: S1 is its
    /// first MaxPairs players, S2 the rest. If no candidate with that many
    /// pairs lets the round be completed (C.4), one pair fewer (C.5).
    fn remainder_stage(
        &mut self,
        rest: &[usize],
        pairs: &mut Vec<(usize, usize)>,
        limbo: &[usize],
        tail: Tail,
    ) {
        let max_pairs = self.ctx.max_pairs(rest);
        for p in (0..=max_pairs).rev() {
            let f = rest.len() - 2 * p;
            if let Some((q, _, _)) = &self.best {
                if limbo.len() + f > q.unpaired {
                    return;
                }
            }
            let (s1, s2) = rest.split_at(p);
            self.sequence(s1, s2, pairs, limbo, tail);
            if self.done || self.best.is_some() {
                return;
            }
        }
    }

    /// The Dutch sequence of candidates (D.1, D.2): every transposition of
    /// S2 against the original S1, then the exchanges of one player between
    /// S1 and S2, then of two, each followed by its transpositions.
    fn sequence(
        &mut self,
        s1: &[usize],
        s2: &[usize],
        pairs: &mut Vec<(usize, usize)>,
        limbo: &[usize],
        tail: Tail,
    ) {
        self.transpositions(s1, s2, pairs, limbo, tail);
        let (n1, n2) = (s1.len(), s2.len());
        if self.done || n1 == 0 || n2 == 0 {
            return;
        }
        // D.2: BSNs are 1..n1 in S1, n1+1.. in S2. Fewest players exchanged;
        // then the smallest difference between the BSN sums moved S2→S1 and
        // S1→S2; then the highest BSNs moved out of S1; then the lowest moved
        // out of S2.
        let bsn1 = |i: usize| i as i64 + 1;
        let bsn2 = |j: usize| (n1 + j) as i64 + 1;
        let mut singles: Vec<(usize, usize)> =
            (0..n1).flat_map(|i| (0..n2).map(move |j| (i, j))).collect();
        singles.sort_by_key(|&(i, j)| (bsn2(j) - bsn1(i), std::cmp::Reverse(i), j));
        for (i, j) in singles {
            let (x1, x2) = exchange(s1, s2, &[i], &[j]);
            self.transpositions(&x1, &x2, pairs, limbo, tail);
            if self.done {
                return;
            }
        }
        if n1 < 2 || n2 < 2 {
            return;
        }
        let mut doubles: Vec<([usize; 2], [usize; 2])> = Vec::new();
        for i1 in 0..n1 {
            for i2 in i1 + 1..n1 {
                for j1 in 0..n2 {
                    for j2 in j1 + 1..n2 {
                        doubles.push(([i1, i2], [j1, j2]));
                    }
                }
            }
            if doubles.len() > self.ctx.budget.0 {
                break; // Far beyond what the budget could try anyway.
            }
        }
        doubles.sort_by_key(|(i, j)| {
            (
                bsn2(j[0]) + bsn2(j[1]) - bsn1(i[0]) - bsn1(i[1]),
                std::cmp::Reverse([i[1], i[0]]),
                *j,
            )
        });
        for (i, j) in doubles {
            let (x1, x2) = exchange(s1, s2, &i, &j);
            self.transpositions(&x1, &x2, pairs, limbo, tail);
            if self.done {
                return;
            }
        }
    }

    /// D.1: S1 in order, each player with the first S2 player in order that
    /// is allowed; the S2 players left over float down.
    fn transpositions(
        &mut self,
        s1: &[usize],
        s2: &[usize],
        pairs: &mut Vec<(usize, usize)>,
        limbo: &[usize],
        tail: Tail,
    ) {
        // The floaters are limbo plus the unused S2 players: in a remainder
        // all residents have one score, so their PSD is known already.
        let mut psd: Vec<Score> = limbo.iter().map(|&x| self.ctx.ps[x].score).collect();
        if let Some(&x) = s2.first() {
            psd.extend(std::iter::repeat_n(
                self.ctx.ps[x].score,
                s2.len() - s1.len(),
            ));
        }
        psd.sort_unstable_by(|a, b| b.cmp(a));
        let unpaired = limbo.len() + s2.len() - s1.len();
        let mut used = vec![false; s2.len()];
        let fixed = Fixed {
            s1,
            s2,
            limbo,
            unpaired,
            psd: &psd,
        };
        self.transpose(&fixed, 0, &mut used, pairs, tail);
    }

    fn transpose(
        &mut self,
        fx: &Fixed,
        k: usize,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        mut tail: Tail,
    ) {
        if self.done || self.tick() {
            return;
        }
        if let Some((bq, _, _)) = &self.best {
            // Costs only grow: a branch already no better than the best
            // cannot win (the next bracket's count is at least 0).
            let prefix = (fx.unpaired, fx.psd).cmp(&(bq.unpaired, bq.psd.as_slice()));
            let cut = match prefix {
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Equal => (0, tail) >= (bq.next_unpaired, bq.tail),
            };
            if cut {
                return;
            }
        }
        if k == fx.s1.len() {
            let head = Quality {
                unpaired: fx.unpaired,
                psd: fx.psd.to_vec(),
                next_unpaired: 0,
                tail,
            };
            self.leaf(fx.s2, used, pairs, fx.limbo, head);
            return;
        }
        let x = fx.s1[k];
        for j in 0..fx.s2.len() {
            let y = fx.s2[j];
            if used[j] || !self.ctx.compat[x][y] {
                continue;
            }
            let (a, b) = if x < y { (x, y) } else { (y, x) };
            let cost = self.cost(a, b);
            used[j] = true;
            pairs.push((a, b));
            add(&mut tail, &cost);
            self.transpose(fx, k + 1, used, pairs, tail);
            sub(&mut tail, &cost);
            pairs.pop();
            used[j] = false;
            if self.done {
                return;
            }
        }
    }

    /// [`pair_cost`], computed once per pair.
    fn cost(&mut self, a: usize, b: usize) -> Tail {
        if let Some(t) = self.costs.get(&(a, b)) {
            return *t;
        }
        let t = pair_cost(self.ctx, a, b);
        self.costs.insert((a, b), t);
        t
    }

    /// A complete candidate: check completion (C.4), finish its value.
    fn leaf(
        &mut self,
        s2: &[usize],
        used: &[bool],
        pairs: &[(usize, usize)],
        limbo: &[usize],
        mut head: Quality,
    ) {
        let mut floaters: Vec<usize> = limbo.to_vec();
        floaters.extend((0..s2.len()).filter(|&j| !used[j]).map(|j| s2[j]));
        floaters.sort_unstable();
        if !self.is_feasible(&floaters) {
            return;
        }
        for &x in &floaters {
            add(&mut head.tail, &floater_cost(self.ctx, x));
        }
        head.next_unpaired = self.next_unpaired(&floaters);
        let better = self.best.as_ref().is_none_or(|(bq, _, _)| head < *bq);
        if better {
            self.done = head == self.ideal;
            self.best = Some((head, pairs.to_vec(), floaters));
        }
    }

    fn is_feasible(&mut self, floaters: &[usize]) -> bool {
        if let Some(&ok) = self.feasible.get(floaters) {
            return ok;
        }
        let mut set = floaters.to_vec();
        set.extend_from_slice(&self.lower);
        let ok = self.ctx.completable(&set);
        self.feasible.insert(floaters.to_vec(), ok);
        ok
    }

    /// C.7: how many players of the next bracket (its residents plus these
    /// floaters) would stay unpaired.
    fn next_unpaired(&mut self, floaters: &[usize]) -> usize {
        if self.next.is_empty() {
            return 0;
        }
        if let Some(&n) = self.next_cache.get(floaters) {
            return n;
        }
        let mut set = floaters.to_vec();
        set.extend_from_slice(&self.next);
        let n = set.len() - 2 * self.ctx.max_pairs(&set);
        self.next_cache.insert(floaters.to_vec(), n);
        n
    }
}

/// S1 and S2 after exchanging S1 positions `out1` with S2 positions `out2`,
/// each re-sorted in pairing order.
fn exchange(
    s1: &[usize],
    s2: &[usize],
    out1: &[usize],
    out2: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    let mut x1: Vec<usize> = (0..s1.len())
        .filter(|i| !out1.contains(i))
        .map(|i| s1[i])
        .chain(out2.iter().map(|&j| s2[j]))
        .collect();
    let mut x2: Vec<usize> = (0..s2.len())
        .filter(|j| !out2.contains(j))
        .map(|j| s2[j])
        .chain(out1.iter().map(|&i| s1[i]))
        .collect();
    x1.sort_unstable();
    x2.sort_unstable();
    (x1, x2)
}

/// Lower bounds of C.10 and C.11 for a bracket of which `pairs` pairs are
/// made: each pair grants at most one white and one black.
fn colour_bound(ctx: &Ctx, bracket: &[usize], pairs: usize) -> Tail {
    let f = bracket.len() - 2 * pairs;
    let count = |c: Colour, strong: bool| {
        bracket
            .iter()
            .filter(|&&i| {
                ctx.ps[i].pref == Some(c) && (!strong || ctx.ps[i].strength >= Strength::Strong)
            })
            .count()
    };
    let over = |n: usize| n.saturating_sub(pairs + f) as i64;
    let mut t = [0; 12];
    t[2] = over(count(Colour::White, false)) + over(count(Colour::Black, false));
    t[3] = over(count(Colour::White, true)) + over(count(Colour::Black, true));
    t
}
