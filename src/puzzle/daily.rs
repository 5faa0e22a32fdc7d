//! The daily puzzle's calendar, as pure functions: which local day it is
//! in a server's time zone, when that day's puzzle is due, which day (if
//! any) should be posted now, and a player's streak of solved days.
//!
//! # Decisions
//!
//! - **Days are local**: day `n` is the `n`th day since 1970-01-01 in the
//!   server's time zone (`/settings time_zone`, minutes east of UTC), as
//!   every other time a server's moderators give. Its puzzle is due at
//!   `puzzle_time` o'clock that day.
//! - **Nothing is kept in memory**: whether a day is to be posted follows
//!   from the clock and the last day posted (a stored row), so a restart
//!   posts a due day late rather than never, and the store's primary key on
//!   (server, day) makes it happen once. A bot that was down for whole days
//!   posts only the latest due day: a daily puzzle is for today.
//! - **The first day**: a server that has never had one gets its first
//!   daily puzzle as soon as today's hour has come (at once if it has
//!   passed when the channel is set), never one dated yesterday.
//! - **Streaks count posted days**: a streak is the run of consecutive
//!   daily puzzles a player solved, newest first. A day without a puzzle
//!   (the bot down, the pool empty) neither counts nor breaks it.

use std::collections::BTreeSet;

/// Milliseconds in a day and an hour.
pub const DAY_MS: i64 = 86_400_000;
const HOUR_MS: i64 = 3_600_000;

/// Reads a puzzle hour: `9`, `09`, `9:00`, `21:00` (whole hours, 0–23).
/// `None`: anything else (`25`, `9:30`, `nine`).
///
/// ```
/// use chessbot::puzzle::daily::parse_hour;
/// assert_eq!(parse_hour("07:00"), Some(7));
/// assert_eq!(parse_hour("9:30"), None);
/// ```
pub fn parse_hour(text: &str) -> Option<i64> {
    let t = text.trim();
    let (hour, minutes) = t.split_once(':').unwrap_or((t, "00"));
    let digits =
        |s: &str, n: usize| !s.is_empty() && s.len() <= n && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(hour, 2) || minutes != "00" && minutes != "0" {
        return None;
    }
    let hour: i64 = hour.parse().ok()?;
    (0..24).contains(&hour).then_some(hour)
}

/// The local day of `at_ms` in a time zone `offset_minutes` east of UTC.
pub fn local_day(at_ms: i64, offset_minutes: i64) -> i64 {
    (at_ms + offset_minutes * 60_000).div_euclid(DAY_MS)
}

/// When day `day`'s puzzle is due: `hour` o'clock local time.
pub fn post_ms(day: i64, hour: i64, offset_minutes: i64) -> i64 {
    day * DAY_MS + hour * HOUR_MS - offset_minutes * 60_000
}

/// The latest day whose puzzle was due by `now_ms`.
pub fn due_day(now_ms: i64, hour: i64, offset_minutes: i64) -> i64 {
    let today = local_day(now_ms, offset_minutes);
    if post_ms(today, hour, offset_minutes) <= now_ms {
        today
    } else {
        today - 1
    }
}

/// The day to post now, if any, given the last day posted (see the
/// module's decisions).
pub fn to_post(latest: Option<i64>, now_ms: i64, hour: i64, offset_minutes: i64) -> Option<i64> {
    let due = due_day(now_ms, hour, offset_minutes);
    match latest {
        Some(posted) if posted >= due => None,
        None if due < local_day(now_ms, offset_minutes) => None,
        _ => Some(due),
    }
}

/// When the next post falls: now or earlier if a day is to be posted (see
/// [`to_post`]), else the next day's hour.
pub fn next_post_ms(latest: Option<i64>, now_ms: i64, hour: i64, offset_minutes: i64) -> i64 {
    if let Some(day) = to_post(latest, now_ms, hour, offset_minutes) {
        return post_ms(day, hour, offset_minutes);
    }
    let due = due_day(now_ms, hour, offset_minutes);
    let next = match latest {
        Some(posted) => posted.max(due) + 1,
        None => local_day(now_ms, offset_minutes),
    };
    post_ms(next, hour, offset_minutes)
}

