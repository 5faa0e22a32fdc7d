use super::{
    next::{next, start, Step},
    table::{table, CellResult},
    *,
};
use crate::tournament::{cli, knockout::Decider, standings::TieBreak};

fn event(format: Format, players: u32, rounds: u32) -> Event {
    Event {
        settings: Settings {
            name: "Test".into(),
            format,
            rounds,
            groups: 2,
            match_games: 2,
            decider: Decider::default(),
            initial_colour: Colour::White,
            scoring: Scoring::default(),
        },
        entrants: (1..=players)
            .map(|pno| Entrant {
                pno,
                name: format!("p{pno}"),
                rating: 0,
                section: None,
                withdrawn_after: None,
            })
            .collect(),
        boards: Vec::new(),
    }
}

fn white(b: &Board) -> (Pno, Option<Pno>) {
    (b.white, b.black)
}

/// Plays every pending board with `result(board)`, then takes the next
/// step, until the event finishes; returns the rounds paired.
fn run(e: &mut Event, result: impl Fn(&Board) -> BoardResult) -> u32 {
    let mut heads = true;
    let mut coin = move || {
        heads = !heads;
        if heads {
            Colour::White
        } else {
            Colour::Black
        }
    };
    e.boards = start(e, false, &mut coin).expect("start");
    for _ in 0..200 {
        for b in e.boards.iter_mut().filter(|b| b.result.is_none()) {
            b.result = Some(result(b));
        }
        match next(e, &mut coin) {
            Step::Pair { boards, .. } | Step::Add(boards) => e.boards.extend(boards),
            Step::Finished => return e.last_round(),
            Step::Wait => panic!("nothing pending, yet waiting"),
            Step::Stuck(why) => panic!("stuck: {why}"),
        }
    }
    panic!("never finished")
}

#[test]
fn swiss_rounds_are_what_the_dutch_checker_expects() {
    let mut e = event(Format::Swiss, 5, 4);
    let rounds = run(&mut e, |b| match (b.white + b.black.unwrap_or(0)) % 3 {
        0 => BoardResult::WhiteWins,
        1 => BoardResult::Draw,
        _ => BoardResult::BlackWins,
    });
    assert_eq!(rounds, 4);
    // One PAB a round (5 players), never twice to the same player.
    let byes: Vec<Pno> = e
        .boards
        .iter()
        .filter(|b| b.black.is_none())
        .map(|b| b.white)
        .collect();
    assert_eq!(byes.len(), 4);
    let mut unique = byes.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 4, "a second PAB: {byes:?}");
    // The FIDE checker re-pairs every round identically.
    let done = cli::check(&e.record()).expect("rounds to check");
    assert_eq!(done.code, 0, "{}", done.text);
}

#[test]
fn swiss_does_not_pair_a_withdrawn_player() {
    let mut e = event(Format::Swiss, 6, 3);
    let mut coin = || Colour::White;
    e.boards = start(&e, false, &mut coin).unwrap();
    for b in &mut e.boards {
        b.result = Some(BoardResult::Draw);
    }
    e.entrants[2].withdrawn_after = Some(1);
    let Step::Pair { round, boards } = next(&e, &mut coin) else {
        panic!("round 2 expected")
    };
    assert_eq!(round, 2);
    assert!(boards.iter().all(|b| b.white != 3 && b.black != Some(3)));
    // Five left: one of them has the PAB.
    assert_eq!(boards.iter().filter(|b| b.black.is_none()).count(), 1);
}

#[test]
fn double_round_robin_meets_everyone_twice_with_colours_reversed() {
    let mut e = event(Format::DoubleRoundRobin, 4, 0);
    assert_eq!(e.planned_rounds(), 6);
    let rounds = run(&mut e, |_| BoardResult::Draw);
    assert_eq!(rounds, 6);
    for a in 1..=4 {
        for b in (a + 1)..=4 {
            let games: Vec<_> = e
                .boards
                .iter()
                .map(white)
                .filter(|&(w, bl)| (w, bl) == (a, Some(b)) || (w, bl) == (b, Some(a)))
                .collect();
            assert_eq!(games.len(), 2, "{a} v {b}: {games:?}");
            assert_ne!(games[0], games[1], "colours reversed");
        }
    }
}

#[test]
fn round_robin_all_at_once_creates_every_round() {
    let e = event(Format::RoundRobin, 5, 0);
    let boards = start(&e, true, &mut || Colour::White).unwrap();
    // 5 players: 5 rounds of 2 games (one rests each round).
    assert_eq!(e.planned_rounds(), 5);
    assert_eq!(boards.len(), 10);
    assert!(boards.iter().all(|b| b.black.is_some()));
}

