//! Why a text is not a move here, in words a person understands.
//!
//! As in shakmaty, "can't read it" ([`InputError::Unreadable`]) is kept apart
//! from "not allowed" ([`InputError::Illegal`]) and "which one?"
//! ([`InputError::Ambiguous`]).

use std::fmt;

use shakmaty::{Role, Square};

/// How much of the user's text is echoed back, in characters.
const ECHO_CHARS: usize = 20;

/// A text that is not a legal move in the position. Every `input` field holds
/// the user's text already made safe to show: at most 20 characters, no
/// backticks, markdown or mention characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Not a move in any form we know: "I can't read `xyz` as a move".
    Unreadable {
        /// The (sanitised) text.
        input: String,
        /// A few legal moves in SAN.
        suggestions: Vec<String>,
    },
    /// A move we could read, but the rules forbid it here.
    Illegal {
        /// The (sanitised) text.
        input: String,
        /// Why it is not allowed.
        reason: IllegalReason,
        /// A few legal moves in SAN, those closest to the attempt first.
        suggestions: Vec<String>,
    },
    /// Several legal moves fit: "`Nd7`: which knight, `Nbd7` or `Nfd7`?"
    Ambiguous {
        /// The (sanitised) text.
        input: String,
        /// The piece that was meant.
        role: Role,
        /// SAN of every move that fits.
        candidates: Vec<String>,
    },
}

/// Why a readable move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The king itself would step onto an attacked square (送王). This is
    /// the attempt that the `strict_illegal_moves` house rule counts.
    KingIntoCheck,
    /// Another piece moves and the king is (or stays) in check: a pinned
    /// piece leaves its line, or the move ignores a check.
    LeavesKingInCheck,
    /// No piece of that kind (on `from`, if given) can reach `to`.
    NoPieceCanGoThere {
        /// The kind of piece named.
        role: Role,
        /// The square it was to come from, when the input said so exactly.
        from: Option<Square>,
        /// The target square.
        to: Square,
        /// Whether the input asked for a capture.
        capture: bool,
    },
    /// One of the mover's own pieces stands on the target square.
    OwnPieceThere {
        /// The target square.
        square: Square,
        /// The piece standing there.
        role: Role,
    },
    /// Coordinates start on an empty square.
    EmptySquare(Square),
    /// Coordinates start on a square with an opponent's piece.
    NotYourPiece(Square),
    /// Long algebraic names a piece that is not on the square (`Ng1-f3`
    /// with a bishop on g1).
    WrongPiece {
        /// The square named.
        square: Square,
        /// The piece the input named.
        named: Role,
        /// The piece that is there.
        found: Role,
    },
    /// Castling is not allowed now, and why.
    Castling(CastlingBlock),
    /// A promotion piece was given for a move that does not promote.
    NoPromotion,
    /// A pawn reaches the last rank without a valid piece to become.
    PromotionRequired,
    /// The game is over: the side to move has no legal move at all.
    NoLegalMoves,
}

/// Why castling is refused, checked in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingBlock {
    /// The right is gone: the king or that rook has moved (or the rook was
    /// captured).
    NoRight,
    /// The game began from a position (a FEN) that did not grant the right.
    NotGranted,
    /// The king is in check.
    InCheck,
    /// Pieces stand between king and rook.
    PiecesInTheWay,
    /// The king would cross an attacked square.
    ThroughCheck,
    /// The king would land on an attacked square.
    IntoCheck,
}

