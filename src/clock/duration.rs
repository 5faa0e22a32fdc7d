//! Durations as people type them (`1h30m`) and as clocks show them.

use std::time::Duration;

use crate::{i18n::Lang, t};

/// Why a text is not a duration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Nothing was given.
    #[error("no duration given: use e.g. 3d, 1h30m, 90s or 2h")]
    Empty,
    /// Far longer than any duration.
    #[error("that duration is too long to read ({0} characters): use e.g. 3d, 1h30m, 90s or 2h")]
    TooLong(usize),
    /// Not of the form number + unit, repeated.
    #[error("`{0}` is not a duration: use a number and a unit (w, d, h, m, s), e.g. 3d, 1h30m, 90s or 2h")]
    Invalid(String),
    /// More than a century.
    #[error("`{0}` is too long a duration")]
    Overflow(String),
}

/// Reads a duration such as `3d`, `1h30m`, `90s`, `2h`, `1w`, `1d 12h`.
///
/// Units: `w` weeks, `d` days, `h` hours, `m` minutes, `s` seconds; parts
/// add up, case and spaces between parts do not matter.
///
/// ```
/// use std::time::Duration;
/// use chessbot::clock::parse_duration;
/// assert_eq!(parse_duration("1h30m")?, Duration::from_secs(5400));
/// assert_eq!(parse_duration("3d")?, Duration::from_secs(3 * 86_400));
/// assert!(parse_duration("90").is_err());
/// # Ok::<(), chessbot::clock::DurationError>(())
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    const MAX_SECS: u64 = 100 * 366 * 86_400;
    let t = text.trim();
    if t.is_empty() {
        return Err(DurationError::Empty);
    }
    if t.len() > 64 {
        return Err(DurationError::TooLong(t.chars().count()));
    }
    let invalid = || DurationError::Invalid(t.to_string());
    let mut total: u64 = 0;
    let mut chars = t.chars().filter(|c| !c.is_whitespace()).peekable();
    while chars.peek().is_some() {
        let mut digits = String::new();
        while let Some(c) = chars.peek().copied().filter(char::is_ascii_digit) {
            digits.push(c);
            chars.next();
        }
        let unit = chars.next().ok_or_else(invalid)?;
        if digits.is_empty() || digits.len() > 12 {
            return Err(invalid());
        }
        let n: u64 = digits.parse().map_err(|_| invalid())?;
        let secs = match unit.to_ascii_lowercase() {
            'w' => 7 * 86_400,
            'd' => 86_400,
            'h' => 3_600,
            'm' => 60,
            's' => 1,
            _ => return Err(invalid()),
        };
        total = n
            .checked_mul(secs)
            .and_then(|x| total.checked_add(x))
            .filter(|&x| x <= MAX_SECS)
            .ok_or_else(|| DurationError::Overflow(t.to_string()))?;
    }
    Ok(Duration::from_secs(total))
}

/// A number of seconds in words: `2 h 30 min`, `1 h`, `1 min 30 s`, `45 s`.
///
/// ```
/// use chessbot::clock::human_seconds;
/// assert_eq!(human_seconds(9000), "2 h 30 min");
/// assert_eq!(human_seconds(90), "1 min 30 s");
/// assert_eq!(human_seconds(0), "0 s");
/// ```
pub fn human_seconds(secs: u64) -> String {
    human_seconds_in(Lang::En, secs)
}

/// [`human_seconds`] in `lang` (`2 h 30 min`, `2小时30分钟`).
pub fn human_seconds_in(lang: Lang, secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(t!(lang, "unit-hours-short", count = h));
    }
    if m > 0 {
        parts.push(t!(lang, "unit-minutes-short", count = m));
    }
    if s > 0 || parts.is_empty() {
        parts.push(t!(lang, "unit-seconds-short", count = s));
    }
    parts.join(&t!(lang, "unit-separator"))
}

/// Time left until a deadline, to the minute, as the bot words it; under
/// a minute, to the second (a live clock's last seconds must not read "0
/// min"); negative counts as none.
///
/// ```
/// use chessbot::clock::human_left;
/// assert_eq!(human_left(((2 * 24 + 23) * 60 + 5) * 60_000), "2 d 23 h");
/// assert_eq!(human_left((5 * 60 + 10) * 60_000), "5 h 10 min");
/// assert_eq!(human_left(59 * 60_000 + 59_999), "59 min");
/// assert_eq!(human_left(10_400), "10 s");
/// assert_eq!(human_left(-1), "0 s");
/// ```
pub fn human_left(ms: i64) -> String {
    human_left_in(Lang::En, ms)
}

/// [`human_left`] in `lang` (`2 d 23 h`, `2天23小时`).
pub fn human_left_in(lang: Lang, ms: i64) -> String {
    if ms < 60_000 {
        return t!(lang, "unit-seconds-short", count = ms.max(0) / 1000);
    }
    let minutes = ms.max(0) / 60_000;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    let sep = t!(lang, "unit-separator");
    let (hours, mins) = (
        t!(lang, "unit-hours-short", count = h),
        t!(lang, "unit-minutes-short", count = m),
    );
    match (d, h) {
        (0, 0) => mins,
        (0, _) => format!("{hours}{sep}{mins}"),
        _ => format!("{}{sep}{hours}", t!(lang, "unit-days-short", count = d)),
    }
}

/// Remaining time as the PGN `[%clk H:MM:SS]` comment writes it (whole
/// seconds, rounded down; negative shown as 0).
///
/// ```
/// use chessbot::clock::format_clk;
/// assert_eq!(format_clk(5_400_000), "1:30:00");
/// assert_eq!(format_clk(59_999), "0:00:59");
/// ```
pub fn format_clk(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A live clock as players read it (lichess's style): `1:00`, `12:34`,
/// `1:05:03` from an hour up, and tenths under ten seconds (`0:09.5`);
/// rounded down, negative shown as `0:00.0`.
///
/// ```
/// use chessbot::clock::format_clock;
/// assert_eq!(format_clock(60_000), "1:00");
/// assert_eq!(format_clock(754_999), "12:34");
/// assert_eq!(format_clock(3_903_000), "1:05:03");
/// assert_eq!(format_clock(9_550), "0:09.5");
/// assert_eq!(format_clock(10_000), "0:10");
/// assert_eq!(format_clock(-5), "0:00.0");
/// ```
pub fn format_clock(ms: i64) -> String {
    let ms = ms.max(0);
    let s = ms / 1000;
    if ms < 10_000 {
        return format!("0:{:02}.{}", s, ms % 1000 / 100);
    }
    if s >= 3600 {
        return format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    }
    format!("{}:{:02}", s / 60, s % 60)
}
