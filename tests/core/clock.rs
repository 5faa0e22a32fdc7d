//! Time controls (SPEC §2): parsing, display, PGN tags, live clock
//! arithmetic, correspondence deadlines, the manual clock and durations.

use std::time::Duration;

use chessbot::clock::{
    clocks_after, deadline_after, format_clk, parse_duration, Clock, ClockState, Correspondence,
    DurationError, Flag, LiveControl, ManualClock, Stage, SystemClock, TimeControl,
    TimeControlError, DAY_MS, HOUR_MS,
};
use proptest::prelude::*;
use shakmaty::Color;

const MIN: i64 = 60_000;
const SEC: i64 = 1_000;

fn tc(text: &str) -> TimeControl {
    match text.parse() {
        Ok(tc) => tc,
        Err(e) => panic!("test data `{text}`: {e}"),
    }
}

fn live(text: &str) -> LiveControl {
    match tc(text) {
        TimeControl::Live(l) => l,
        other => panic!("`{text}` is not live: {other:?}"),
    }
}

fn err(text: &str) -> TimeControlError {
    match text.parse::<TimeControl>() {
        Ok(tc) => panic!("`{text}` parsed as {tc}"),
        Err(e) => e,
    }
}

#[test]
fn parse_display_round_trips() {
    // input, canonical, PGN tag, description
    let table = [
        ("3d", "3d", "-", "3 days per move"),
        ("1d", "1d", "-", "1 day per move"),
        ("14D", "14d", "-", "14 days per move"),
        ("10+5", "10+5", "600+5", "10 min + 5 s"),
        ("3+2", "3+2", "180+2", "3 min + 2 s"),
        (" 10 + 0 ", "10+0", "600+0", "10 min"),
        ("180+180", "180+180", "10800+180", "3 h + 180 s"),
        (
            "40/9000:16/3600",
            "40/9000:16/3600",
            "40/9000:16/3600",
            "40 moves in 2 h 30 min, then 16 moves every 1 h",
        ),
        (
            "40/7200:3600",
            "40/7200:3600",
            "40/7200:3600",
            "40 moves in 2 h, then 1 h for the rest of the game",
        ),
        (
            "40/5400+30:1800+30",
            "40/5400+30:1800+30",
            "40/5400+30:1800+30",
            "40 moves in 1 h 30 min + 30 s per move, then 30 min for the rest of the game + 30 s per move",
        ),
        ("40/9000", "40/9000", "40/9000", "40 moves every 2 h 30 min"),
        (
            "40/6000:20/3000:900+30",
            "40/6000:20/3000:900+30",
            "40/6000:20/3000:900+30",
            "40 moves in 1 h 40 min, then 20 moves in 50 min, then 15 min for the rest of the game + 30 s per move",
        ),
    ];
    for (input, canonical, pgn, words) in table {
        let t = tc(input);
        assert_eq!(t.to_string(), canonical, "{input}");
        assert_eq!(t.to_pgn_tag(), pgn, "{input}");
        assert_eq!(t.describe(), words, "{input}");
        assert_eq!(tc(canonical), t, "round trip {input}");
        if let TimeControl::Live(_) = t {
            assert_eq!(
                TimeControl::from_pgn_tag(pgn),
                Ok(Some(t.clone())),
                "pgn {input}"
            );
        }
    }
    assert_eq!(TimeControl::default(), tc("3d"));
    assert_eq!(
        TimeControl::default().correspondence(),
        Some(Correspondence::DEFAULT)
    );
    assert_eq!(TimeControl::from_pgn_tag("-"), Ok(None));
    assert_eq!(TimeControl::from_pgn_tag("?"), Ok(None));
    assert!(TimeControl::from_pgn_tag("90+5").is_err());
}

#[test]
fn every_offered_correspondence_choice() {
    for days in Correspondence::ALLOWED_DAYS {
        let t = tc(&format!("{days}d"));
        assert_eq!(t.correspondence().map(|c| c.days()), Some(days));
    }
    for days in [0, 4, 6, 8, 15, 30, 999] {
        assert!(matches!(
            err(&format!("{days}d")),
            TimeControlError::DaysNotOffered(_)
        ));
        assert!(Correspondence::new(days).is_err());
    }
}

