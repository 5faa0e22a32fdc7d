//! The club level/points scheme of SPEC §3: worked examples, bracket and
//! level boundaries, rounding, and zero-sum seasons.

use chessbot::rating::{
    draw_gain_of_lower, preview, round_half_away_from_zero, settle, win_gain, Bracket, GameOutcome,
    Level, ParsePointsError, Points, Standing,
};
use proptest::prelude::*;

fn p(text: &str) -> Points {
    match text.parse() {
        Ok(points) => points,
        Err(e) => panic!("test data `{text}`: {e}"),
    }
}

/// Points after the game for (A, B) with A as White.
fn after(a: &str, b: &str, outcome: GameOutcome) -> (String, String) {
    let (a, b) = (p(a), p(b));
    let s = settle(a, b, outcome);
    assert_eq!(s.white_delta + s.black_delta, Points::ZERO);
    (
        (a + s.white_delta).to_string(),
        (b + s.black_delta).to_string(),
    )
}

#[test]
fn spec_worked_examples() {
    use GameOutcome::*;
    // before (A, B), result, after (A, B); A is White.
    let table = [
        ("0", "0", WhiteWins, "10", "-10"),
        ("150", "100", BlackWins, "135", "115"),
        ("150", "100", WhiteWins, "156", "94"),
        ("150", "100", Draw, "142.5", "107.5"),
        ("110", "100", WhiteWins, "119.2", "90.8"),
        ("199", "100", Draw, "189.05", "109.95"),
        ("250", "100", WhiteWins, "252", "98"),
        ("250", "100", BlackWins, "175", "175"),
        ("500", "300", WhiteWins, "500", "300"),
        ("500", "300", Draw, "450", "350"),
    ];
    for (a, b, outcome, a2, b2) in table {
        assert_eq!(
            after(a, b, outcome),
            (a2.to_string(), b2.to_string()),
            "{a}, {b}, {outcome:?}"
        );
        // Colours do not matter: the same game with A as Black.
        let swapped = match outcome {
            WhiteWins => BlackWins,
            BlackWins => WhiteWins,
            Draw => Draw,
        };
        assert_eq!(
            after(b, a, swapped),
            (b2.to_string(), a2.to_string()),
            "swapped {a}, {b}, {outcome:?}"
        );
    }
}

#[test]
fn spec_changes_as_stated() {
    assert_eq!(win_gain(p("100"), p("150")), p("15"));
    assert_eq!(win_gain(p("150"), p("100")), p("6"));
    assert_eq!(draw_gain_of_lower(p("150"), p("100")), p("7.5"));
    assert_eq!(win_gain(p("110"), p("100")), p("9.2"));
    assert_eq!(draw_gain_of_lower(p("199"), p("100")), p("9.95"));
    assert_eq!(win_gain(p("250"), p("100")), p("2"));
    assert_eq!(win_gain(p("100"), p("250")), p("75"));
    assert_eq!(win_gain(p("500"), p("300")), p("0"));
    assert_eq!(draw_gain_of_lower(p("300"), p("500")), p("50"));
}

/// Each bracket boundary, for each result; the lower player has 1000 points
/// so every case stays positive.
#[test]
fn bracket_boundaries() {
    let low = p("1000");
    // d, lower wins, higher wins, draw (lower gains)
    let table = [
        ("0", "10", "10", "0"),
        ("9.99", "10", "10", "0"),
        // 10 + 1 = 11; 10 − 0.8 = 9.2; (10 + 1) / 2 = 5.5
        ("10", "11", "9.2", "5.5"),
        // 10 + 9.999 = 19.999 → 20; 10 − 7.9992 = 2.0008 → 2; 19.999/2 = 9.9995 → 10
        ("99.99", "20", "2", "10"),
        // d/2 = 50; 2; d/4 = 25
        ("100", "50", "2", "25"),
        // 99.995 → 100; 2; 49.9975 → 50
        ("199.99", "100", "2", "50"),
        // 100; 0; 50
        ("200", "100", "0", "50"),
        ("1000", "500", "0", "250"),
    ];
    for (d, lower_wins, higher_wins, draw) in table {
        let high = low + p(d);
        assert_eq!(win_gain(low, high), p(lower_wins), "lower wins, d = {d}");
        assert_eq!(win_gain(high, low), p(higher_wins), "higher wins, d = {d}");
        assert_eq!(draw_gain_of_lower(low, high), p(draw), "draw, d = {d}");
        assert_eq!(
            draw_gain_of_lower(high, low),
            p(draw),
            "draw swapped, d = {d}"
        );
        // And through settle, both colours.
        let s = settle(high, low, GameOutcome::Draw);
        assert_eq!((s.white_delta, s.black_delta), (-p(draw), p(draw)));
        let s = settle(low, high, GameOutcome::Draw);
        assert_eq!((s.white_delta, s.black_delta), (p(draw), -p(draw)));
        let s = settle(low, high, GameOutcome::BlackWins);
        assert_eq!(
            (s.white_delta, s.black_delta),
            (-p(higher_wins), p(higher_wins))
        );
    }
    assert_eq!(Bracket::of(p("9.99")), Bracket::Under10);
    assert_eq!(Bracket::of(p("10")), Bracket::From10To100);
    assert_eq!(Bracket::of(p("99.99")), Bracket::From10To100);
    assert_eq!(Bracket::of(p("100")), Bracket::From100To200);
    assert_eq!(Bracket::of(p("199.99")), Bracket::From100To200);
    assert_eq!(Bracket::of(p("200")), Bracket::From200);
    assert_eq!(Bracket::of(p("-200")), Bracket::From200);
}