/// The streak through day `through`: how many of the `posted` days (any
/// order) up to `through`, newest first, were all `solved`.
///
/// ```
/// use std::collections::BTreeSet;
/// use chessbot::puzzle::daily::streak;
/// let solved: BTreeSet<i64> = [3, 4, 6].into();
/// // Day 5 had no puzzle: it neither counts nor breaks the run.
/// assert_eq!(streak(&[2, 3, 4, 6], &solved, 6), 3);
/// assert_eq!(streak(&[2, 3, 4, 6], &solved, 2), 0);
/// ```
pub fn streak(posted: &[i64], solved: &BTreeSet<i64>, through: i64) -> u32 {
    let mut days: Vec<i64> = posted.iter().copied().filter(|d| *d <= through).collect();
    days.sort_unstable_by(|a, b| b.cmp(a));
    days.dedup();
    days.iter().take_while(|d| solved.contains(d)).count() as u32
}

/// `2026-01-02`: a local day as a date.
pub fn day_text(day: i64) -> String {
    let (y, m, d) = crate::clock::civil_from_days(day);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-01-01 12:00 UTC, the console's start.
    const NOON: i64 = 1_767_268_800_000;

    #[test]
    fn hours_read_whole_hours_only() {
        for (text, hour) in [("0", 0), ("9", 9), ("09", 9), ("9:00", 9), (" 23:00 ", 23)] {
            assert_eq!(parse_hour(text), Some(hour), "{text}");
        }
        for bad in [
            "24", "-1", "9:30", "nine", "", ":00", "123", "9:", "9h", "1e1",
        ] {
            assert_eq!(parse_hour(bad), None, "{bad}");
        }
    }

    #[test]
    fn days_are_local() {
        let day = local_day(NOON, 0);
        assert_eq!(day_text(day), "2026-01-01");
        // Noon UTC is 20:00 in Beijing, the same day; midnight UTC is
        // 08:00 of the next day there, and 23:00 UTC the day before is
        // still that day in New York (18:00).
        assert_eq!(local_day(NOON, 480), day);
        assert_eq!(local_day(NOON + 12 * HOUR_MS, 480), day + 1);
        assert_eq!(local_day(NOON - 13 * HOUR_MS, -300), day - 1);
        // 09:00 in Beijing is 01:00 UTC.
        assert_eq!(post_ms(day, 9, 480), NOON - 11 * HOUR_MS);
    }

    #[test]
    fn the_due_day_turns_at_the_hour() {
        let today = local_day(NOON, 0);
        assert_eq!(due_day(NOON, 12, 0), today);
        assert_eq!(due_day(NOON - 1, 12, 0), today - 1);
        assert_eq!(due_day(NOON, 13, 0), today - 1);
    }

    #[test]
    fn a_day_is_posted_once_and_the_first_never_dated_yesterday() {
        let today = local_day(NOON, 0);
        // First time, the hour passed: today at once.
        assert_eq!(to_post(None, NOON, 9, 0), Some(today));
        assert_eq!(next_post_ms(None, NOON, 9, 0), post_ms(today, 9, 0));
        // First time, the hour to come: nothing until then.
        assert_eq!(to_post(None, NOON, 13, 0), None);
        assert_eq!(next_post_ms(None, NOON, 13, 0), post_ms(today, 13, 0));
        // Posted today: nothing until tomorrow's hour.
        assert_eq!(to_post(Some(today), NOON, 9, 0), None);
        assert_eq!(
            next_post_ms(Some(today), NOON, 9, 0),
            post_ms(today + 1, 9, 0)
        );
        // Down for three days: only the latest due day.
        assert_eq!(to_post(Some(today - 3), NOON, 9, 0), Some(today));
        // A time zone moved west after today's post: the posted day is
        // ahead of the due one, and the next is the day after it.
        assert_eq!(to_post(Some(today), NOON, 9, -720), None);
        assert_eq!(
            next_post_ms(Some(today), NOON, 9, -720),
            post_ms(today + 1, 9, -720)
        );
    }

    #[test]
    fn streaks_run_back_from_the_day() {
        let solved: BTreeSet<i64> = [10, 11, 13].into();
        assert_eq!(streak(&[10, 11, 12, 13], &solved, 13), 1);
        assert_eq!(streak(&[10, 11, 12, 13], &solved, 11), 2);
        assert_eq!(streak(&[13, 11, 10], &solved, 13), 3);
        assert_eq!(streak(&[], &solved, 13), 0);
    }
}
