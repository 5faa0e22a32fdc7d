//! Hand-checked pairings: round 1 (top half v bottom half, E.5 colours), the
//! PAB, no rematch (C.1), at most one PAB (C.2), absolute colours (C.3) and
//! the topscorer exception, completion (C.4), floaters and colour rules, and
//! the order of transpositions (D.1) and exchanges (D.2) on the handbook's
//! own examples.

use super::*;
use crate::tournament::model::{Colour, Entry, Outcome, Player, Scoring};

fn tournament(n: u32, rounds: u32) -> Tournament {
    Tournament {
        total_rounds: Some(rounds),
        players: (1..=n)
            .map(|pno| Player {
                pno,
                name: format!("P{pno}"),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn pairs(list: &[(u32, u32)]) -> Vec<Pair> {
    list.iter()
        .map(|&(w, b)| Pair {
            white: w,
            black: (b != 0).then_some(b),
        })
        .collect()
}

/// Records a round: `(white, black, white's outcome)`, byes as black 0.
fn play(t: &mut Tournament, round: u32, games: &[(u32, u32, Outcome)]) {
    let idx = round as usize - 1;
    for p in &mut t.players {
        if p.rounds.len() <= idx {
            p.rounds.resize(idx + 1, None);
        }
    }
    for &(w, b, o) in games {
        if b == 0 {
            t.players[w as usize - 1].rounds[idx] = Some(Entry::bye(o));
            continue;
        }
        let back = match o {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::ForfeitWin => Outcome::ForfeitLoss,
            Outcome::ForfeitLoss => Outcome::ForfeitWin,
            x => x,
        };
        t.players[w as usize - 1].rounds[idx] = Some(Entry::game(b, Colour::White, o));
        t.players[b as usize - 1].rounds[idx] = Some(Entry::game(w, Colour::Black, back));
    }
}

fn pair(t: &Tournament, round: u32) -> Vec<Pair> {
    pair_round(t, round).unwrap()
}

#[test]
fn round_one_top_half_against_bottom_half_with_alternating_colours() {
    // E.5: the higher ranked player of each pair gets the initial colour when
    // his pairing number is odd.
    let t = tournament(6, 5);
    assert_eq!(pair(&t, 1), pairs(&[(1, 4), (5, 2), (3, 6)]));
    let mut t = tournament(6, 5);
    t.initial_colour = Colour::Black;
    assert_eq!(pair(&t, 1), pairs(&[(4, 1), (2, 5), (6, 3)]));
}

#[test]
fn odd_field_gives_the_pab_to_the_lowest() {
    let t = tournament(5, 5);
    assert_eq!(pair(&t, 1), pairs(&[(1, 3), (4, 2), (5, 0)]));
}

#[test]
fn round_two_pairs_by_score_and_alternates_colours() {
    let mut t = tournament(6, 5);
    // Round 1: 1-4 1-0, 5-2 0-1, 3-6 ½-½.
    play(
        &mut t,
        1,
        &[
            (1, 4, Outcome::Win),
            (5, 2, Outcome::Loss),
            (3, 6, Outcome::Draw),
        ],
    );
    // Scoregroups: {1, 2} 1 pt, {3, 6} ½, {4, 5} 0. 1 and 2 each want the
    // other colour than last time: 1 had White → Black, 2 had Black → White.
    // 3 and 6 have met (C.1): both float down (A.4) and, as moved-down
    // players, are paired first, in order, with the residents 4 and 5
    // (B.2, D.3); 4 had Black and 5 White, so colours alternate for all.
    let got = pair(&t, 2);
    assert_eq!(got, pairs(&[(2, 1), (4, 3), (6, 5)]));
}

#[test]
fn no_rematch_and_at_most_one_pab() {
    let mut t = tournament(3, 3);
    play(
        &mut t,
        1,
        &[(1, 3, Outcome::Win), (2, 0, Outcome::PairingBye)],
    );
    // 2 (1 pt, had the PAB) and 1 (1 pt) meet; 3 gets the PAB.
    let got = pair(&t, 2);
    assert_eq!(got.len(), 2);
    assert!(got.contains(&Pair {
        white: 3,
        black: None
    }));
    play(
        &mut t,
        2,
        &[(2, 1, Outcome::Draw), (3, 0, Outcome::PairingBye)],
    );
    // Round 3: 2 and 3 have not met, 1 has met both; 1 must take the PAB
    // (the others have had theirs).
    let got = pair(&t, 3);
    assert!(
        got.contains(&Pair {
            white: 1,
            black: None
        }),
        "{got:?}"
    );
    assert!(got
        .iter()
        .any(|p| p.black.is_some() && [p.white, p.black.unwrap()].contains(&2)));
}

#[test]
fn impossible_round_is_an_error() {
    let mut t = tournament(2, 3);
    play(&mut t, 1, &[(1, 2, Outcome::Win)]);
    let e = pair_round(&t, 2).unwrap_err();
    assert!(e.to_string().contains("cannot be paired"), "{e}");
}

#[test]
fn absolute_colour_preferences_do_not_meet_except_topscorers_in_the_last_round() {
    // 1 and 2 played White twice (absolute preference for Black, A.6.a);
    // 4 and 5 Black twice (absolute White), so 4-5 is never allowed (C.3).
    let mut t = tournament(6, 3);
    play(
        &mut t,
        1,
        &[
            (1, 4, Outcome::Win),
            (2, 5, Outcome::Win),
            (6, 3, Outcome::Draw),
        ],
    );
    play(
        &mut t,
        2,
        &[
            (1, 5, Outcome::Win),
            (2, 4, Outcome::Win),
            (3, 6, Outcome::Draw),
        ],
    );
    // Round 3 is the last: 1 and 2 are topscorers (2 > half of 2), so the
    // A.7 exception lets them meet — the only way to pair the round. Their
    // preferences are equal in every respect, so E.4 gives the higher
    // ranked (1) his Black.
    let got = pair(&t, 3);
    assert!(
        got.contains(&Pair {
            white: 2,
            black: Some(1)
        }),
        "{got:?}"
    );
    // With rounds to go, nobody is a topscorer: no legal pairing.
    t.total_rounds = Some(5);
    let e = pair_round(&t, 3).unwrap_err();
    assert!(e.to_string().contains("absolute criteria"), "{e}");
}

#[test]
fn completion_moves_a_player_down_when_the_rest_would_be_stuck() {
    // The top scoregroup {1, 2} cannot pair (they met): both float down.
    let mut t = tournament(4, 4);
    play(&mut t, 1, &[(1, 2, Outcome::Draw), (3, 4, Outcome::Draw)]);
    play(&mut t, 2, &[(2, 3, Outcome::Win), (4, 1, Outcome::Loss)]);
    // Scores: 1 and 2 1.5, 3 and 4 0.5. 1 met 2 and 4, 2 met 1 and 3, so
    // the only pairing is 1-3 and 2-4.
    let got = pair(&t, 3);
    let set: Vec<(u32, u32)> = got
        .iter()
        .map(|p| (p.white.min(p.black.unwrap()), p.white.max(p.black.unwrap())))
        .collect();
    assert!(set.contains(&(1, 3)) && set.contains(&(2, 4)), "{got:?}");
}

#[test]
fn forfeits_do_not_count_as_played() {
    // A forfeit gives no colour and allows the pair to meet again.
    let mut t = tournament(2, 3);
    play(&mut t, 1, &[(1, 2, Outcome::ForfeitWin)]);
    let got = pair(&t, 2);
    assert_eq!(got.len(), 1);
}

#[test]
fn absences_entered_for_the_round_are_respected() {
    let mut t = tournament(5, 5);
    t.players[0].rounds = vec![Some(Entry::bye(Outcome::HalfBye))];
    let got = pair(&t, 1);
    assert!(got.iter().all(|p| p.white != 1 && p.black != Some(1)));
    assert_eq!(got.len(), 2);
}

#[test]
fn pab_points_are_configurable() {
    let mut t = tournament(3, 3);
    t.scoring = Scoring {
        pab: 5,
        ..Scoring::default()
    };
    play(
        &mut t,
        1,
        &[(1, 2, Outcome::Win), (3, 0, Outcome::PairingBye)],
    );
    assert_eq!(t.players[2].score_after(&t.scoring, 1), 5);
}

#[test]
fn pairing_is_deterministic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    let mut t = tournament(23, 7);
    for r in 1..=5 {
        let got = pair(&t, r);
        assert_eq!(got, pair(&t, r));
        let games: Vec<(u32, u32, Outcome)> = got
            .iter()
            .map(|p| match p.black {
                None => (p.white, 0, Outcome::PairingBye),
                Some(b) => (
                    p.white,
                    b,
                    [Outcome::Win, Outcome::Draw, Outcome::Loss][rng.gen_range(0..3)],
                ),
            })
            .collect();
        play(&mut t, r, &games);
    }
}

#[test]
fn transpositions_are_tried_in_the_handbooks_lexicographic_order() {
    // D.1 (C.04.3; the handbook's own example in the older C.04.1 D.1:
    // with S2 = 5 6 7 8 the transpositions run 5-6-7-8, 5-6-8-7, 5-7-6-8,
    // … "all numbers constructable with the digits 5, 6, 7 and 8 in
    // ascending order"). Eight players, two rounds of draws in which 1–4
    // had Black both times and 5–8 White: all score 1, 1–4 must have White
    // and 5–8 Black (absolute preferences, A.6), so C.3 allows only S1–S2
    // pairs. The rematches leave 1 and 2 the opponents {7, 8} and 3 and 4
    // the opponents {5, 6}: four pairings, equal on every criterion of
    // section C. The first in D.1's order is S2 = 7-8-5-6.
    let mut t = tournament(8, 5);
    let d = Outcome::Draw;
    play(&mut t, 1, &[(5, 1, d), (6, 2, d), (7, 3, d), (8, 4, d)]);
    play(&mut t, 2, &[(6, 1, d), (5, 2, d), (8, 3, d), (7, 4, d)]);
    assert_eq!(pair(&t, 3), pairs(&[(1, 7), (2, 8), (3, 5), (4, 6)]));
}

#[test]
fn the_exchange_with_the_smallest_difference_of_numbers_comes_first() {
    // D.2 (C.04.3): among exchanges between S1 and S2, the fewest players
    // exchanged, then "the smallest difference between the sum of the BSNs
    // moved from the original S2 to S1 and the sum of the BSNs moved from
    // the original S1 to S2" (the handbook's example: in a bracket of
    // eleven, exchanging 6 with 4 is better than 8 with 5).
    //
    // Six players draw round 1: 1-4, 5-2, 3-6. All score ½; 1, 3 and 5 want
    // Black, 2, 4 and 6 White (A.6). S1 = 1 2 3, S2 = 4 5 6. No
    // transposition satisfies every colour preference (C.12): each leaves
    // two players with the same preference together or repeats a game.
    // Two pairings satisfy them all, both one exchange away: {1-2, 3-4,
    // 5-6} (2 ↔ 5, difference 3) and {1-6, 2-3, 4-5} (3 ↔ 4, difference 1).
    // D.2 takes the second. Colours: each gets its preference (E.2).
    let mut t = tournament(6, 5);
    let d = Outcome::Draw;
    play(&mut t, 1, &[(1, 4, d), (5, 2, d), (3, 6, d)]);
    assert_eq!(pair(&t, 2), pairs(&[(6, 1), (2, 3), (4, 5)]));
}
