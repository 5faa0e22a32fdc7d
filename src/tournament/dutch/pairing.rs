//! One round of the Dutch system, bracket by bracket, as a sequence of
//! maximum-weight matchings over all players still to pair.
//!
//! The weights ([`super::weights`]) rank whole-round pairings by the
//! criteria of C.04.3 section C; this module walks the brackets from the top
//! scoregroup down (B.1–B.8) and settles, in the order section D gives, what
//! the weights alone leave open: which moved-down players are paired in the
//! bracket (the highest first, B.2/D.1), their opponents (the highest
//! resident first), which residents are exchanged between S1 and S2 (the
//! fewest, with the smallest differences of bracket sequence numbers: D.2)
//! and, in S1 order, each one's opponent (the first fitting one of S2:
//! D.1's transpositions). Every decision is tested by raising one
//! player's edges by the smallest step and matching again: if the best
//! matching changes to take it, the criteria above allow it.
//!
//! The procedure is the one of bbpPairings (FIDE-endorsed; its
//! `computeMatching`), so ties the rules leave to the program are broken as
//! that engine breaks them. Unlike it, each matching is computed afresh over
//! the players not yet settled.

use super::blossom::Matcher;
use super::state::PlayerState;
use super::weights::{bye_search_dual, bye_search_weight, edge_weight, ByeContext, Layout};
use super::wide::Wide;

/// The settled pairs (indices into the sorted players) and the PAB
/// assignee, if any.
pub struct Paired {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// Why a round cannot be paired.
pub enum Unpairable {
    /// No pairing satisfies the absolute criteria (C.1–C.3).
    Absolute,
    /// The weights need more bits than this build provides.
    TooLarge,
}

/// Pairs `sorted` (highest score first, then pairing number) for a round
/// after `played_rounds` rounds.
pub fn pair(sorted: &[&PlayerState], played_rounds: u32) -> Result<Paired, Unpairable> {
    let layout = Layout::new(sorted, played_rounds);
    match layout.total_bits().div_ceil(64) {
        0 | 1 => Round::<1>::new(sorted, layout).run(),
        2 => Round::<2>::new(sorted, layout).run(),
        3 | 4 => Round::<4>::new(sorted, layout).run(),
        5..=8 => Round::<8>::new(sorted, layout).run(),
        9..=16 => Round::<16>::new(sorted, layout).run(),
        17..=32 => Round::<32>::new(sorted, layout).run(),
        _ => Err(Unpairable::TooLarge),
    }
}

/// The state of one round's pairing: the weight of every edge, and which
/// players are settled.
struct Round<'a, const N: usize> {
    ps: &'a [&'a PlayerState],
    layout: Layout,
    bye: ByeContext,
    /// The matching, kept from one decision to the next.
    m: Matcher<N>,
    /// With an odd number of players, a vertex joined to every player by
    /// the lightest edge (weight 1), standing for "unpaired". An odd number
    /// of players always leaves someone out, so every matching of the
    /// players gains exactly 1 by matching one left-out player to it, and
    /// the best matchings stay the best (one pair fewer costs far more
    /// than 1). It spares the
    /// search the slow way of leaving a vertex single: lowering its dual to
    /// zero through the whole graph, after every decision.
    unpaired: Option<usize>,
    /// A settled player's partner (settled pairs leave the matching).
    settled: Vec<Option<usize>>,
}

