//! Adjourned games (封棋, seed 001): the clocks stand still between the
//! sealing of a move and the game's resumption; a session of play ends
//! after so many hours, and the game is adjourned there if both sides have
//! made the moves their control requires; resumption times are read in a
//! server's time zone.
//!
//! # Decisions
//!
//! - **No clock runs while a game is adjourned** (FIDE's rule for adjourned
//!   games): the sealer's clock runs until the move is sealed, and at
//!   resumption the sealed move counts as made at the sealing time while
//!   the opponent's clock starts at the resumption. [`clocks_paused`]
//!   rebuilds the clocks from the stored moves (the sealed move is stored
//!   at its resumption time) and the [`Pause`]s, so nothing but those two
//!   times is stored.
//! - **"The moves the control requires"**: a side has made them when it
//!   has just completed a time control (its move count in the current stage
//!   is zero after at least one move), or when it plays in a sudden-death
//!   stage, which requires no more moves. Games are thus adjourned right
//!   after a control (move 40, 56, 72 … in `40/9000:16/3600`), as was the
//!   practice.

use super::{clocks_after, ClockState, LiveControl};

/// A time during which no clock ran: from the sealing of a move until the
/// game resumed (`None`: not yet resumed, the clocks stand still).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pause {
    pub from_ms: i64,
    pub to_ms: Option<i64>,
}

/// Time stopped by closed `pauses` at or before `at_ms`.
fn paused_before(pauses: &[Pause], at_ms: i64) -> i64 {
    pauses
        .iter()
        .filter_map(|p| p.to_ms.map(|to| (p.from_ms, to)))
        .map(|(from, to)| (to.min(at_ms) - from).max(0))
        .sum()
}

/// The clocks after the moves made at `move_times_ms` (wall times), with no
/// clock running during `pauses`. The result is in wall time, as
/// [`clocks_after`]'s is: [`ClockState::flag_time`] and
/// [`ClockState::remaining_at`] take and give wall times. While a pause is
/// open the clocks stand: nothing runs and nobody flags.
///
/// ```
/// use chessbot::clock::{clocks_paused, Pause, TimeControl};
/// let tc: TimeControl = "40/9000:16/3600".parse()?;
/// let live = tc.live().expect("live");
/// // Both first moves, White thinks 60 s and seals at 61 s; the game
/// // resumes a day later and the sealed move is stored then.
/// let day = 86_400_000;
/// let pause = Pause { from_ms: 61_000, to_ms: Some(61_000 + day) };
/// let state = clocks_paused(live, &[0, 1_000, 61_000 + day], &[pause]);
/// assert_eq!(state.remaining_ms[0], 9_000_000 - 60_000);
/// // Black's clock starts at the resumption.
/// assert_eq!(state.running_since_ms, Some(61_000 + day));
/// # Ok::<(), chessbot::clock::TimeControlError>(())
/// ```
pub fn clocks_paused(control: &LiveControl, move_times_ms: &[i64], pauses: &[Pause]) -> ClockState {
    if pauses.is_empty() {
        return clocks_after(control, move_times_ms);
    }
    let clock_times: Vec<i64> = move_times_ms
        .iter()
        .map(|&t| t - paused_before(pauses, t))
        .collect();
    let mut state = clocks_after(control, &clock_times);
    let total = paused_before(pauses, i64::MAX);
    if let Some(flag) = state.flagged.as_mut() {
        flag.at_ms += total;
    }
    let open = pauses.iter().find(|p| p.to_ms.is_none());
    match (open, state.running_since_ms) {
        (Some(open), Some(since)) => {
            // Stopped at the sealing: what ran until then is spent.
            let stopped_at = open.from_ms - total;
            let i = crate::chess::color_index(state.side_to_move);
            state.remaining_ms[i] -= (stopped_at - since).max(0);
            state.running_since_ms = None;
        }
        (None, Some(since)) => state.running_since_ms = Some(since + total),
        (_, None) => {}
    }
    state
}

/// Whether both sides have made the moves their control requires (see the
/// module's decisions): the condition for adjourning at a session's end.
pub fn controls_met(control: &LiveControl, state: &ClockState) -> bool {
    (0..2).all(|i| match control.stage(state.stage[i]).moves {
        None => true,
        Some(_) => state.moves_in_stage[i] == 0 && state.moves_played[i] > 0,
    })
}

/// Why a resumption time or time zone could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhenError {
    /// Not `YYYY-MM-DD HH:MM`.
    Unreadable(String),
    /// A month, day, hour or minute out of range.
    NoSuchTime(String),
    /// Not a UTC offset such as `+08:00` or `UTC-5`.
    BadOffset(String),
}

