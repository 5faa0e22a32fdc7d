//! Unix times as UTC calendar dates, for the few places that print one
//! (audit log lines, backup file names) without a date-time dependency.

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 → (year,
/// month 1–12, day 1–31), proleptic Gregorian.
pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The UTC date and time of a unix time in seconds:
/// `(year, month, day, hour, minute, second)`.
pub fn utc_parts(unix_secs: i64) -> (i64, i64, i64, i64, i64, i64) {
    let (y, m, d) = civil_from_days(unix_secs.div_euclid(86_400));
    let s = unix_secs.rem_euclid(86_400);
    (y, m, d, s / 3600, s / 60 % 60, s % 60)
}

/// `2026-12-01 15:30 UTC` for a unix time in milliseconds.
pub fn utc_minute(unix_ms: i64) -> String {
    let (y, m, d, h, min, _) = utc_parts(unix_ms.div_euclid(1000));
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(utc_minute(1_796_139_000_000), "2026-12-01 15:30 UTC");
        assert_eq!(utc_parts(1_796_139_059), (2026, 12, 1, 15, 30, 59));
    }
}
