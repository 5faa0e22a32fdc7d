//! The point change after a game (SPEC §3), computed exactly and rounded once.
//!
//! Let `d` be the absolute difference of the two players' points before the
//! game. Brackets are half-open:
//!
//! | result | d < 10 | 10 ≤ d < 100 | 100 ≤ d < 200 | d ≥ 200 |
//! |---|---|---|---|---|
//! | draw: lower side gains | 0 | (10 + d/10) / 2 | d / 4 | d / 4 |
//! | lower side wins: gains | 10 | 10 + d/10 | d / 2 | d / 2 |
//! | higher side wins: gains | 10 | 10 − d/12.5 | 2 | 0 |
//!
//! Each entry is a rational number of hundredths, `num / den`, rounded once to
//! the hundredth, half away from zero. The other side's change is the exact
//! negation, so every game is zero-sum.

use super::Points;

/// The result of a game, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    /// White won (checkmate, resignation, time…).
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

/// The signed change of both players' points after one game.
///
/// Always `white_delta + black_delta == 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Settlement {
    /// Added to White's points (negative when White loses points).
    pub white_delta: Points,
    /// Added to Black's points; always `-white_delta`.
    pub black_delta: Points,
}

/// The difference bracket of the table (half-open intervals).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bracket {
    /// `d < 10`: a win is worth 10, a draw 0.
    Under10,
    /// `10 ≤ d < 100`.
    From10To100,
    /// `100 ≤ d < 200`.
    From100To200,
    /// `d ≥ 200`.
    From200,
}

impl Bracket {
    /// The bracket for an absolute difference `d` (negative input is taken
    /// as its absolute value).
    ///
    /// ```
    /// use chessbot::rating::{Bracket, Points};
    /// assert_eq!(Bracket::of(Points::from_hundredths(999)), Bracket::Under10);
    /// assert_eq!(Bracket::of(Points::from_whole(10)), Bracket::From10To100);
    /// assert_eq!(Bracket::of(Points::from_whole(200)), Bracket::From200);
    /// ```
    pub fn of(d: Points) -> Bracket {
        Bracket::of_hundredths(i128::from(d.hundredths()))
    }

    fn of_hundredths(d: i128) -> Bracket {
        match d.unsigned_abs() {
            0..1_000 => Bracket::Under10,
            1_000..10_000 => Bracket::From10To100,
            10_000..20_000 => Bracket::From100To200,
            _ => Bracket::From200,
        }
    }
}

/// `num / den` rounded to the nearest integer, halves away from zero.
///
/// This is the one rounding step of the scheme, applied to a change expressed
/// as an exact fraction of hundredths. `den` must be positive.
///
/// ```
/// use chessbot::rating::round_half_away_from_zero;
/// assert_eq!(round_half_away_from_zero(5, 2), 3);   // 2.5 → 3
/// assert_eq!(round_half_away_from_zero(-5, 2), -3); // -2.5 → -3
/// assert_eq!(round_half_away_from_zero(7, 4), 2);   // 1.75 → 2
/// assert_eq!(round_half_away_from_zero(-5, 4), -1); // -1.25 → -1
/// ```
pub fn round_half_away_from_zero(num: i128, den: i128) -> i128 {
    assert!(den > 0, "denominator must be positive");
    let (q, r) = (num.abs() / den, num.abs() % den);
    let rounded = if 2 * r >= den { q + 1 } else { q };
    if num < 0 {
        -rounded
    } else {
        rounded
    }
}

/// An exact fraction of hundredths rounded once, as [`Points`].
fn rounded(num: i128, den: i128) -> Points {
    let h = round_half_away_from_zero(num, den);
    // |change| ≤ max(10, d/2) and d is the gap between two i64 values, so the
    // clamp never bites; it only keeps the conversion total.
    Points::from_hundredths(h.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
}

fn diff_hundredths(a: Points, b: Points) -> i128 {
    (i128::from(a.hundredths()) - i128::from(b.hundredths())).abs()
}

/// What the winner gains (and the loser loses) when `winner` beats `loser`.
///
/// ```
/// use chessbot::rating::{win_gain, Points};
/// let (a, b) = (Points::from_whole(150), Points::from_whole(100));
/// assert_eq!(win_gain(b, a), Points::from_whole(15)); // lower side wins
/// assert_eq!(win_gain(a, b), Points::from_whole(6));  // higher side wins
/// ```
pub fn win_gain(winner: Points, loser: Points) -> Points {
    let d = diff_hundredths(winner, loser);
    let lower_wins = winner < loser;
    match (Bracket::of_hundredths(d), lower_wins) {
        (Bracket::Under10, _) => Points::from_whole(10),
        // 10 + d/10 points = (10000 + D) / 10 hundredths, D = d in hundredths.
        (Bracket::From10To100, true) => rounded(10_000 + d, 10),
        // d/2.
        (Bracket::From100To200 | Bracket::From200, true) => rounded(d, 2),
        // 10 − d/12.5 = 10 − 8d/100 points = (100000 − 8D) / 100 hundredths.
        (Bracket::From10To100, false) => rounded(100_000 - 8 * d, 100),
        (Bracket::From100To200, false) => Points::from_whole(2),
        (Bracket::From200, false) => Points::ZERO,
    }
}

/// What the lower side gains (and the higher side loses) in a draw between
/// players with points `a` and `b`; 0 when `d < 10`.
///
/// ```
/// use chessbot::rating::{draw_gain_of_lower, Points};
/// let g = draw_gain_of_lower(Points::from_whole(199), Points::from_whole(100));
/// assert_eq!(g.to_string(), "9.95");
/// ```
pub fn draw_gain_of_lower(a: Points, b: Points) -> Points {
    let d = diff_hundredths(a, b);
    match Bracket::of_hundredths(d) {
        Bracket::Under10 => Points::ZERO,
        // (10 + d/10) / 2 points = (10000 + D) / 20 hundredths.
        Bracket::From10To100 => rounded(10_000 + d, 20),
        // d/4.
        Bracket::From100To200 | Bracket::From200 => rounded(d, 4),
    }
}

/// The signed change of both players after a game between `white` and
/// `black` (points before the game).
///
/// ```
/// use chessbot::rating::{settle, GameOutcome, Points};
/// let s = settle(Points::ZERO, Points::ZERO, GameOutcome::WhiteWins);
/// assert_eq!(s.white_delta, Points::from_whole(10));
/// assert_eq!(s.black_delta, Points::from_whole(-10));
/// ```
pub fn settle(white: Points, black: Points, outcome: GameOutcome) -> Settlement {
    let white_delta = match outcome {
        GameOutcome::WhiteWins => win_gain(white, black),
        GameOutcome::BlackWins => -win_gain(black, white),
        GameOutcome::Draw => {
            let g = draw_gain_of_lower(white, black);
            if white < black {
                g
            } else {
                -g
            }
        }
    };
    Settlement {
        white_delta,
        black_delta: -white_delta,
    }
}
