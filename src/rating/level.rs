//! [`Level`]: 无级别 (Unranked) below 100 points, then 30级 … 1级.

use std::fmt;

use super::Points;

/// A player's level, from the points (SPEC §3).
///
/// | points | level |
/// |---|---|
/// | < 100 (including negative) | [`Level::Unranked`] 无级别 |
/// | 100 – 199.99 | `Ranked(30)` 30级 |
/// | … | … |
/// | 2900 – 2999.99 | `Ranked(2)` 2级 |
/// | ≥ 3000 | `Ranked(1)` 1级 |
///
/// Level 1 is the highest. Ordering follows strength: `Unranked` is the
/// lowest, `Ranked(1)` the highest.
///
/// ```
/// use chessbot::rating::{Level, Points};
/// let level = Level::from_points("199.99".parse()?);
/// assert_eq!(level, Level::Ranked(30));
/// assert_eq!(level.name_en(), "Level 30");
/// assert_eq!(level.name_zh(), "30级");
/// assert_eq!(Level::from_points(Points::from_whole(-5)).name_zh(), "无级别");
/// # Ok::<(), chessbot::rating::ParsePointsError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// 无级别: below 100 points.
    Unranked,
    /// N级, N in 1..=30 (1 is the highest).
    Ranked(u8),
}

impl Level {
    /// The lowest ranked level number (30级).
    pub const LOWEST: u8 = 30;

    /// The level for a number of points.
    pub fn from_points(points: Points) -> Level {
        let whole = points.hundredths().div_euclid(100);
        if whole < 100 {
            Level::Unranked
        } else {
            // 100..199 → 30, 200..299 → 29, …, 2900..2999 → 2, ≥ 3000 → 1.
            let steps = (whole / 100).min(30);
            Level::Ranked((31 - steps) as u8)
        }
    }

    /// The level number (30 … 1), or `None` for Unranked.
    pub const fn number(self) -> Option<u8> {
        match self {
            Level::Unranked => None,
            Level::Ranked(n) => Some(n),
        }
    }

    /// The fewest points that give this level.
    ///
    /// ```
    /// use chessbot::rating::{Level, Points};
    /// assert_eq!(Level::Ranked(1).min_points(), Some(Points::from_whole(3000)));
    /// assert_eq!(Level::Unranked.min_points(), None);
    /// ```
    pub fn min_points(self) -> Option<Points> {
        self.number()
            .map(|n| Points::from_whole((31 - i64::from(n)) * 100))
    }

    /// English name: `Unranked`, `Level 30`, …, `Level 1`.
    pub fn name_en(self) -> String {
        match self {
            Level::Unranked => "Unranked".to_string(),
            Level::Ranked(n) => format!("Level {n}"),
        }
    }

    /// The name in `lang`: `Level 1` / `1级`, `Unranked` / `无级别`.
    pub fn name(self, lang: crate::i18n::Lang) -> String {
        match lang {
            crate::i18n::Lang::En => self.name_en(),
            crate::i18n::Lang::ZhCn => self.name_zh(),
        }
    }

    /// Chinese name: `无级别`, `30级`, …, `1级`.
    pub fn name_zh(self) -> String {
        match self {
            Level::Unranked => "无级别".to_string(),
            Level::Ranked(n) => format!("{n}级"),
        }
    }
}

impl PartialOrd for Level {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Level {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Strength: Unranked < 30级 < … < 1级.
        let key = |l: &Level| match l {
            Level::Unranked => 0,
            Level::Ranked(n) => 31 - i32::from(*n),
        };
        key(self).cmp(&key(other))
    }
}

/// Displays the English name; use [`Level::name_zh`] for Chinese.
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.name_en())
    }
}