#[test]
fn under_ten_who_is_lower_does_not_matter() {
    for (a, b) in [("5", "0"), ("0", "9.99"), ("-3", "-3")] {
        assert_eq!(win_gain(p(a), p(b)), p("10"));
        assert_eq!(win_gain(p(b), p(a)), p("10"));
        assert_eq!(draw_gain_of_lower(p(a), p(b)), Points::ZERO);
    }
}

#[test]
fn rounding_once_half_away_from_zero() {
    // Draw, 10 ≤ d < 100: (10 + 10.1/10)/2 = 5.505 → 5.51
    assert_eq!(draw_gain_of_lower(p("0"), p("10.1")), p("5.51"));
    // Lower wins: 10 + 10.05/10 = 11.005 → 11.01
    assert_eq!(win_gain(p("0"), p("10.05")), p("11.01"));
    // d/2: 100.01/2 = 50.005 → 50.01
    assert_eq!(win_gain(p("0"), p("100.01")), p("50.01"));
    // d/4: 100.02/4 = 25.005 → 25.01; 100.01/4 = 25.0025 → 25
    assert_eq!(draw_gain_of_lower(p("0"), p("100.02")), p("25.01"));
    assert_eq!(draw_gain_of_lower(p("0"), p("100.01")), p("25"));
    // Higher wins: 10 − 12.34/12.5 = 9.0128 → 9.01
    assert_eq!(win_gain(p("12.34"), p("0")), p("9.01"));
    // Negative points behave the same as positive (only d matters).
    assert_eq!(draw_gain_of_lower(p("-110.1"), p("-100")), p("5.51"));
    // The loser's change is the exact negation: -50.005 → -50.01.
    let s = settle(p("100.01"), p("0"), GameOutcome::BlackWins);
    assert_eq!(s.white_delta, p("-50.01"));
    // The helper itself, including negatives.
    assert_eq!(round_half_away_from_zero(5, 2), 3);
    assert_eq!(round_half_away_from_zero(-5, 2), -3);
    assert_eq!(round_half_away_from_zero(-7, 2), -4);
    assert_eq!(round_half_away_from_zero(-1, 4), 0);
    assert_eq!(round_half_away_from_zero(-3, 4), -1);
    assert_eq!(round_half_away_from_zero(0, 7), 0);
    assert_eq!(round_half_away_from_zero(14, 7), 2);
}