impl<'a, const N: usize> Round<'a, N> {
    fn new(ps: &'a [&'a PlayerState], layout: Layout) -> Self {
        let n = ps.len();
        let unpaired = (n % 2 == 1).then_some(n);
        let mut m = Matcher::new(n + unpaired.is_some() as usize);
        if let Some(u) = unpaired {
            for v in 0..n {
                m.set(u, v, Wide::small(1));
            }
        }
        Round {
            ps,
            layout,
            bye: ByeContext::default(),
            m,
            unpaired,
            settled: vec![None; n],
        }
    }

    fn n(&self) -> usize {
        self.ps.len()
    }

    fn set(&mut self, a: usize, b: usize, w: Wide<N>) {
        self.m.set(a, b, w);
    }

    fn score(&self, v: usize) -> i64 {
        self.ps[v].score
    }

    /// `edge_weight` of higher vertex `h` and lower vertex `l`.
    fn edge(&self, h: usize, l: usize, cur: bool, next: bool) -> Wide<N> {
        edge_weight(&self.layout, &self.bye, self.ps[h], self.ps[l], cur, next)
    }

    /// A maximum-weight matching of the players not settled; each vertex's
    /// mate, or itself when unmatched. Settled players report their pair.
    fn matching(&mut self) -> Vec<usize> {
        self.m.solve();
        (0..self.n())
            .map(|v| {
                self.settled[v]
                    .or_else(|| self.m.mate_of(v).filter(|&u| Some(u) != self.unpaired))
                    .unwrap_or(v)
            })
            .collect()
    }

    /// Settles `a` with `b`: their other edges no longer count.
    fn settle(&mut self, a: usize, b: usize) {
        self.settled[a] = Some(b);
        self.settled[b] = Some(a);
        self.m.remove(a);
        self.m.remove(b);
    }

    fn run(mut self) -> Result<Paired, Unpairable> {
        let n = self.n();
        if n == 0 {
            return Ok(Paired {
                pairs: Vec::new(),
                bye: None,
            });
        }
        // The whole round first: is it pairable at all (C.1–C.3), and with
        // an odd number, from which scoregroup does the PAB come?
        let top_score = self.ps[0].score;
        for l in 0..n {
            for h in 0..l {
                let w = if n % 2 == 1 {
                    bye_search_weight(&self.layout, top_score, self.ps[l], self.ps[h])
                } else {
                    self.edge(h, l, false, false)
                };
                self.set(h, l, w);
            }
        }
        if n % 2 == 1 {
            // The PAB search's weights are a sum of a part per player: start
            // from those parts, with nearly every pair already tight (the
            // "unpaired" vertex at zero). Only the PAB assignee's score and
            // whether the topscorers pair among themselves are read from
            // this matching, and every maximum matching agrees on both.
            let mut duals: Vec<Wide<N>> = self
                .ps
                .iter()
                .map(|p| bye_search_dual(&self.layout, top_score, p))
                .collect();
            duals.extend(self.unpaired.map(|_| Wide::zero()));
            self.m.start_from_duals(&duals);
        }
        let mate = self.matching();
        // Complete: at most one player left out, and one who may take the
        // PAB (C.2).
        let unmatched: Vec<usize> = (0..n).filter(|&v| mate[v] == v).collect();
        if unmatched.len() > 1 || unmatched.iter().any(|&v| !self.ps[v].bye_eligible) {
            return Err(Unpairable::Absolute);
        }
        if let Some(&assignee) = unmatched.first() {
            self.bye.assignee_score = self.ps[assignee].score;
            // C.9 matters from the first bracket on when the PAB comes out
            // of the top scoregroup and every topscorer is paired in it.
            self.bye.single_downfloater_is_assignee = self.bye.assignee_score >= top_score
                && (0..n)
                    .take_while(|&v| self.ps[v].score >= top_score)
                    .all(|v| self.ps[mate[v]].score >= top_score);
            let mut played: Vec<usize> = (0..n)
                .filter(|&v| self.ps[v].score == self.bye.assignee_score)
                .map(|v| self.ps[v].colours.len())
                .collect();
            played.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, games) in played.into_iter().enumerate() {
                self.bye.played_rank.insert(games, rank as u64);
            }
            for l in 0..n {
                for h in 0..l {
                    let w = self.edge(h, l, false, false);
                    self.set(h, l, w);
                }
            }
        }

        let mut pairs = Vec::new();
        // The bracket: moved-down players first, then the residents of the
        // scoregroup, then (as look-ahead) the next scoregroup.
        let mut idx: Vec<usize> = Vec::new();
        let mut next_iter = 0;
        while next_iter < n && self.ps[next_iter].score >= top_score {
            idx.push(next_iter);
            next_iter += 1;
        }
        let mut matched = vec![false; n];
        let mut sg_begin = 0usize;
        let mut sg_begin_vertex = 0usize;
        let mut base: Vec<Vec<Wide<N>>>;

        while idx.len() > 1 || next_iter < n {
            // With no scoregroup left to add, each pass must pair someone.
            let (size_before, exhausted) = (idx.len(), next_iter == n);
            let next_sg_begin = idx.len();
            let next_sg_begin_vertex = sg_begin_vertex + (next_sg_begin - sg_begin);
            let sg_iter = next_iter;
            while next_iter < n && self.ps[next_iter].score >= self.ps[sg_iter].score {
                idx.push(next_iter);
                next_iter += 1;
            }
            let in_bracket = move |v: usize| v >= sg_begin_vertex && v < next_sg_begin_vertex;

            // Base weights of this bracket: base[l][h] for h < l.
            base = vec![Vec::new(); idx.len()];
            for l in sg_begin..idx.len() {
                let row: Vec<Wide<N>> = (0..l)
                    .map(|h| self.edge(idx[h], idx[l], l < next_sg_begin, l >= next_sg_begin))
                    .collect();
                base[l] = row;
            }
            for l in sg_begin..idx.len() {
                for h in 0..l {
                    self.set(idx[h], idx[l], base[l][h]);
                }
            }
            let mut mate = self.matching();

            // Which moved-down players are paired in this bracket: the
            // highest first (A.3, D.1), a scoregroup of them at a time.
            let mut md_score = 0i64;
            let mut remaining_md = 0usize;
            let mut remaining_matched_md = 0usize;
            for pi in 0..sg_begin {
                let v = idx[pi];
                if pi == 0 || self.score(v) < md_score {
                    md_score = self.score(v);
                    remaining_md = 0;
                    remaining_matched_md = 0;
                    let mut mi = pi;
                    while mi < idx.len() && self.score(idx[mi]) >= md_score {
                        remaining_md += 1;
                        if in_bracket(mate[idx[mi]]) {
                            remaining_matched_md += 1;
                        }
                        mi += 1;
                    }
                }
                if remaining_matched_md == 0 {
                    continue;
                }
                if remaining_md <= remaining_matched_md {
                    matched[v] = true;
                    continue;
                }
                remaining_md -= 1;
                if !in_bracket(mate[v]) {
                    for oi in sg_begin..next_sg_begin {
                        let mut w = base[oi][pi];
                        if !w.is_zero() {
                            w.or_small(1);
                            self.set(v, idx[oi], w);
                        }
                    }
                    mate = self.matching();
                }
                if in_bracket(mate[v]) {
                    matched[v] = true;
                    remaining_matched_md -= 1;
                    for oi in sg_begin..next_sg_begin {
                        let mut w = base[oi][pi];
                        if !w.is_zero() {
                            w.or_small((next_sg_begin - sg_begin) as u64);
                            self.set(v, idx[oi], w.add_small(1));
                        }
                    }
                }
            }

            // Their opponents: the highest resident that still lets the
            // rest of the bracket be paired best.
            for pi in 0..sg_begin {
                let v = idx[pi];
                if !matched[v] {
                    continue;
                }
                // The current matching is best for the base weights; if it
                // already gives v the most preferred opponent, it stays best
                // with the preference added, and the matching is not redone.
                let first_choice = (sg_begin..next_sg_begin)
                    .find(|&oi| !matched[idx[oi]] && !base[oi][pi].is_zero())
                    .map(|oi| idx[oi]);
                if first_choice != Some(mate[v]) {
                    let mut addend = idx.len() as u64;
                    for oi in (sg_begin..next_sg_begin).rev() {
                        let ov = idx[oi];
                        if matched[ov] {
                            continue;
                        }
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            self.set(v, ov, w.add_small(addend));
                            addend += 1;
                        }
                    }
                    mate = self.matching();
                }
                let mv = mate[v];
                matched[mv] = true;
                self.settle(v, mv);
            }

            // The remainder (B.3): residents not paired with a moved-down
            // player. S1 is its first `remainder_pairs` players.
            let mut remainder: Vec<usize> = Vec::new();
            let mut remainder_pairs = 0usize;
            for (pi, &v) in idx.iter().enumerate().take(next_sg_begin).skip(sg_begin) {
                if mate[v] < sg_begin_vertex {
                    continue;
                }
                remainder.push(pi);
                if mate[v] < v {
                    remainder_pairs += 1;
                }
            }
            let b = self.layout.size_bits;
            // D.2: fewest exchanges, then the smallest differences of the
            // exchanged players' numbers (a lower S1 player goes first).
            let exchange_weight =
                move |base: &Vec<Vec<Wide<N>>>, small: usize, large: usize, pos: usize| {
                    let r = base[large][small];
                    if r.is_zero() {
                        return r;
                    }
                    let mut addend = Wide::<N>::small((pos < remainder_pairs) as u64);
                    addend.shl(2 * b);
                    let mut addend = addend.sub_small(pos as u64);
                    addend.shl(1);
                    r.add(&addend)
                };
            for (oi_pos, &oi) in remainder.iter().enumerate() {
                for (pos, &pi) in remainder.iter().enumerate().take(oi_pos) {
                    let w = exchange_weight(&base, pi, oi, pos);
                    self.set(idx[pi], idx[oi], w);
                }
            }
            mate = self.matching();
            let paired_down =
                move |mate: &Vec<usize>, v: usize| mate[v] > v && mate[v] < next_sg_begin_vertex;

            let exchange_count = remainder
                .iter()
                .take(remainder_pairs)
                .filter(|&&pi| !paired_down(&mate, idx[pi]))
                .count();

            // Lower players of S1 to exchange, the lowest first.
            let mut exchanges_left = exchange_count;
            let mut pos = remainder_pairs;
            while pos > 0 && exchanges_left > 0 {
                pos -= 1;
                let pi = remainder[pos];
                let v = idx[pi];
                if paired_down(&mate, v) {
                    for &oi in &remainder[pos + 1..] {
                        let w = exchange_weight(&base, pi, oi, pos);
                        if !w.is_zero() {
                            self.set(v, idx[oi], w.sub_small(1));
                        }
                    }
                    mate = self.matching();
                }
                let exchange = !paired_down(&mate, v);
                exchanges_left -= exchange as usize;
                for &oi in &remainder[pos + 1..] {
                    if exchange {
                        base[oi][pi] = Wide::zero();
                    }
                    let w = exchange_weight(&base, pi, oi, pos);
                    self.set(v, idx[oi], w);
                }
            }

            // Higher players of S2 to exchange, the highest first.
            let mut exchanges_left = exchange_count;
            for pos in remainder_pairs..remainder.len() {
                if exchanges_left <= 1 {
                    break;
                }
                let pi = remainder[pos];
                let v = idx[pi];
                let already = paired_down(&mate, v);
                if !already {
                    for &oi in &remainder[pos + 1..] {
                        let w = exchange_weight(&base, pi, oi, pos);
                        if !w.is_zero() {
                            self.set(v, idx[oi], w.add_small(1));
                        }
                    }
                    mate = self.matching();
                }
                if paired_down(&mate, v) {
                    exchanges_left -= 1;
                    for &oi in &remainder[..pos] {
                        base[pi][oi] = Wide::zero();
                        self.set(v, idx[oi], Wide::zero());
                    }
                    for oi in next_sg_begin..idx.len() {
                        base[oi][pi] = Wide::zero();
                        self.set(v, idx[oi], Wide::zero());
                    }
                }
                if !already {
                    for &oi in &remainder[pos + 1..] {
                        let w = exchange_weight(&base, pi, oi, pos);
                        self.set(v, idx[oi], w);
                    }
                }
            }

            // Fix the exchanges: S1 players pair only downwards with S2.
            for (pos, &pi) in remainder.iter().enumerate() {
                let v = idx[pi];
                for &oi in &remainder[pos + 1..] {
                    let ov = idx[oi];
                    if !paired_down(&mate, v) || paired_down(&mate, ov) {
                        base[oi][pi] = Wide::zero();
                    }
                    self.set(v, ov, base[oi][pi]);
                }
            }

            // D.1: in S1 order, each takes the first S2 player that still
            // allows the best pairing of the rest.
            for &pi in &remainder {
                let v = idx[pi];
                if !paired_down(&mate, v) {
                    continue;
                }
                // As for the moved-down players: no new matching when the
                // current one already gives v its first choice.
                let first_choice = remainder
                    .iter()
                    .find(|&&oi| oi > pi && !matched[idx[oi]] && !base[oi][pi].is_zero())
                    .map(|&oi| idx[oi]);
                if first_choice != Some(mate[v]) {
                    let mut addend = 0u64;
                    for &oi in remainder.iter().rev() {
                        let ov = idx[oi];
                        if oi <= pi || matched[ov] {
                            continue;
                        }
                        let w = base[oi][pi];
                        if !w.is_zero() {
                            self.set(v, ov, w.add_small(addend));
                        }
                        addend += 1;
                    }
                    mate = self.matching();
                }
                let mv = mate[v];
                matched[v] = true;
                matched[mv] = true;
                self.settle(v, mv);
            }

            // The next bracket: everyone of this one not paired moves down.
            let mut new_idx = Vec::new();
            sg_begin = 0;
            self.bye.single_downfloater_is_assignee =
                n % 2 == 1 && sg_iter < n && self.bye.assignee_score >= self.ps[sg_iter].score;
            for (pi, &v) in idx.iter().enumerate() {
                if pi < next_sg_begin && matched[v] {
                    if v < mate[v] {
                        pairs.push((v, mate[v]));
                    }
                } else {
                    new_idx.push(v);
                    if pi < next_sg_begin {
                        sg_begin += 1;
                    }
                    if sg_iter < n && self.ps[mate[v]].score < self.ps[sg_iter].score {
                        self.bye.single_downfloater_is_assignee = false;
                    }
                }
            }
            idx = new_idx;
            sg_begin_vertex = next_sg_begin_vertex;
            if exhausted && idx.len() >= size_before {
                return Err(Unpairable::Absolute);
            }
        }
        let bye = idx.first().copied();
        Ok(Paired { pairs, bye })
    }
}