#[test]
fn bad_inputs_have_clear_messages() {
    let cases: &[(&str, &str)] = &[
        ("0+0", "gives no time at all"),
        ("999d", "1, 2, 3, 5, 7, 10 or 14 days per move"),
        (
            "40/abc",
            "`abc` in `40/abc` is not a whole number of seconds",
        ),
        ("", "no time control given"),
        ("   ", "no time control given"),
        ("abc", "is not a time control"),
        ("10", "is not a time control"),
        ("xd", "`x` in `xd` is not a whole number of days"),
        ("0+5", "base time must be 1 to 180 minutes"),
        ("181+0", "base time must be 1 to 180 minutes"),
        ("600+5", "base time must be 1 to 180 minutes"),
        ("10+181", "increment must be 0 to 180 seconds"),
        ("10+-5", "is not a whole number of seconds"),
        ("10+", "is not a whole number of seconds"),
        ("+5", "is not a whole number of minutes"),
        ("0/9000", "must have 1 to 200 moves"),
        ("40/0", "1 to 36000 seconds"),
        ("40/99999", "1 to 36000 seconds"),
        (
            "3600:40/9000",
            "only the last stage may be without a move count",
        ),
        ("1/60:1/60:1/60:1/60:1/60:1/60", "at most 5 stages"),
        ("40/9000::16/3600", "is not a whole number of seconds"),
        ("/9000", "is not a whole number of moves"),
        ("40/9000:16/3600+x", "`x`"),
        ("99999999999+0", "is not a whole number of minutes"),
    ];
    for (input, message) in cases {
        let e = err(input).to_string();
        assert!(
            e.contains(message),
            "`{input}` gave `{e}`, expected `{message}`"
        );
    }
    let big = "1".repeat(10_240);
    let e = err(&big);
    assert!(matches!(e, TimeControlError::TooLong(10_240)));
    assert!(e.to_string().len() < 200);
}

/// A `3+2` game: first moves untimed, then time spent and increments added.
#[test]
fn three_plus_two_after_a_few_moves() {
    let l = live("3+2");
    let start = 1_700_000_000_000;
    // White's and Black's first moves are untimed, whatever they took.
    let t1 = start + 20 * SEC;
    let t2 = t1 + 30 * SEC;
    let s = clocks_after(&l, &[t1, t2]);
    assert_eq!(s.remaining_ms, [3 * MIN, 3 * MIN]);
    assert_eq!(s.side_to_move, Color::White);
    assert_eq!(s.running_since_ms, Some(t2));
    // White thinks 10 s: 3:00 − 0:10 + 0:02 = 2:52.
    let t3 = t2 + 10 * SEC;
    // Black thinks 25.5 s: 3:00 − 0:25.5 + 0:02 = 2:36.5.
    let t4 = t3 + 25_500;
    // White thinks 1 min: 2:52 − 1:00 + 0:02 = 1:54.
    let t5 = t4 + MIN;
    let s = clocks_after(&l, &[t1, t2, t3, t4, t5]);
    assert_eq!(s.remaining_ms, [114 * SEC, 156_500]);
    assert_eq!(s.side_to_move, Color::Black);
    assert_eq!(s.moves_played, [3, 2]);
    assert_eq!(s.flag_time(), Some(t5 + 156_500));
    assert_eq!(s.remaining_at(t5 + 6_500), [114 * SEC, 150 * SEC]);
    assert_eq!(s.remaining_at(t5 + 10 * MIN), [114 * SEC, 0]);
    assert_eq!(s.flagged, None);
    assert_eq!(format_clk(s.remaining_ms[1]), "0:02:36");
}

#[test]
fn no_flag_before_both_first_moves() {
    let l = live("1+0");
    assert_eq!(clocks_after(&l, &[]).flag_time(), None);
    assert_eq!(clocks_after(&l, &[5 * MIN]).flag_time(), None);
    let s = clocks_after(&l, &[5 * MIN, 20 * MIN]);
    assert_eq!(s.flag_time(), Some(21 * MIN));
}

#[test]
fn a_move_at_or_after_the_flag_records_the_flag() {
    let l = live("1+0");
    let (t1, t2) = (0, 1000);
    // White's move just in time: 1 ms left.
    let s = clocks_after(&l, &[t1, t2, t2 + MIN - 1]);
    assert_eq!(s.flagged, None);
    assert_eq!(s.remaining_ms[0], 1);
    // Exactly at the flag time: late.
    let s = clocks_after(&l, &[t1, t2, t2 + MIN, t2 + 2 * MIN]);
    assert_eq!(
        s.flagged,
        Some(Flag {
            side: Color::White,
            at_ms: t2 + MIN
        })
    );
    assert_eq!(s.flag_time(), Some(t2 + MIN));
    assert_eq!(s.moves_played, [1, 1]);
    assert_eq!(s.remaining_at(t2 + 5 * MIN), [0, MIN]);
}

