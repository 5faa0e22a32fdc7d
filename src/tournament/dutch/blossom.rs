//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm,
//! primal-dual, O(n³) (Galil, "Efficient algorithms for finding maximum
//! matching in graphs", 1986). The shape follows Joris van Rantwijk's
//! well-known public-domain implementation: vertex and blossom dual
//! variables, S/T labels grown from every exposed vertex at once, and the
//! four kinds of dual change (δ1–δ4) per stage.
//!
//! The Dutch engine needs exactly this: a matching of greatest total weight,
//! where a weight of zero means "may not be paired" and the weights are
//! [`Wide`] integers ([`super::weights`] packs the FIDE criteria into them).
//! No cardinality is forced: the weights make every extra pair worth more
//! than anything else.
//!
//! Dual variables are kept doubled (slack = yᵢ + yⱼ − 2w), so every quantity
//! stays a non-negative integer and δ3 (half an S–S slack) is exact.

use super::wide::Wide;

const NONE: usize = usize::MAX;

/// A maximum-weight matching kept across changes of the weights: after
/// [`Matcher::set`] changes edges at a few vertices, [`Matcher::solve`]
/// repairs the previous optimum instead of starting again. The vertices
/// whose edges changed are freed (the blossoms holding them dissolved, their
/// dual share handed to their members, their matched edges dropped), their
/// duals raised until every edge is feasible again, and the search then
/// grows trees from the exposed vertices whose dual is still positive: an
/// exposed vertex at dual zero is already optimal, and may end an augmenting
/// path. Vertices can also leave the graph for good ([`Matcher::remove`]).
pub struct Matcher<const N: usize> {
    n: usize,
    /// Doubled weights, dense and stored both ways round (a·n + b and
    /// b·n + a), so that a vertex's edges are one contiguous row: the scans
    /// of the search read rows, and a column walk would touch a new page
    /// per edge. Edge k is named by its smaller end: k = a·n + b for a < b.
    /// Zero = no edge.
    w2: Vec<Wide<N>>,
    /// Whether the edge exists, both ways round (a row is read without
    /// touching the wide weights).
    has: Vec<bool>,
    alive: Vec<bool>,
    /// Vertices whose edges changed since the last solve.
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    /// No solve yet: start from scratch.
    cold: bool,
    /// mate[v]: the remote end of v's matched edge, or NONE. End 2k is the
    /// smaller vertex of edge k, 2k+1 the larger.
    mate: Vec<usize>,
    /// 0 free, 1 S, 2 T (bit 4 marks a breadcrumb while scanning).
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<Wide<N>>,
    /// allowedge[k] holds when it equals the stage number; both ways round,
    /// like the weights.
    allowed_in: Vec<u32>,
    stage: u32,
    queue: Vec<usize>,
}

