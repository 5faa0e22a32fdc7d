//! [`preview()`]: what a win, a draw and a loss would bring each player, as
//! lichess shows on a challenge.

use super::{settle, GameOutcome, Points};

/// The signed change of one player's points for each result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcomes {
    /// Points before the game.
    pub points: Points,
    /// Change if this player wins (never negative).
    pub win: Points,
    /// Change if the game is drawn (positive for the lower side).
    pub draw: Points,
    /// Change if this player loses (never positive).
    pub loss: Points,
}

/// The changes for both players of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Preview {
    /// The first player.
    pub a: Outcomes,
    /// The second player.
    pub b: Outcomes,
}

/// What each result would bring players with points `a` and `b`.
///
/// The figures do not depend on colours. `a.win == -b.loss`,
/// `a.draw == -b.draw` and `a.loss == -b.win`.
///
/// ```
/// use chessbot::rating::{preview, Points};
/// let p = preview("150".parse()?, "100".parse()?);
/// assert_eq!(
///     [p.a.win, p.a.draw, p.a.loss].map(|x| x.to_string()),
///     ["6", "-7.5", "-15"]
/// );
/// assert_eq!(
///     [p.b.win, p.b.draw, p.b.loss].map(|x| x.to_string()),
///     ["15", "7.5", "-6"]
/// );
/// # Ok::<(), chessbot::rating::ParsePointsError>(())
/// ```
pub fn preview(a: Points, b: Points) -> Preview {
    let win = settle(a, b, GameOutcome::WhiteWins);
    let draw = settle(a, b, GameOutcome::Draw);
    let loss = settle(a, b, GameOutcome::BlackWins);
    Preview {
        a: Outcomes {
            points: a,
            win: win.white_delta,
            draw: draw.white_delta,
            loss: loss.white_delta,
        },
        b: Outcomes {
            points: b,
            win: loss.black_delta,
            draw: draw.black_delta,
            loss: win.black_delta,
        },
    }
}