/// English name of a piece kind.
pub(crate) const fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Makes user text safe to echo inside inline code: bounded work, at most
/// [`ECHO_CHARS`] characters, no backticks, markdown, mention or control
/// characters, whitespace collapsed.
pub(crate) fn echo(text: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut truncated = false;
    let mut last_space = true;
    for c in text.chars().take(ECHO_CHARS * 16) {
        if matches!(c, '`' | '*' | '_' | '~' | '|' | '\\' | '@' | '<' | '>') || c.is_control() {
            continue;
        }
        let space = c.is_whitespace();
        if space && last_space {
            continue;
        }
        if count == ECHO_CHARS {
            truncated = true;
            break;
        }
        out.push(if space { ' ' } else { c });
        count += 1;
        last_space = space;
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    if truncated || text.chars().nth(ECHO_CHARS * 16).is_some() {
        out.push('…');
    }
    out
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalReason::KingIntoCheck => f.write_str("your king would be in check"),
            IllegalReason::LeavesKingInCheck => f.write_str("it would leave your king in check"),
            IllegalReason::NoPieceCanGoThere {
                role,
                from,
                to,
                capture,
            } => {
                let verb = if capture { "capture on" } else { "go to" };
                match from {
                    Some(from) => {
                        write!(f, "your {} on {from} cannot {verb} {to}", role_name(role))
                    }
                    None => write!(f, "you have no {} that can {verb} {to}", role_name(role)),
                }
            }
            IllegalReason::OwnPieceThere { square, role } => {
                write!(f, "your own {} is on {square}", role_name(role))
            }
            IllegalReason::EmptySquare(sq) => write!(f, "there is no piece on {sq}"),
            IllegalReason::NotYourPiece(sq) => write!(f, "the piece on {sq} is not yours"),
            IllegalReason::WrongPiece {
                square,
                named,
                found,
            } => write!(
                f,
                "the piece on {square} is a {}, not a {}",
                role_name(found),
                role_name(named)
            ),
            IllegalReason::Castling(block) => f.write_str(match block {
                CastlingBlock::NoRight => {
                    "you can no longer castle on that side (the king or rook has moved)"
                }
                CastlingBlock::NotGranted => {
                    "this game began without that castling right, so you cannot castle on that side"
                }
                CastlingBlock::InCheck => "you cannot castle out of check",
                CastlingBlock::PiecesInTheWay => "there are pieces between the king and the rook",
                CastlingBlock::ThroughCheck => "the king would pass through an attacked square",
                CastlingBlock::IntoCheck => "your king would be in check",
            }),
            IllegalReason::NoPromotion => {
                f.write_str("only a pawn reaching the last rank promotes")
            }
            IllegalReason::PromotionRequired => {
                f.write_str("say what the pawn becomes: add =Q, =R, =B or =N")
            }
            IllegalReason::NoLegalMoves => {
                f.write_str("the game is over, there are no legal moves")
            }
        }
    }
}

/// Writes " Try e.g. e4, Nf3." (nothing when the list is empty).
fn write_suggestions(f: &mut fmt::Formatter<'_>, suggestions: &[String]) -> fmt::Result {
    if suggestions.is_empty() {
        return Ok(());
    }
    write!(f, " Try e.g. {}.", suggestions.join(", "))
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unreadable { input, suggestions } => {
                if input.is_empty() {
                    f.write_str("Type a move.")?;
                } else {
                    write!(f, "I can't read `{input}` as a move.")?;
                }
                write_suggestions(f, suggestions)
            }
            InputError::Illegal {
                input,
                reason,
                suggestions,
            } => {
                write!(f, "`{input}` is not legal here: {reason}.")?;
                write_suggestions(f, suggestions)
            }
            InputError::Ambiguous {
                input,
                role,
                candidates,
            } => {
                write!(f, "`{input}`: which {}, ", role_name(*role))?;
                for (i, c) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == candidates.len() {
                            " or "
                        } else {
                            ", "
                        })?;
                    }
                    write!(f, "`{c}`")?;
                }
                f.write_str("?")
            }
        }
    }
}

impl std::error::Error for InputError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_is_short_and_harmless() {
        assert_eq!(echo("Nf3"), "Nf3");
        assert_eq!(echo("@everyone `x`"), "everyone x");
        assert_eq!(echo("  a \n\t b  "), "a b");
        let long = "x".repeat(10_000);
        assert_eq!(echo(&long), format!("{}…", "x".repeat(20)));
    }
}