/// Reads `YYYY-MM-DD HH:MM` (or with a `T`) as a local time `offset_minutes`
/// east of UTC; unix milliseconds.
///
/// ```
/// use chessbot::clock::parse_local_time;
/// // 19:30 in Beijing (UTC+8) is 11:30 UTC.
/// assert_eq!(parse_local_time("2026-12-05 19:30", 480), Ok(1_796_470_200_000));
/// assert!(parse_local_time("tomorrow", 0).is_err());
/// ```
pub fn parse_local_time(text: &str, offset_minutes: i64) -> Result<i64, WhenError> {
    let t = text.trim();
    let unreadable = || WhenError::Unreadable(t.to_owned());
    let (date, time) = t.split_once([' ', 'T']).ok_or_else(unreadable)?;
    let numbers = |s: &str, sep: char, n: usize| -> Option<Vec<i64>> {
        let parts: Vec<&str> = s.trim().split(sep).collect();
        (parts.len() == n
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit())))
        .then(|| parts.iter().filter_map(|p| p.parse().ok()).collect())
    };
    let d = numbers(date, '-', 3).ok_or_else(unreadable)?;
    let h = numbers(time, ':', 2).ok_or_else(unreadable)?;
    let (y, m, day, hour, minute) = (d[0], d[1], d[2], h[0], h[1]);
    let days = days_from_civil(y, m, day);
    if !(1..=12).contains(&m)
        || !(1..=31).contains(&day)
        || super::civil_from_days(days) != (y, m, day)
        || !(0..24).contains(&hour)
        || !(0..60).contains(&minute)
    {
        return Err(WhenError::NoSuchTime(t.to_owned()));
    }
    Ok(((days * 24 + hour) * 60 + minute - offset_minutes) * 60_000)
}

/// `2026-12-05 19:30 UTC+8`: `at_ms` in the time zone `offset_minutes` east
/// of UTC.
pub fn local_minute(at_ms: i64, offset_minutes: i64) -> String {
    let (y, m, d, h, min, _) = super::utc_parts((at_ms + offset_minutes * 60_000).div_euclid(1000));
    format!(
        "{y:04}-{m:02}-{d:02} {h:02}:{min:02} {}",
        offset_text(offset_minutes)
    )
}

/// `2026-12-05 19:30`: `at_ms` as [`parse_local_time`] reads it in the
/// time zone `offset_minutes` east of UTC.
pub fn local_time_input(at_ms: i64, offset_minutes: i64) -> String {
    let (y, m, d, h, min, _) = super::utc_parts((at_ms + offset_minutes * 60_000).div_euclid(1000));
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02}")
}

/// `UTC`, `UTC+8`, `UTC-5:30`.
pub fn offset_text(offset_minutes: i64) -> String {
    let sign = if offset_minutes < 0 { '-' } else { '+' };
    let (h, m) = (offset_minutes.abs() / 60, offset_minutes.abs() % 60);
    match (h, m) {
        (0, 0) => "UTC".to_owned(),
        (h, 0) => format!("UTC{sign}{h}"),
        (h, m) => format!("UTC{sign}{h}:{m:02}"),
    }
}

