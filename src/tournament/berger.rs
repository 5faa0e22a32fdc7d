//! Round robin by FIDE's Berger tables (Handbook C.05, Annex 1), single or
//! double, and group round robin (分组循环制: players split into groups by
//! snake seeding, each group a round robin).
//!
//! Berger tables: with `n` players (`n` even; an odd field adds a bye slot
//! `n + 1`, whose opponent rests), player `n` is fixed and the others turn:
//! the list of round `r` starts with player `((r − 1)·n/2 mod (n − 1)) + 1`.
//! Its first board sets that player against `n` (the player `n` has White in
//! even rounds), the other boards pair the list from both ends, the first
//! named with White. This reproduces the printed tables (n = 4: 1–4 2–3 /
//! 4–3 1–2 / 2–4 3–1).

use super::model::{Pair, Pno};

/// The rounds of a round robin among players `1..=players`: for each round,
/// its boards (white, black); a player facing the bye slot gets a
/// `Pair { black: None }`, listed last. `double` adds the second cycle with
/// the colours reversed (C.05: the same order, colours swapped).
pub fn berger(players: u32, double: bool) -> Vec<Vec<Pair>> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let half = n / 2;
    let mut rounds = Vec::new();
    for r in 1..n {
        let first = ((r - 1) * half) % (n - 1) + 1;
        let list: Vec<u32> = (0..n - 1).map(|k| (first - 1 + k) % (n - 1) + 1).collect();
        let mut boards: Vec<(u32, u32)> = Vec::new();
        // Board 1: the turning player against the fixed player n.
        if r % 2 == 1 {
            boards.push((list[0], n));
        } else {
            boards.push((n, list[0]));
        }
        for k in 1..half as usize {
            boards.push((list[k], list[list.len() - k]));
        }
        rounds.push(to_pairs(&boards, players));
    }
    if double {
        let second: Vec<Vec<Pair>> = rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|p| match p.black {
                        Some(b) => Pair {
                            white: b,
                            black: Some(p.white),
                        },
                        None => *p,
                    })
                    .collect()
            })
            .collect();
        rounds.extend(second);
    }
    rounds
}

/// Boards with the bye slot (`players + 1`) turned into byes, listed last.
fn to_pairs(boards: &[(u32, u32)], players: u32) -> Vec<Pair> {
    let mut out: Vec<Pair> = Vec::new();
    let mut bye = None;
    for &(w, b) in boards {
        if b > players {
            bye = Some(w);
        } else if w > players {
            bye = Some(b);
        } else {
            out.push(Pair {
                white: w,
                black: Some(b),
            });
        }
    }
    if let Some(p) = bye {
        out.push(Pair {
            white: p,
            black: None,
        });
    }
    out
}

/// Snake seeding: seed `k` (1-based, in order of strength) goes to group
/// `0, 1, …, g−1, g−1, …, 0, 0, 1, …` so the groups are balanced.
pub fn snake_groups(seeds: &[Pno], groups: usize) -> Vec<Vec<Pno>> {
    let g = groups.max(1);
    let mut out = vec![Vec::new(); g];
    for (k, &p) in seeds.iter().enumerate() {
        let (row, col) = (k / g, k % g);
        let idx = if row % 2 == 0 { col } else { g - 1 - col };
        out[idx].push(p);
    }
    out
}

/// Formats a table as `chessbot pairing --berger` prints it: one line per
/// round, boards `white-black`, a bye as `p-bye`.
pub fn render(rounds: &[Vec<Pair>]) -> String {
    let mut s = String::new();
    for (i, round) in rounds.iter().enumerate() {
        let boards: Vec<String> = round
            .iter()
            .map(|p| match p.black {
                Some(b) => format!("{}-{}", p.white, b),
                None => format!("{}-bye", p.white),
            })
            .collect();
        s.push_str(&format!("Round {:>2}: {}\n", i + 1, boards.join("  ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(rounds: &[Vec<Pair>]) -> Vec<String> {
        render(rounds)
            .lines()
            .map(|l| l[10..].to_string())
            .collect()
    }

    #[test]
    fn four_and_six_players_match_the_fide_tables() {
        assert_eq!(
            show(&berger(4, false)),
            ["1-4  2-3", "4-3  1-2", "2-4  3-1"]
        );
        assert_eq!(
            show(&berger(6, false)),
            [
                "1-6  2-5  3-4",
                "6-4  5-3  1-2",
                "2-6  3-1  4-5",
                "6-5  1-4  2-3",
                "3-6  4-2  5-1"
            ]
        );
    }

    #[test]
    fn eight_players_match_the_fide_table() {
        // C.05 Annex 1, 7 or 8 players.
        assert_eq!(
            show(&berger(8, false)),
            [
                "1-8  2-7  3-6  4-5",
                "8-5  6-4  7-3  1-2",
                "2-8  3-1  4-7  5-6",
                "8-6  7-5  1-4  2-3",
                "3-8  4-2  5-1  6-7",
                "8-7  1-6  2-5  3-4",
                "4-8  5-3  6-2  7-1"
            ]
        );
    }

    #[test]
    fn every_pair_meets_once_and_colours_balance() {
        for n in 2..=16u32 {
            for double in [false, true] {
                let rounds = berger(n, double);
                let cycles = if double { 2 } else { 1 };
                assert_eq!(rounds.len() as u32, cycles * (n + n % 2 - 1));
                let mut met = std::collections::HashMap::new();
                let mut whites = vec![0i32; n as usize + 1];
                for round in &rounds {
                    let mut seen = std::collections::HashSet::new();
                    for p in round {
                        assert!(seen.insert(p.white));
                        if let Some(b) = p.black {
                            assert!(seen.insert(b));
                            *met.entry((p.white.min(b), p.white.max(b))).or_insert(0) += 1;
                            whites[p.white as usize] += 1;
                            whites[b as usize] -= 1;
                        }
                    }
                    assert_eq!(seen.len() as u32, n, "everyone plays or rests");
                }
                assert_eq!(met.len() as u32, n * (n - 1) / 2);
                assert!(met.values().all(|&c| c == cycles));
                if double {
                    assert!(
                        whites.iter().all(|&w| w == 0),
                        "double cycle balances colours"
                    );
                } else {
                    assert!(whites.iter().all(|&w| w.abs() <= 1));
                }
            }
        }
    }

    #[test]
    fn odd_count_rests_the_player_facing_the_slot() {
        let rounds = berger(5, false);
        assert_eq!(rounds.len(), 5);
        // Round 1 of the 6-table: 1-6 becomes a bye for player 1.
        assert_eq!(
            rounds[0].last(),
            Some(&Pair {
                white: 1,
                black: None
            })
        );
    }

    #[test]
    fn snake_seeding_balances_groups() {
        let seeds: Vec<Pno> = (1..=10).collect();
        assert_eq!(
            snake_groups(&seeds, 3),
            vec![vec![1, 6, 7], vec![2, 5, 8], vec![3, 4, 9, 10]]
        );
    }
}
