//! [`Points`]: club points in exact integer hundredths.

use std::{
    fmt,
    iter::Sum,
    ops::{Add, AddAssign, Neg, Sub, SubAssign},
    str::FromStr,
};

/// Club points, stored exactly as an integer number of hundredths of a point.
///
/// Parsed from text with at most two decimals (`"150"`, `"107.5"`, `"-3.25"`)
/// and displayed with up to two decimals, trailing zeros dropped.
///
/// ```
/// use chessbot::rating::Points;
/// let p: Points = "107.50".parse()?;
/// assert_eq!(p.hundredths(), 10750);
/// assert_eq!(p.to_string(), "107.5");
/// assert_eq!(Points::from_hundredths(208).to_string(), "2.08");
/// assert_eq!(Points::from_whole(-10).to_string(), "-10");
/// # Ok::<(), chessbot::rating::ParsePointsError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Points(i64);

impl Points {
    /// Zero points: where every player starts.
    pub const ZERO: Points = Points(0);

    /// The largest magnitude accepted when parsing text: one billion points.
    /// Far beyond any real ladder, small enough that no sum can overflow.
    pub const PARSE_LIMIT: Points = Points(100_000_000_000);

    /// Points from a number of hundredths (`10750` is 107.5 points).
    pub const fn from_hundredths(hundredths: i64) -> Self {
        Points(hundredths)
    }

    /// Points from a whole number of points.
    pub const fn from_whole(points: i64) -> Self {
        Points(points * 100)
    }

    /// The exact value in hundredths of a point.
    pub const fn hundredths(self) -> i64 {
        self.0
    }

    /// The absolute value.
    pub const fn abs(self) -> Self {
        Points(self.0.abs())
    }

    /// The level these points give; see [`Level`](super::Level).
    pub fn level(self) -> super::Level {
        super::Level::from_points(self)
    }

    /// The value with an explicit sign, for showing a change: `+6`, `-7.5`, `0`.
    ///
    /// ```
    /// use chessbot::rating::Points;
    /// assert_eq!(Points::from_whole(6).signed().to_string(), "+6");
    /// assert_eq!(Points::from_hundredths(-750).signed().to_string(), "-7.5");
    /// assert_eq!(Points::ZERO.signed().to_string(), "0");
    /// ```
    pub const fn signed(self) -> Signed {
        Signed(self)
    }
}

/// A [`Points`] value displayed with an explicit `+` when positive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signed(pub Points);

impl fmt::Display for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 .0 > 0 {
            f.write_str("+")?;
        }
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let (whole, frac) = (abs / 100, abs % 100);
        let text = match frac {
            0 => format!("{sign}{whole}"),
            f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
            f => format!("{sign}{whole}.{f:02}"),
        };
        f.pad(&text)
    }
}

/// Why a text is not a number of points.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePointsError {
    /// Nothing was given.
    #[error("no points given: expected a number such as 150 or 107.5")]
    Empty,
    /// Not a decimal number.
    #[error("`{0}` is not a number of points: expected a number such as 150, 107.5 or -3.25")]
    Invalid(String),
    /// More than two decimals: points are exact to 1/100.
    #[error("`{0}` has more than two decimals: points are exact to 0.01")]
    TooManyDecimals(String),
    /// Beyond [`Points::PARSE_LIMIT`].
    #[error("`{0}` is out of range: points must be between -1000000000 and 1000000000")]
    OutOfRange(String),
}

/// Shortens user text for an error message, so 10 KB of input does not come
/// back as a 10 KB message.
pub(crate) fn excerpt(s: &str) -> String {
    const MAX: usize = 24;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}…")
    }
}

impl FromStr for Points {
    type Err = ParsePointsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.is_empty() {
            return Err(ParsePointsError::Empty);
        }
        let invalid = || ParsePointsError::Invalid(excerpt(t));
        // Accept ASCII signs and the typographic minus (U+2212) of SPEC tables.
        let (negative, body) = if let Some(rest) = t.strip_prefix('-') {
            (true, rest)
        } else if let Some(rest) = t.strip_prefix('\u{2212}') {
            (true, rest)
        } else if let Some(rest) = t.strip_prefix('+') {
            (false, rest)
        } else {
            (false, t)
        };
        let (whole, frac) = match body.split_once('.') {
            Some((w, f)) => (w, f),
            None => (body, ""),
        };
        let all_digits = |x: &str| x.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !all_digits(whole) || !all_digits(frac) {
            return Err(invalid());
        }
        if body.contains('.') && frac.is_empty() {
            return Err(invalid());
        }
        if frac.len() > 2 {
            return Err(ParsePointsError::TooManyDecimals(excerpt(t)));
        }
        let out_of_range = || ParsePointsError::OutOfRange(excerpt(t));
        let whole = whole.trim_start_matches('0');
        if whole.len() > 12 {
            return Err(out_of_range());
        }
        let whole: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| invalid())?
        };
        let frac_hundredths: i64 = match frac.len() {
            0 => 0,
            1 => i64::from(frac.as_bytes()[0] - b'0') * 10,
            _ => frac.parse().map_err(|_| invalid())?,
        };
        let magnitude = whole * 100 + frac_hundredths;
        if magnitude > Self::PARSE_LIMIT.0 {
            return Err(out_of_range());
        }
        Ok(Points(if negative { -magnitude } else { magnitude }))
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points(self.0 + rhs.0)
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, rhs: Points) -> Points {
        Points(self.0 - rhs.0)
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points(-self.0)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.0 += rhs.0;
    }
}

impl SubAssign for Points {
    fn sub_assign(&mut self, rhs: Points) {
        self.0 -= rhs.0;
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}