#[test]
fn round_robin_withdrawal_before_half_annuls_the_games() {
    // 6 players, 5 rounds; player 6 withdraws after round 2 (2 of 5 played).
    let mut e = event(Format::RoundRobin, 6, 0);
    e.boards = start(&e, true, &mut || Colour::White).unwrap();
    for b in &mut e.boards {
        if b.round <= 2 {
            // Player 6 wins both games before leaving.
            b.result = Some(if b.black == Some(6) {
                BoardResult::BlackWins
            } else if b.white == 6 {
                BoardResult::WhiteWins
            } else {
                BoardResult::Draw
            });
        }
    }
    e.entrants[5].withdrawn_after = Some(2);
    // The remaining games are forfeits (the service scores them so).
    for b in &mut e.boards {
        if b.result.is_none() {
            b.result = Some(if b.white == 6 {
                BoardResult::BlackForfeitWin
            } else if b.black == Some(6) {
                BoardResult::WhiteForfeitWin
            } else {
                BoardResult::Draw
            });
        }
    }
    let rows = table(&e, &[TieBreak::SonnebornBerger]);
    let last = rows.last().unwrap();
    assert_eq!(last.number, 6, "annulled player listed last");
    assert_eq!(last.score, 0);
    // Everyone else: only draws among themselves count (4 games each).
    for r in &rows[..5] {
        assert_eq!(r.score, 20, "{r:?}");
        assert_eq!(r.place, (1, 5));
    }
}

#[test]
fn groups_pair_within_groups() {
    let mut e = event(Format::Groups, 8, 0);
    for (i, en) in e.entrants.iter_mut().enumerate() {
        // Snake seeding into two groups: 1 4 5 8 / 2 3 6 7.
        en.section = Some(if [0, 3, 4, 7].contains(&i) { "A" } else { "B" }.into());
    }
    assert_eq!(e.planned_rounds(), 3);
    run(&mut e, |_| BoardResult::WhiteWins);
    let group = |p: Pno| e.entrant(p).unwrap().section.clone();
    assert_eq!(e.boards.len(), 12);
    assert!(e
        .boards
        .iter()
        .all(|b| group(b.white) == group(b.black.unwrap())));
    let rows = table(&e, &[TieBreak::SonnebornBerger]);
    assert_eq!(rows[0].section.as_deref(), Some("A"));
    assert_eq!(rows[4].section.as_deref(), Some("B"));
    assert_eq!(rows[4].place.0, 1, "places count within a group");
}

#[test]
fn knockout_tied_match_goes_to_the_decider() {
    let mut e = event(Format::Knockout, 8, 0);
    assert_eq!(e.planned_rounds(), 3);
    // Every game drawn except the sudden-death games, won by White: each
    // match goes 2 games, 2 decider games, then one sudden-death game.
    run(&mut e, |b| {
        if b.game_no >= 5 {
            BoardResult::WhiteWins
        } else {
            BoardResult::Draw
        }
    });
    assert_eq!(e.last_round(), 3);
    let round1: Vec<_> = e.boards.iter().filter(|b| b.round == 1).collect();
    assert_eq!(round1.len(), 4 * 5);
    // Colours alternate within the regular games.
    let m1: Vec<_> = round1.iter().filter(|b| b.board == 1).collect();
    assert_eq!(m1[0].white, m1[1].black.unwrap());
    let rows = table(&e, &[]);
    assert_eq!(rows[0].place, (1, 1));
    assert_eq!(rows[1].place, (2, 2));
    assert_eq!(rows[2].place, (3, 4));
    assert_eq!(rows[4].place, (5, 8));
}

#[test]
fn knockout_byes_go_to_the_top_seeds() {
    let mut e = event(Format::Knockout, 6, 0);
    e.settings.match_games = 1;
    let boards = start(&e, false, &mut || Colour::White).unwrap();
    let byes: Vec<Pno> = boards
        .iter()
        .filter(|b| b.black.is_none())
        .map(|b| b.white)
        .collect();
    assert_eq!(byes, vec![1, 2]);
    run(&mut e, |_| BoardResult::WhiteWins);
    assert_eq!(e.last_round(), 3);
}

#[test]
fn team_match_alternates_colours_by_board() {
    let mut e = event(Format::Team, 8, 0);
    for en in &mut e.entrants {
        en.section = Some(if en.pno <= 4 { "Red" } else { "Blue" }.into());
    }
    assert_eq!(e.planned_rounds(), 1);
    run(&mut e, |b| {
        if b.board == 1 {
            BoardResult::WhiteWins
        } else {
            BoardResult::Draw
        }
    });
    let pairs: Vec<_> = e.boards.iter().map(white).collect();
    assert_eq!(
        pairs,
        vec![(1, Some(5)), (6, Some(2)), (3, Some(7)), (8, Some(4))]
    );
    let rows = table(&e, &[]);
    assert_eq!(rows[0].name, "Red");
    assert_eq!(rows[0].score, 25);
    assert_eq!(rows[1].score, 15);
    assert_eq!(rows[0].cells[0].result, CellResult::Win);
}

#[test]
fn equal_teams_share_the_place() {
    let mut e = event(Format::Team, 4, 0);
    for en in &mut e.entrants {
        en.section = Some(if en.pno <= 2 { "Red" } else { "Blue" }.into());
    }
    run(&mut e, |_| BoardResult::WhiteWins);
    let rows = table(&e, &[]);
    assert_eq!(rows[0].place, (1, 2));
    assert_eq!(rows[1].place, (1, 2));
}
