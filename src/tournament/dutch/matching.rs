//! Maximum-cardinality matching in a general graph (Edmonds' blossom
//! algorithm). The Dutch engine uses it for the completion criterion
//! (C.04.3 C.4: a bracket's pairing must let the rest of the round be
//! paired) and to know how many pairs a bracket can make (B.1, MaxPairs).
//!
//! O(V³) in the worst case; a greedy start leaves few augmentations in the
//! dense graphs pairings give, so a 1,000-player check is milliseconds.

use std::collections::VecDeque;

/// Returns `mate[v]` (or `usize::MAX` when unmatched) for a maximum matching
/// of the graph on `n` vertices whose edges `adj(u, v)` says exist.
pub fn maximum_matching(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let neighbours: Vec<Vec<usize>> = (0..n)
        .map(|u| (0..n).filter(|&v| v != u && adj(u, v)).collect())
        .collect();
    let mut mate = vec![NONE; n];
    // Greedy start: fewest neighbours first keeps more options open.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&u| neighbours[u].len());
    for &u in &order {
        if mate[u] == NONE {
            if let Some(&v) = neighbours[u].iter().find(|&&v| mate[v] == NONE) {
                mate[u] = v;
                mate[v] = u;
            }
        }
    }
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut used = vec![false; n];
    let mut blossom = vec![false; n];
    let mut queue = VecDeque::new();

    let lca = |mate: &[usize], base: &[usize], parent: &[usize], mut a: usize, mut b: usize| {
        let mut seen = vec![false; mate.len()];
        loop {
            a = base[a];
            seen[a] = true;
            if mate[a] == NONE {
                break;
            }
            a = parent[mate[a]];
        }
        loop {
            b = base[b];
            if seen[b] {
                return b;
            }
            b = parent[mate[b]];
        }
    };

    for root in 0..n {
        if mate[root] != NONE {
            continue;
        }
        // Breadth-first search for an augmenting path from `root`.
        parent.iter_mut().for_each(|p| *p = NONE);
        used.iter_mut().for_each(|u| *u = false);
        for (i, b) in base.iter_mut().enumerate() {
            *b = i;
        }
        used[root] = true;
        queue.clear();
        queue.push_back(root);
        let mut end = NONE;
        'search: while let Some(v) = queue.pop_front() {
            for &to in &neighbours[v] {
                if base[v] == base[to] || mate[v] == to {
                    continue;
                }
                if to == root || (mate[to] != NONE && parent[mate[to]] != NONE) {
                    // An odd cycle: contract the blossom.
                    let cur = lca(&mate, &base, &parent, v, to);
                    blossom.iter_mut().for_each(|b| *b = false);
                    mark_path(&mate, &mut base, &mut blossom, &mut parent, v, cur, to);
                    mark_path(&mate, &mut base, &mut blossom, &mut parent, to, cur, v);
                    for i in 0..n {
                        if blossom[base[i]] {
                            base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to] == NONE {
                    parent[to] = v;
                    if mate[to] == NONE {
                        end = to;
                        break 'search;
                    }
                    used[mate[to]] = true;
                    queue.push_back(mate[to]);
                }
            }
        }
        // Flip the path.
        let mut v = end;
        while v != NONE {
            let pv = parent[v];
            let ppv = mate[pv];
            mate[v] = pv;
            mate[pv] = v;
            v = ppv;
        }
    }
    mate
}

fn mark_path(
    mate: &[usize],
    base: &mut [usize],
    blossom: &mut [bool],
    parent: &mut [usize],
    mut v: usize,
    b: usize,
    mut child: usize,
) {
    while base[v] != b {
        blossom[base[v]] = true;
        blossom[base[mate[v]]] = true;
        parent[v] = child;
        child = mate[v];
        v = parent[mate[v]];
    }
}

/// The number of pairs in a maximum matching.
pub fn matching_size(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> usize {
    maximum_matching(n, adj)
        .iter()
        .filter(|&&m| m != usize::MAX)
        .count()
        / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_cycle_needs_a_blossom() {
        // A triangle 0-1-2 with a tail 2-3 and 0-4: perfect matching on 5?
        // No (odd); 2 pairs. Add 5 attached to 1: 3 pairs.
        let edges = [(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (1, 5)];
        let adj = |u: usize, v: usize| edges.contains(&(u, v)) || edges.contains(&(v, u));
        assert_eq!(matching_size(6, &adj), 3);
        assert_eq!(matching_size(5, &adj), 2);
    }

    #[test]
    fn complete_graph_and_empty_graph() {
        assert_eq!(matching_size(7, &|_, _| true), 3);
        assert_eq!(matching_size(7, &|_, _| false), 0);
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // A symmetric matrix: indices read best.
    fn agrees_with_brute_force_on_small_random_graphs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..300 {
            let n = rng.gen_range(1..9);
            let mut m = vec![vec![false; n]; n];
            for u in 0..n {
                for v in u + 1..n {
                    let e = rng.gen_bool(0.35);
                    m[u][v] = e;
                    m[v][u] = e;
                }
            }
            let adj = |u: usize, v: usize| m[u][v];
            assert_eq!(matching_size(n, &adj), brute(&m, 0, &mut vec![false; n]));
        }
    }

    fn brute(m: &[Vec<bool>], from: usize, used: &mut Vec<bool>) -> usize {
        let n = m.len();
        let Some(u) = (from..n).find(|&u| !used[u]) else {
            return 0;
        };
        used[u] = true;
        let mut best = brute(m, u + 1, used);
        for v in u + 1..n {
            if !used[v] && m[u][v] {
                used[v] = true;
                best = best.max(1 + brute(m, u + 1, used));
                used[v] = false;
            }
        }
        used[u] = false;
        best
    }
}