#[test]
fn levels() {
    let cases = [
        ("-1000", Level::Unranked),
        ("-0.01", Level::Unranked),
        ("0", Level::Unranked),
        ("99.99", Level::Unranked),
        ("100", Level::Ranked(30)),
        ("199.99", Level::Ranked(30)),
        ("200", Level::Ranked(29)),
        ("2900", Level::Ranked(2)),
        ("2999.99", Level::Ranked(2)),
        ("3000", Level::Ranked(1)),
        ("100000", Level::Ranked(1)),
    ];
    for (points, level) in cases {
        assert_eq!(Level::from_points(p(points)), level, "{points}");
    }
    assert_eq!(Level::Unranked.name_en(), "Unranked");
    assert_eq!(Level::Unranked.name_zh(), "无级别");
    assert_eq!(Level::Ranked(30).name_en(), "Level 30");
    assert_eq!(Level::Ranked(30).name_zh(), "30级");
    assert_eq!(Level::Ranked(1).to_string(), "Level 1");
    assert!(Level::Ranked(1) > Level::Ranked(2));
    assert!(Level::Ranked(30) > Level::Unranked);
    // Every ranked level's minimum maps back to it.
    for n in 1..=30u8 {
        let min = Level::Ranked(n).min_points().unwrap_or(Points::ZERO);
        assert_eq!(Level::from_points(min), Level::Ranked(n));
        assert_eq!(
            Level::from_points(min - Points::from_hundredths(1)),
            if n == 30 {
                Level::Unranked
            } else {
                Level::Ranked(n + 1)
            }
        );
    }
}

#[test]
fn points_text() {
    for (text, hundredths, shown) in [
        ("150", 15000, "150"),
        ("107.5", 10750, "107.5"),
        ("107.50", 10750, "107.5"),
        ("2.08", 208, "2.08"),
        ("-3.25", -325, "-3.25"),
        ("-10", -1000, "-10"),
        ("−10", -1000, "-10"),
        ("+7", 700, "7"),
        ("-0.5", -50, "-0.5"),
        ("0.01", 1, "0.01"),
        (" 42 ", 4200, "42"),
        ("007", 700, "7"),
        ("-0", 0, "0"),
    ] {
        let points = p(text);
        assert_eq!(points.hundredths(), hundredths, "{text}");
        assert_eq!(points.to_string(), shown, "{text}");
        assert_eq!(p(shown), points, "round trip {text}");
    }
    assert_eq!(format!("{:>6}|", p("7.5")), "   7.5|");
}

#[test]
fn points_bad_text() {
    let err = |t: &str| match t.parse::<Points>() {
        Ok(v) => panic!("`{t}` parsed as {v}"),
        Err(e) => e,
    };
    assert_eq!(err(""), ParsePointsError::Empty);
    assert_eq!(err("   "), ParsePointsError::Empty);
    assert!(matches!(err("1.234"), ParsePointsError::TooManyDecimals(_)));
    assert!(err("1.234").to_string().contains("more than two decimals"));
    for bad in [
        "abc", "1.2.3", "1.", ".5", "1e3", "--1", "1,5", "12a", "-", "+", "0x10", "١٢",
    ] {
        assert!(matches!(err(bad), ParsePointsError::Invalid(_)), "{bad}");
        assert!(
            err(bad).to_string().contains("not a number of points"),
            "{bad}"
        );
    }
    assert!(matches!(
        err("99999999999999999999999"),
        ParsePointsError::OutOfRange(_)
    ));
    assert!(matches!(
        err("1000000000.01"),
        ParsePointsError::OutOfRange(_)
    ));
    assert_eq!(p("1000000000"), Points::PARSE_LIMIT);
    // 10 KB of garbage: a short message.
    let big = "x".repeat(10_000);
    assert!(err(&big).to_string().len() < 200);
}

#[test]
fn provisional_mark() {
    let s = Standing {
        points: p("150"),
        rated_games: 49,
    };
    assert_eq!(s.to_string(), "150?");
    assert!(s.is_provisional());
    let s = Standing {
        points: p("150"),
        rated_games: 50,
    };
    assert_eq!(s.to_string(), "150");
    assert_eq!(s.level(), Level::Ranked(30));
    assert_eq!(Standing::default().to_string(), "0?");
}

#[test]
fn preview_matches_settle() {
    let pv = preview(p("150"), p("100"));
    assert_eq!(
        (pv.a.win, pv.a.draw, pv.a.loss),
        (p("6"), p("-7.5"), p("-15"))
    );
    assert_eq!(
        (pv.b.win, pv.b.draw, pv.b.loss),
        (p("15"), p("7.5"), p("-6"))
    );
    assert_eq!(pv.a.points, p("150"));
    assert_eq!(pv.b.points, p("100"));
}

#[test]
fn cli_preview_prints_spec_figures() {
    use chessbot::rating::cli::render_preview;
    let out = render_preview(p("150"), p("100"));
    for line in [
        "Player A: 150 (Level 30, 30级)",
        "win   +6       → 156 (Level 30, 30级)",
        "draw  -7.5     → 142.5 (Level 30, 30级)",
        "loss  -15      → 135 (Level 30, 30级)",
        "Player B: 100 (Level 30, 30级)",
        "win   +15      → 115 (Level 30, 30级)",
        "draw  +7.5     → 107.5 (Level 30, 30级)",
        "loss  -6       → 94 (Unranked, 无级别)",
    ] {
        assert!(out.contains(line), "missing `{line}` in\n{out}");
    }
}