/// Reads a UTC offset (`UTC`, `+8`, `UTC+08:00`, `-5:30`) as minutes east
/// of UTC, within -12:00..=+14:00.
pub fn parse_utc_offset(text: &str) -> Result<i64, WhenError> {
    let t = text.trim();
    let bad = || WhenError::BadOffset(t.to_owned());
    let rest = t
        .strip_prefix("UTC")
        .or_else(|| t.strip_prefix("utc"))
        .or_else(|| t.strip_prefix("GMT"))
        .unwrap_or(t);
    if rest.is_empty() {
        return Ok(0);
    }
    let (sign, rest) = match rest.as_bytes()[0] {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return Err(bad()),
    };
    let (h, m) = rest.split_once(':').unwrap_or((rest, "0"));
    let digits = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) || !digits(m) {
        return Err(bad());
    }
    let (h, m): (i64, i64) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    let minutes = sign * (h * 60 + m);
    if m >= 60 || !(-12 * 60..=14 * 60).contains(&minutes) {
        return Err(bad());
    }
    Ok(minutes)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`, the inverse of [`super::civil_from_days`]).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;

    fn classical() -> LiveControl {
        match "40/9000:16/3600".parse::<TimeControl>() {
            Ok(TimeControl::Live(live)) => live,
            other => panic!("not live: {other:?}"),
        }
    }

    #[test]
    fn no_pause_is_the_plain_clock() {
        let live = classical();
        let times = [0, 1_000, 11_000, 31_000];
        assert_eq!(
            clocks_paused(&live, &times, &[]),
            clocks_after(&live, &times)
        );
    }

    #[test]
    fn the_sealer_spends_until_the_seal_and_nobody_after() {
        let live = classical();
        // White's and Black's untimed first moves; White thinks 100 s and
        // seals; the game stays adjourned.
        let sealing = Pause {
            from_ms: 101_000,
            to_ms: None,
        };
        let state = clocks_paused(&live, &[0, 1_000], &[sealing]);
        assert_eq!(state.running_since_ms, None, "clocks stand");
        assert_eq!(state.flag_time(), None, "nobody flags while adjourned");
        assert_eq!(state.remaining_ms, [9_000_000 - 100_000, 9_000_000]);
        assert_eq!(state.remaining_at(1_000_000_000), state.remaining_ms);
        // Resumed a day later: the sealed move counts at the seal, Black's
        // clock starts at the resumption.
        let resumed = 101_000 + 86_400_000;
        let closed = Pause {
            to_ms: Some(resumed),
            ..sealing
        };
        let state = clocks_paused(&live, &[0, 1_000, resumed], &[closed]);
        assert_eq!(state.remaining_ms, [9_000_000 - 100_000, 9_000_000]);
        assert_eq!(state.running_since_ms, Some(resumed));
        assert_eq!(state.flag_time(), Some(resumed + 9_000_000));
        // Black answers 30 s later: 30 s spent, not the day.
        let state = clocks_paused(&live, &[0, 1_000, resumed, resumed + 30_000], &[closed]);
        assert_eq!(state.remaining_ms[1], 9_000_000 - 30_000);
        assert_eq!(state.running_since_ms, Some(resumed + 30_000));
    }

    #[test]
    fn a_flag_before_the_seal_is_not_undone() {
        let live = classical();
        let late = Pause {
            from_ms: 1_000 + 9_000_001,
            to_ms: None,
        };
        let state = clocks_paused(&live, &[0, 1_000], &[late]);
        // Sealed after the flag time: the clock ran out before.
        assert!(state.remaining_ms[0] < 0);
    }

    #[test]
    fn controls_are_met_right_after_a_control() {
        let live = classical();
        let times = |n: usize| vec![0; n];
        // Nothing played yet: nothing met.
        assert!(!controls_met(&live, &clocks_after(&live, &[])));
        // 40 moves each: both just completed the first control.
        assert!(controls_met(&live, &clocks_after(&live, &times(80))));
        // White 41, Black 40: White is in the middle of a control.
        assert!(!controls_met(&live, &clocks_after(&live, &times(81))));
        // White 40, Black 39.
        assert!(!controls_met(&live, &clocks_after(&live, &times(79))));
        // 56 each: the second control.
        assert!(controls_met(&live, &clocks_after(&live, &times(112))));
        // A sudden-death control requires no moves.
        let blitz = "10+5".parse::<TimeControl>().expect("control");
        let blitz = blitz.live().expect("live");
        assert!(controls_met(blitz, &clocks_after(blitz, &times(3))));
        // Sudden death after a first control: met once past move 40.
        let two = "40/7200:3600".parse::<TimeControl>().expect("control");
        let two = two.live().expect("live");
        assert!(!controls_met(two, &clocks_after(two, &times(78))));
        assert!(controls_met(two, &clocks_after(two, &times(83))));
    }

    #[test]
    fn local_times_read_and_print() {
        assert_eq!(parse_local_time("1970-01-01 00:00", 0), Ok(0));
        assert_eq!(parse_local_time("1970-01-01T08:00", 480), Ok(0));
        assert_eq!(
            parse_local_time("2026-12-01 15:30", 0),
            Ok(1_796_139_000_000)
        );
        assert_eq!(local_minute(1_796_139_000_000, 0), "2026-12-01 15:30 UTC");
        assert_eq!(local_time_input(1_796_139_000_000, 480), "2026-12-01 23:30");
        assert_eq!(
            parse_local_time(&local_time_input(1_796_139_000_000, 480), 480),
            Ok(1_796_139_000_000)
        );
        assert_eq!(
            local_minute(1_796_139_000_000, 480),
            "2026-12-01 23:30 UTC+8"
        );
        assert_eq!(
            local_minute(1_796_139_000_000, -330),
            "2026-12-01 10:00 UTC-5:30"
        );
        for bad in [
            "",
            "tomorrow",
            "2026-12-01",
            "2026-12-01 25:00",
            "2026-02-30 10:00",
            "2026-13-01 10:00",
            "2026-12-01 10:60",
            "2026/12/01 10:00",
            "-1-12-01 10:00",
        ] {
            assert!(parse_local_time(bad, 0).is_err(), "{bad:?} read");
        }
        assert!(matches!(
            parse_local_time("2026-02-29 10:00", 0),
            Err(WhenError::NoSuchTime(_))
        ));
        assert!(parse_local_time("2028-02-29 10:00", 0).is_ok());
    }

    #[test]
    fn utc_offsets_read() {
        assert_eq!(parse_utc_offset("UTC"), Ok(0));
        assert_eq!(parse_utc_offset("+8"), Ok(480));
        assert_eq!(parse_utc_offset("UTC+08:00"), Ok(480));
        assert_eq!(parse_utc_offset("-5:30"), Ok(-330));
        assert_eq!(parse_utc_offset("utc-12"), Ok(-720));
        for bad in ["8", "+15", "-13", "+8:60", "UTC+x", "+123", "Asia/Shanghai"] {
            assert!(parse_utc_offset(bad).is_err(), "{bad:?} read");
        }
        for minutes in [0, 480, -330, 840, -720, 345] {
            let text = offset_text(minutes);
            assert_eq!(parse_utc_offset(&text), Ok(minutes), "{text}");
        }
    }
}
