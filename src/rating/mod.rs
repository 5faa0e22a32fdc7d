//! The club level/points rating scheme of SPEC §3, exact in integer hundredths.
//!
//! Every player starts at 0 points on each server. After a rated game the
//! winner gains a number of points fixed by the table in [`change`] and the
//! loser loses exactly the same number (in a draw, the higher side loses what
//! the lower side gains), so the sum of all points on a server is always 0.
//!
//! - [`Points`]: a number of points in integer hundredths, parsed from and
//!   shown as text with up to two decimals (`107.5`, `2.08`, `150`).
//! - [`Level`]: 无级别 (Unranked) below 100 points, then 30级 … 1级.
//! - [`settle`]: the signed change of both players after a game.
//! - [`preview()`]: what a win, a draw and a loss would bring each player.
//! - [`Standing`]: points plus the number of rated games, shown with `?` while
//!   provisional (fewer than [`PROVISIONAL_GAMES`] rated games).
//!
//! ```
//! use chessbot::rating::{settle, GameOutcome, Level, Points};
//!
//! let white: Points = "150".parse()?;
//! let black: Points = "100".parse()?;
//! let s = settle(white, black, GameOutcome::Draw);
//! assert_eq!((white + s.white_delta).to_string(), "142.5");
//! assert_eq!((black + s.black_delta).to_string(), "107.5");
//! assert_eq!(Level::from_points(white + s.white_delta), Level::Ranked(30));
//! # Ok::<(), chessbot::rating::ParsePointsError>(())
//! ```

pub mod change;
pub mod cli;
pub mod level;
pub mod points;
pub mod preview;

pub use change::{
    draw_gain_of_lower, round_half_away_from_zero, settle, win_gain, Bracket, GameOutcome,
    Settlement,
};
pub use level::Level;
pub use points::{ParsePointsError, Points};
pub use preview::{preview, Outcomes, Preview};

/// Number of rated games below which a player's points are provisional
/// (shown with a `?`). The seed: 下过50盘以后得分/失分会趋于稳定.
pub const PROVISIONAL_GAMES: u32 = 50;

/// Whether a player with `rated_games` rated games is still provisional.
///
/// ```
/// use chessbot::rating::is_provisional;
/// assert!(is_provisional(49));
/// assert!(!is_provisional(50));
/// ```
pub const fn is_provisional(rated_games: u32) -> bool {
    rated_games < PROVISIONAL_GAMES
}

/// A player's standing on a server: points and rated games played.
///
/// Displays as the points, followed by `?` while provisional.
///
/// ```
/// use chessbot::rating::{Points, Standing};
/// let s = Standing { points: Points::from_hundredths(10750), rated_games: 3 };
/// assert_eq!(s.to_string(), "107.5?");
/// let s = Standing { points: Points::from_whole(150), rated_games: 50 };
/// assert_eq!(s.to_string(), "150");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Standing {
    /// Current points.
    pub points: Points,
    /// Rated games finished so far.
    pub rated_games: u32,
}

impl Standing {
    /// Whether the points are still provisional.
    pub const fn is_provisional(&self) -> bool {
        is_provisional(self.rated_games)
    }

    /// The level that goes with the points.
    pub fn level(&self) -> Level {
        Level::from_points(self.points)
    }
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.points)?;
        if self.is_provisional() {
            f.write_str("?")?;
        }
        Ok(())
    }
}