#[test]
fn cli_binary() {
    use std::process::Command;
    let bin = env!("CARGO_BIN_EXE_chessbot");
    let ok = Command::new(bin)
        .args(["rating", "preview", "150", "100"])
        .output();
    let ok = match ok {
        Ok(o) => o,
        Err(e) => panic!("running {bin}: {e}"),
    };
    assert!(ok.status.success());
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(
        text.contains("+6") && text.contains("-15") && text.contains("-7.5"),
        "{text}"
    );
    assert!(
        text.contains("+15") && text.contains("-6") && text.contains("+7.5"),
        "{text}"
    );

    let neg = Command::new(bin)
        .args(["rating", "preview", "-10", "5.5"])
        .output();
    assert!(neg.is_ok_and(|o| o.status.success()));

    for bad in [
        vec!["rating", "preview", "abc", "100"],
        vec!["rating", "preview", "1.234", "100"],
        vec!["rating", "preview", "100"],
        vec!["rating", "preview", "1", "2", "3"],
    ] {
        let out = match Command::new(bin).args(&bad).output() {
            Ok(o) => o,
            Err(e) => panic!("running {bin}: {e}"),
        };
        assert!(!out.status.success(), "{bad:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.is_empty(), "{bad:?}: no message");
    }
    let out = Command::new(bin)
        .args(["rating", "preview", "1.234", "1"])
        .output();
    let err = out
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .unwrap_or_default();
    assert!(err.contains("more than two decimals"), "{err}");
}

fn outcome() -> impl Strategy<Value = GameOutcome> {
    prop_oneof![
        Just(GameOutcome::WhiteWins),
        Just(GameOutcome::BlackWins),
        Just(GameOutcome::Draw),
    ]
}

proptest! {
    /// A season of random games among random players: the server total stays
    /// exactly 0 and every game's deltas are opposite.
    #[test]
    fn season_is_zero_sum(
        players in 2usize..20,
        games in proptest::collection::vec((0usize..1000, 0usize..1000, outcome()), 0..400),
    ) {
        let mut points = vec![Points::ZERO; players];
        for (w, b, result) in games {
            let (w, b) = (w % players, b % players);
            if w == b { continue; }
            let s = settle(points[w], points[b], result);
            prop_assert_eq!(s.white_delta, -s.black_delta);
            points[w] += s.white_delta;
            points[b] += s.black_delta;
            prop_assert_eq!(points.iter().copied().sum::<Points>(), Points::ZERO);
        }
    }

    /// For any points: deltas are opposite, winners never lose points, the
    /// lower side never loses points in a draw, and |change| is bounded by
    /// max(20, d/2): the lower side winning with 10 ≤ d < 100 gains 10 + d/10.
    #[test]
    fn settle_properties(a in -1_000_000i64..1_000_000, b in -1_000_000i64..1_000_000, result in outcome()) {
        let (a, b) = (Points::from_hundredths(a), Points::from_hundredths(b));
        let s = settle(a, b, result);
        prop_assert_eq!(s.white_delta + s.black_delta, Points::ZERO);
        let d = (a - b).abs().hundredths();
        prop_assert!(s.white_delta.hundredths().abs() <= 2000.max(d / 2 + 1));
        match result {
            GameOutcome::WhiteWins => prop_assert!(s.white_delta >= Points::ZERO),
            GameOutcome::BlackWins => prop_assert!(s.black_delta >= Points::ZERO),
            GameOutcome::Draw => {
                if a < b { prop_assert!(s.white_delta >= Points::ZERO) }
                else { prop_assert!(s.white_delta <= Points::ZERO) }
            }
        }
    }

    /// Points text round-trips.
    #[test]
    fn points_round_trip(h in -100_000_000_000i64..=100_000_000_000) {
        let points = Points::from_hundredths(h);
        prop_assert_eq!(points.to_string().parse::<Points>(), Ok(points));
    }

    /// Arbitrary text never panics the parser.
    #[test]
    fn points_parse_never_panics(s in ".{0,40}") {
        let _ = s.parse::<Points>();
    }
}