/// The seed's classical control: 40 moves in 2 h 30 min, then 16 moves every
/// hour, unused time carried over.
#[test]
fn forty_moves_then_sixteen_every_hour() {
    let l = live("40/9000:16/3600");
    // White plays 40 moves using 2 h in total (first move untimed; 39 timed
    // moves); Black answers each instantly.
    let mut times = vec![0, 0];
    let mut t = 0;
    let white_spent = 2 * HOUR_MS;
    for k in 2..=40 {
        // Spread 2 h over 39 moves exactly.
        let next = white_spent * (k - 1) / 39;
        t = next;
        times.push(t); // White's move k
        if k < 40 {
            times.push(t); // Black's move k (instant)
        }
    }
    // After White's 40th move: 30 min left + 1 h = 1 h 30 min.
    let s = clocks_after(&l, &times);
    assert_eq!(s.moves_played, [40, 39]);
    assert_eq!(s.remaining_ms[0], 90 * MIN);
    assert_eq!(s.stage, [1, 0]);
    assert_eq!(s.moves_to_next_control(&l, Color::White), Some(16));
    assert_eq!(s.moves_to_next_control(&l, Color::Black), Some(1));
    // Black still has all 2 h 30 min, and gets the hour after move 40.
    times.push(t);
    let s = clocks_after(&l, &times);
    assert_eq!(s.remaining_ms, [90 * MIN, 150 * MIN + 60 * MIN]);
    // White spends 1 h 20 min on moves 41–56 and gets another hour at 56.
    for k in 1..=16 {
        t += 5 * MIN;
        times.push(t);
        if k < 16 {
            times.push(t);
        }
    }
    let s = clocks_after(&l, &times);
    assert_eq!(s.moves_played[0], 56);
    assert_eq!(s.remaining_ms[0], 90 * MIN - 80 * MIN + 60 * MIN);
    assert_eq!(s.stage[0], 1, "the last stage repeats");
    assert_eq!(s.moves_to_next_control(&l, Color::White), Some(16));
}

#[test]
fn increments_per_stage() {
    let l = live("2/60+10:30+5");
    // Moves 1 untimed (no increment); move 2 timed in stage 0 (+10 s) and
    // completes it (+30 s); move 3 in stage 1 (+5 s).
    let s = clocks_after(&l, &[0, 0, 20 * SEC, 20 * SEC, 40 * SEC]);
    assert_eq!(
        s.remaining_ms[0],
        60 * SEC - 20 * SEC + 10 * SEC + 30 * SEC - 20 * SEC + 5 * SEC
    );
    assert_eq!(s.moves_to_next_control(&l, Color::White), None);
}

#[test]
fn clock_skew_costs_nothing() {
    let l = live("5+0");
    let s = clocks_after(&l, &[10 * SEC, 20 * SEC, 15 * SEC]);
    assert_eq!(s.remaining_ms, [5 * MIN, 5 * MIN]);
}

#[test]
fn incremental_equals_rebuilt() {
    let l = live("40/9000:16/3600");
    let times: Vec<i64> = (0..120).map(|i| i * 37 * SEC).collect();
    let mut s = ClockState::new(&l);
    for &t in &times {
        s.record_move(&l, t);
    }
    assert_eq!(s, clocks_after(&l, &times));
}

#[test]
fn correspondence_deadlines() {
    assert_eq!(deadline_after(0, 3), 3 * DAY_MS);
    let c = tc("1d").correspondence().unwrap_or_default();
    assert_eq!(c.deadline_after(HOUR_MS), HOUR_MS + DAY_MS);
    assert_eq!(deadline_after(i64::MAX - 5, 14), i64::MAX);
}

#[test]
fn manual_and_system_clocks() {
    let clock = ManualClock::new(0);
    let shared: std::sync::Arc<dyn Clock> = std::sync::Arc::new(clock.clone());
    clock.advance(Duration::from_secs(3 * 86_400));
    assert_eq!(shared.now_ms(), 3 * DAY_MS);
    clock.set(42);
    assert_eq!(shared.now_ms(), 42);
    clock.set(i64::MAX - 1);
    clock.advance(Duration::from_secs(1));
    assert_eq!(shared.now_ms(), i64::MAX);
    // 2020-01-01 < now.
    assert!(SystemClock.now_ms() > 1_577_836_800_000);
}