impl<const N: usize> Matcher<N> {
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            w2: vec![Wide::zero(); n * n],
            has: vec![false; n * n],
            alive: vec![true; n],
            touched: Vec::new(),
            is_touched: vec![false; n],
            cold: true,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar: vec![Wide::zero(); 2 * n],
            allowed_in: vec![0; n * n],
            stage: 0,
            queue: Vec::new(),
        }
    }

    fn edge(&self, a: usize, b: usize) -> usize {
        if a < b {
            a * self.n + b
        } else {
            b * self.n + a
        }
    }

    /// The vertex at end p.
    fn endpoint(&self, p: usize) -> usize {
        let k = p / 2;
        if p & 1 == 0 {
            k / self.n
        } else {
            k % self.n
        }
    }

    /// The end of edge (v, u) at u (what mate[v] holds when v—u is matched).
    fn end_at(&self, v: usize, u: usize) -> usize {
        2 * self.edge(v, u) + usize::from(u > v)
    }

    fn ends(&self, k: usize) -> (usize, usize) {
        (k / self.n, k % self.n)
    }

    /// Sets the weight of edge (a, b); zero removes it. Only `a` is freed
    /// before the next solve: freeing one end of an edge is enough to make
    /// it feasible again (and drops it if matched, or the blossoms holding
    /// it), so changing many edges of one vertex costs one repair.
    pub fn set(&mut self, a: usize, b: usize, w: Wide<N>) {
        let w2 = w.add(&w);
        let (ab, ba) = (a * self.n + b, b * self.n + a);
        if self.w2[ab] != w2 {
            for k in [ab, ba] {
                self.w2[k] = w2;
                self.has[k] = !w2.is_zero();
            }
            self.touch(a);
        }
    }

    fn touch(&mut self, v: usize) {
        if !self.is_touched[v] {
            self.is_touched[v] = true;
            self.touched.push(v);
        }
    }

    /// Takes v out of the graph for good.
    pub fn remove(&mut self, v: usize) {
        if !self.cold {
            self.release(v);
        }
        self.alive[v] = false;
    }

    /// v's mate in the current optimum (after [`Matcher::solve`]).
    pub fn mate_of(&self, v: usize) -> Option<usize> {
        (self.alive[v] && self.mate[v] != NONE).then(|| self.endpoint(self.mate[v]))
    }

    fn unmatch(&mut self, v: usize) {
        let p = self.mate[v];
        if p != NONE {
            let m = self.endpoint(p);
            self.mate[v] = NONE;
            self.mate[m] = NONE;
        }
    }

    /// Makes v a single unmatched vertex, keeping the duals feasible: each
    /// blossom holding v is dissolved, its dual added to its members' (so
    /// edges inside keep their slack and edges leaving gain), and a matched
    /// edge that loses its tightness that way is dropped.
    fn release(&mut self, v: usize) {
        while self.inblossom[v] != v {
            let b = self.inblossom[v];
            let z = self.dualvar[b];
            let base = self.blossombase[b];
            for leaf in self.leaves_of(b) {
                self.dualvar[leaf] = self.dualvar[leaf].add(&z);
            }
            self.dualvar[b] = Wide::zero();
            for s in std::mem::take(&mut self.blossomchilds[b]) {
                self.blossomparent[s] = NONE;
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
            self.blossomendps[b] = Vec::new();
            self.blossombase[b] = NONE;
            self.blossombestedges[b] = None;
            self.bestedge[b] = NONE;
            self.label[b] = 0;
            self.labelend[b] = NONE;
            self.unusedblossoms.push(b);
            if !z.is_zero() {
                self.unmatch(base);
            }
        }
        self.unmatch(v);
    }

    /// Every vertex single, duals at the largest weight.
    fn reset(&mut self) {
        let n = self.n;
        let mut top = Wide::zero();
        for a in 0..n {
            for b in a + 1..n {
                if self.alive[a] && self.alive[b] && self.w2[a * n + b] > top {
                    top = self.w2[a * n + b];
                }
            }
        }
        let top = top.half();
        self.unmatch_all();
        for v in 0..n {
            self.dualvar[v] = top;
        }
    }

    /// Every vertex single, no blossom, no dual: the edges are kept.
    fn unmatch_all(&mut self) {
        *self = Matcher {
            w2: std::mem::take(&mut self.w2),
            has: std::mem::take(&mut self.has),
            alive: std::mem::take(&mut self.alive),
            ..Matcher::new(self.n)
        };
        self.cold = false;
    }

    /// Starts from the given vertex duals instead of from the largest
    /// weight: the first [`Matcher::solve`] then begins with every edge that
    /// they make tight available at once. The duals must be feasible (for
    /// every edge, the two duals add up to at least twice its weight).
    pub fn start_from_duals(&mut self, duals: &[Wide<N>]) {
        let n = self.n;
        self.unmatch_all();
        self.dualvar[..n].copy_from_slice(duals);
        debug_assert!((0..n).all(|v| (0..n)
            .all(|u| !self.neighbour(v, u) || self.w2[v * n + u] <= duals[v].add(&duals[u]))));
        // Nothing to repair: every vertex is single and feasible.
        for v in std::mem::take(&mut self.touched) {
            self.is_touched[v] = false;
        }
    }

    /// Brings the matching back to an optimum after the changes since the
    /// last call.
    pub fn solve(&mut self) {
        if self.cold {
            self.reset();
        } else {
            let touched = std::mem::take(&mut self.touched);
            for &v in &touched {
                if self.alive[v] {
                    self.release(v);
                }
            }
            // Raise each changed vertex's dual until its edges are feasible.
            for &v in &touched {
                if !self.alive[v] {
                    continue;
                }
                let mut need = self.dualvar[v];
                let row = v * self.n;
                for u in 0..self.n {
                    if u == v || !self.alive[u] || !self.has[row + u] {
                        continue;
                    }
                    let w2 = self.w2[row + u];
                    if w2 > self.dualvar[u] {
                        let d = w2.sub(&self.dualvar[u]);
                        if d > need {
                            need = d;
                        }
                    }
                }
                self.dualvar[v] = need;
            }
        }
        // A reset leaves `touched` filled; the repair took it already.
        self.touched.clear();
        self.is_touched.iter_mut().for_each(|t| *t = false);
        self.match_tight_edges();
        self.run();
    }

    /// Matches exposed single vertices joined by a tight edge, in vertex
    /// order, before the search: each such pair would otherwise cost a
    /// stage (a forest grown from every exposed vertex) to find. A tight
    /// edge between exposed vertices may be matched at any time without
    /// breaking the optimality conditions the search keeps.
    fn match_tight_edges(&mut self) {
        let n = self.n;
        for v in 0..n {
            if !self.alive[v]
                || self.inblossom[v] != v
                || self.mate[v] != NONE
                || self.dualvar[v].is_zero()
            {
                continue;
            }
            let partner = (0..n).find(|&u| {
                self.neighbour(v, u)
                    && self.inblossom[u] == u
                    && self.mate[u] == NONE
                    && self.slack_vu(v, u).is_zero()
            });
            if let Some(u) = partner {
                self.mate[v] = self.end_at(v, u);
                self.mate[u] = self.end_at(u, v);
            }
        }
    }

    fn slack(&self, k: usize) -> Wide<N> {
        let (a, b) = self.ends(k);
        self.slack_vu(a, b)
    }

    /// The slack of edge (v, u), its weight read from v's row.
    fn slack_vu(&self, v: usize, u: usize) -> Wide<N> {
        self.dualvar[v]
            .add(&self.dualvar[u])
            .sub(&self.w2[v * self.n + u])
    }

    /// Whether edge (v, u) is allowed in this stage, read from v's row.
    fn allowed(&self, v: usize, u: usize) -> bool {
        self.allowed_in[v * self.n + u] == self.stage
    }

    fn allow(&mut self, k: usize) {
        let (a, b) = self.ends(k);
        self.allowed_in[a * self.n + b] = self.stage;
        self.allowed_in[b * self.n + a] = self.stage;
    }

    /// Whether u is a live neighbour of v.
    fn neighbour(&self, v: usize, u: usize) -> bool {
        u != v && self.alive[u] && self.has[v * self.n + u]
    }

    /// The live neighbours of v over an edge (remote ends).
    fn neighbour_ends(&self, v: usize) -> Vec<usize> {
        (0..self.n)
            .filter(|&u| self.neighbour(v, u))
            .map(|u| self.end_at(v, u))
            .collect()
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint(mb), 1, mb ^ 1);
        }
    }

    /// Traces back from v and w to find a new blossom's base, or NONE when
    /// the two trees differ (an augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint(self.labelend[b]);
                b = self.inblossom[v];
                v = self.endpoint(self.labelend[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.ends(k);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("at most n blossoms");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint(self.labelend[bv]);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint(self.labelend[bw]);
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = Wide::zero();
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let lists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbour_ends(v).iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for list in lists {
                for k in list {
                    let (mut i, mut j) = self.ends(k);
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let best: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &best {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(best);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint(self.labelend[b] ^ 1)];
            let len = childs.len() as isize;
            let idx = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, isize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.endpoint(p ^ 1);
                self.label[q] = 0;
                let e = endps[idx(j - endptrick)] ^ (endptrick as usize) ^ 1;
                let x = self.endpoint(e);
                self.label[x] = 0;
                self.assign_label(q, 2, p);
                self.allow(endps[idx(j - endptrick)] / 2);
                j += jstep;
                p = endps[idx(j - endptrick)] ^ (endptrick as usize);
                self.allow(p / 2);
                j += jstep;
            }
            let bv = childs[idx(j)];
            let q = self.endpoint(p ^ 1);
            self.label[q] = 2;
            self.label[bv] = 2;
            self.labelend[q] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[idx(j)] != entrychild {
                let bv = childs[idx(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let leaves = self.leaves_of(bv);
                if let Some(&v) = leaves.iter().find(|&&v| self.label[v] != 0) {
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let x = self.endpoint(mb);
                    self.label[x] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let idx = |j: isize| -> usize { j.rem_euclid(len) as usize };
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][idx(j)];
            let p = self.blossomendps[b][idx(j - endptrick as isize)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p));
            }
            j += jstep;
            let t = self.blossomchilds[b][idx(j)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint(p ^ 1));
            }
            let (x, y) = (self.endpoint(p), self.endpoint(p ^ 1));
            self.mate[x] = p ^ 1;
            self.mate[y] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    /// Flips the tree path from s (its new mate end p, or NONE) up to the
    /// root of s's tree.
    fn augment_side(&mut self, mut s: usize, mut p: usize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint(self.labelend[bs]);
            let bt = self.inblossom[t];
            s = self.endpoint(self.labelend[bt]);
            let j = self.endpoint(self.labelend[bt] ^ 1);
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    /// Augments along edge k between two S-vertices of different trees.
    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.ends(k);
        self.augment_side(v, 2 * k + 1);
        self.augment_side(w, 2 * k);
    }

    /// Augments from S-vertex v over edge (v, w) to w, which lies in an
    /// exposed blossom at dual zero outside every tree.
    fn augment_to_sink(&mut self, v: usize, w: usize) {
        let bw = self.inblossom[w];
        if bw >= self.n {
            self.augment_blossom(bw, w);
        }
        self.mate[w] = self.end_at(w, v);
        self.augment_side(v, self.end_at(v, w));
    }

    /// Whether top-level blossom (or vertex) b has an exposed base.
    fn exposed(&self, b: usize) -> bool {
        self.mate[self.blossombase[b]] == NONE
    }

    /// Stages until no exposed vertex has a positive dual. Each stage labels
    /// those vertices S and grows trees; it ends with an augmentation (two
    /// trees meet, or a tree reaches an exposed vertex at dual zero) or when
    /// an S-vertex's dual reaches zero (δ1): then that vertex is left exposed
    /// and its tree's root matched along the tree path, which keeps every
    /// matched edge tight.
    fn run(&mut self) {
        let n = self.n;
        loop {
            self.stage += 1;
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|b| *b = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.queue.clear();
            let mut roots = 0;
            for v in 0..n {
                let b = self.inblossom[v];
                if self.alive[v]
                    && self.blossombase[b] == v
                    && self.mate[v] == NONE
                    && self.label[b] == 0
                    && !self.dualvar[v].is_zero()
                {
                    self.assign_label(v, 1, NONE);
                    roots += 1;
                }
            }
            if roots == 0 {
                break;
            }
            let mut done = false;
            loop {
                while let Some(v) = (!done).then(|| self.queue.pop()).flatten() {
                    // v's row, read in place: the body below may relabel
                    // and grow blossoms, but never changes the edges.
                    for w in 0..n {
                        if !self.neighbour(v, w) || self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let p = self.end_at(v, w);
                        let k = p / 2;
                        let mut kslack = Wide::zero();
                        if !self.allowed(v, w) {
                            kslack = self.slack_vu(v, w);
                            if kslack.is_zero() {
                                self.allow(k);
                            }
                        }
                        if self.allowed(v, w) {
                            let bw = self.inblossom[w];
                            if self.label[bw] == 0 {
                                if self.exposed(bw) {
                                    self.augment_to_sink(v, w);
                                    done = true;
                                    break;
                                }
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    done = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if done {
                    break;
                }
                // δ1: the smallest dual of an S-vertex.
                let mut deltatype = 1;
                let mut delta = Wide::zero();
                let mut deltavertex = NONE;
                for v in 0..n {
                    if self.alive[v]
                        && self.label[self.inblossom[v]] == 1
                        && (deltavertex == NONE || self.dualvar[v] < delta)
                    {
                        delta = self.dualvar[v];
                        deltavertex = v;
                    }
                }
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.alive[v]
                        && self.label[self.inblossom[v]] == 0
                        && self.bestedge[v] != NONE
                    {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                        && (b >= n || self.alive[b])
                    {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    if !self.alive[v] {
                        continue;
                    }
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].sub(&delta),
                        2 => self.dualvar[v] = self.dualvar[v].add(&delta),
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b].add(&delta),
                            2 => self.dualvar[b] = self.dualvar[b].sub(&delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => {
                        // The vertex is optimal exposed: flip its tree path.
                        self.augment_side(deltavertex, NONE);
                        break;
                    }
                    2 => {
                        self.allow(deltaedge);
                        let (mut i, j) = self.ends(deltaedge);
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allow(deltaedge);
                        self.queue.push(self.ends(deltaedge).0);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

/// One edge: its two ends and its weight (non-zero).
#[derive(Debug, Clone, Copy)]
pub struct Edge<const N: usize> {
    pub a: usize,
    pub b: usize,
    pub w: Wide<N>,
}

/// The mate of each vertex (`None` when left unmatched) in a matching of
/// maximum total weight over `edges` among vertices `0..n`.
pub fn max_weight_matching<const N: usize>(n: usize, edges: &[Edge<N>]) -> Vec<Option<usize>> {
    let mut m = Matcher::new(n);
    for e in edges {
        m.set(e.a, e.b, e.w);
    }
    m.solve();
    (0..n).map(|v| m.mate_of(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::{max_weight_matching, Edge};
    use crate::tournament::dutch::wide::Wide;

    fn run(n: usize, edges: &[(usize, usize, u64)]) -> Vec<Option<usize>> {
        let edges: Vec<Edge<1>> = edges
            .iter()
            .map(|&(a, b, w)| Edge {
                a,
                b,
                w: Wide::small(w),
            })
            .collect();
        max_weight_matching(n, &edges)
    }

    fn weight(m: &[Option<usize>], edges: &[(usize, usize, u64)]) -> u64 {
        edges
            .iter()
            .filter(|&&(a, b, _)| m[a] == Some(b))
            .map(|e| e.2)
            .sum()
    }

    /// Every matching of a small graph, by brute force.
    fn best(n: usize, edges: &[(usize, usize, u64)]) -> u64 {
        fn go(v: usize, used: &mut Vec<bool>, n: usize, e: &[(usize, usize, u64)]) -> u64 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, used, n, e);
            }
            let mut bestw = go(v + 1, used, n, e);
            for &(a, b, w) in e {
                let other = if a == v {
                    b
                } else if b == v {
                    a
                } else {
                    continue;
                };
                if !used[other] {
                    used[v] = true;
                    used[other] = true;
                    bestw = bestw.max(w + go(v + 1, used, n, e));
                    used[v] = false;
                    used[other] = false;
                }
            }
            bestw
        }
        go(0, &mut vec![false; n], n, edges)
    }

    #[test]
    fn known_small_cases() {
        assert_eq!(run(2, &[(0, 1, 1)]), vec![Some(1), Some(0)]);
        // A path: the heavy middle edge loses to the two outer ones.
        let e = [(0, 1, 5), (1, 2, 11), (2, 3, 5)];
        assert_eq!(weight(&run(4, &e), &e), 11);
        let e = [(0, 1, 5), (1, 2, 9), (2, 3, 5)];
        assert_eq!(weight(&run(4, &e), &e), 10);
        // A blossom (the triangle 1-2-3) with a stem, needing expansion.
        let e = [(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)];
        assert_eq!(weight(&run(4, &e), &e), 15);
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        // A small deterministic generator (no rand dependency in the core).
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            let n = 2 + (next() % 9) as usize;
            let mut e = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 3 != 0 {
                        e.push((a, b, 1 + next() % 12));
                    }
                }
            }
            let m = run(n, &e);
            for v in 0..n {
                if let Some(u) = m[v] {
                    assert_eq!(m[u], Some(v));
                }
            }
            assert_eq!(weight(&m, &e), best(n, &e), "graph {e:?}");
        }
    }

    #[test]
    fn repairs_after_changes_match_a_fresh_solve() {
        // Random graphs whose weights change at one or two vertices at a
        // time, and whose vertices leave: the kept matching must weigh as
        // much as the best one found from scratch (brute force).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..150 {
            let n = 3 + (next() % 8) as usize;
            let mut w = vec![vec![0u64; n]; n];
            let mut m = super::Matcher::<1>::new(n);
            let mut alive = vec![true; n];
            let set =
                |m: &mut super::Matcher<1>, w: &mut Vec<Vec<u64>>, a: usize, b: usize, x: u64| {
                    w[a][b] = x;
                    w[b][a] = x;
                    m.set(a, b, Wide::small(x));
                };
            for a in 0..n {
                for b in a + 1..n {
                    if next() % 4 != 0 {
                        set(&mut m, &mut w, a, b, 1 + next() % 20);
                    }
                }
            }
            for _ in 0..12 {
                m.solve();
                let edges: Vec<(usize, usize, u64)> = (0..n)
                    .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                    .filter(|&(a, b)| alive[a] && alive[b] && w[a][b] > 0)
                    .map(|(a, b)| (a, b, w[a][b]))
                    .collect();
                let mates: Vec<Option<usize>> = (0..n).map(|v| m.mate_of(v)).collect();
                for v in 0..n {
                    if let Some(u) = mates[v] {
                        assert_eq!(mates[u], Some(v));
                        assert!(alive[u] && w[v][u] > 0);
                    }
                }
                assert_eq!(weight(&mates, &edges), best(n, &edges), "graph {edges:?}");
                // Change the edges of one or two vertices, or drop one.
                let v = (next() % n as u64) as usize;
                if !alive[v] {
                    continue;
                }
                if next() % 5 == 0 {
                    alive[v] = false;
                    m.remove(v);
                    continue;
                }
                for u in 0..n {
                    if u != v && next() % 2 == 0 {
                        let x = if next() % 4 == 0 { 0 } else { 1 + next() % 20 };
                        set(&mut m, &mut w, v, u, x);
                    }
                }
            }
        }
    }
}