#[test]
fn durations() {
    let ok = |t: &str| match parse_duration(t) {
        Ok(d) => d.as_secs(),
        Err(e) => panic!("`{t}`: {e}"),
    };
    assert_eq!(ok("3d"), 3 * 86_400);
    assert_eq!(ok("1h30m"), 5_400);
    assert_eq!(ok("90s"), 90);
    assert_eq!(ok("2h"), 7_200);
    assert_eq!(ok("1w"), 7 * 86_400);
    assert_eq!(ok("1d 12h"), 129_600);
    assert_eq!(ok("2H5M"), 7_500);
    assert_eq!(parse_duration(""), Err(DurationError::Empty));
    for bad in ["90", "h", "1x", "1.5h", "-1h", "1h30", "abc"] {
        let e = parse_duration(bad);
        assert!(matches!(e, Err(DurationError::Invalid(_))), "{bad}: {e:?}");
    }
    assert!(matches!(
        parse_duration("999999999999w"),
        Err(DurationError::Overflow(_))
    ));
    assert!(matches!(
        parse_duration(&"1h".repeat(5_000)),
        Err(DurationError::TooLong(_))
    ));
}

#[test]
fn stages_api() {
    let l = match LiveControl::new(vec![Stage {
        moves: Some(40),
        seconds: 9000,
        increment_s: 0,
    }]) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(l.stage(5), &l.stages()[0]);
    assert!(!l.is_fischer());
    assert!(live("10+5").is_fischer());
    assert!(LiveControl::new(vec![]).is_err());
}

proptest! {
    /// Any text: no panic, and anything accepted round-trips.
    #[test]
    fn parse_never_panics(s in ".{0,80}") {
        if let Ok(t) = s.parse::<TimeControl>() {
            prop_assert_eq!(t.to_string().parse::<TimeControl>(), Ok(t));
        }
    }

    /// Forms built from valid parts round-trip.
    #[test]
    fn generated_forms_round_trip(base in 1u32..=180, inc in 0u32..=180, m in 1u32..=200, extra in 0u32..=35_000) {
        // A stage gives at least 5 s per move (issue 16: `40/1` is refused).
        let s = 5 * m + extra;
        let text = format!("{base}+{inc}");
        prop_assert_eq!(tc(&text).to_string(), text);
        let text = format!("{m}/{s}:{s}+{inc}");
        let t = tc(&text);
        prop_assert_eq!(tc(&t.to_string()), t.clone());
        prop_assert_eq!(TimeControl::from_pgn_tag(&t.to_pgn_tag()), Ok(Some(t)));
    }

    /// Remaining time never exceeds what the control has handed out, and a
    /// non-flagged state's flag time is after its last move.
    #[test]
    fn live_clock_invariants(gaps in proptest::collection::vec(0i64..200_000, 0..150)) {
        let l = live("40/9000:16/3600");
        let mut t = 0;
        let times: Vec<i64> = gaps.iter().map(|g| { t += g; t }).collect();
        let s = clocks_after(&l, &times);
        for side in 0..2 {
            prop_assert!(s.remaining_ms[side] >= 0);
        }
        if s.flagged.is_none()
            && let (Some(f), Some(&last)) = (s.flag_time(), times.last()) {
                prop_assert!(f > last);
            }
    }
}

/// Controls no one can play are refused with the limit stated; a stage
/// exactly at the limit, or saved by its increment, is accepted; `unlimited`
/// is a game without a clock (issue 16).
#[test]
fn too_fast_controls_and_unlimited() {
    for text in ["1/1", "40/1", "40/199", "40/100:16/3600"] {
        let e = text.parse::<TimeControl>().unwrap_err().to_string();
        assert!(e.contains("at least 5 seconds per move"), "{text}: {e}");
    }
    for text in ["40/200", "40/100+3:16/3600", "40/9000:16/3600"] {
        assert!(text.parse::<TimeControl>().is_ok(), "{text}");
    }
    for text in ["unlimited", "Unlimited", " none "] {
        let tc: TimeControl = text.parse().unwrap();
        assert_eq!(tc, TimeControl::Unlimited);
        assert_eq!(tc.to_string(), "unlimited");
        assert_eq!(tc.describe(), "no clock");
        assert_eq!(tc.to_pgn_tag(), "-");
        assert!(tc.live().is_none() && tc.correspondence().is_none());
    }
}
