//! Why a text is not a move here, in words a person understands.
//!
//! As in shakmaty, "can't read it" ([`InputError::Unreadable`]) is kept apart
//! from "not allowed" ([`InputError::Illegal`]) and "which one?"
//! ([`InputError::Ambiguous`]).

use std::fmt;

use shakmaty::{Role, Square};

use crate::{
    chess::Notation,
    i18n::{join_sentences, Lang},
    t,
};

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
    /// A drop (`N@f3`) that cannot be made, and why.
    Drop(DropBlock),
    /// Antichess: a capture is available, and captures are compulsory.
    MustCapture,
    /// A move standard chess allows on this board but the variant forbids
    /// (an Atomic king capturing or blowing up its own king, a check in
    /// Racing Kings).
    VariantRule(crate::chess::Variant),
}

/// Why a drop is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropBlock {
    /// Pieces are dropped only in Crazyhouse.
    NoDrops,
    /// No piece of that kind in the mover's pocket.
    NotInPocket(Role),
    /// A piece already stands on the square.
    Occupied(Square),
    /// Pawns are never dropped on the first or last rank.
    PawnOnBackRank,
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

/// Makes user text safe to echo inside inline code: bounded work, at most
/// [`ECHO_CHARS`] characters, no backticks, markdown, mention or control
/// characters, whitespace collapsed.
pub(crate) fn echo(text: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut truncated = false;
    let mut last_space = true;
    let chars: Vec<char> = text.chars().take(ECHO_CHARS * 16).collect();
    for (i, &c) in chars.iter().enumerate() {
        // `@` stays where it writes a drop (`N@f3`): before a square it
        // mentions nobody.
        let drop = c == '@'
            && matches!(chars.get(i + 1), Some('a'..='h'))
            && matches!(chars.get(i + 2), Some('1'..='8'));
        if (matches!(c, '`' | '*' | '_' | '~' | '|' | '\\' | '@' | '<' | '>') && !drop)
            || c.is_control()
        {
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

/// The catalogue name of a piece kind, in `lang`.
pub fn piece_name(lang: Lang, role: Role) -> String {
    match role {
        Role::Pawn => t!(lang, "piece-pawn"),
        Role::Knight => t!(lang, "piece-knight"),
        Role::Bishop => t!(lang, "piece-bishop"),
        Role::Rook => t!(lang, "piece-rook"),
        Role::Queen => t!(lang, "piece-queen"),
        Role::King => t!(lang, "piece-king"),
    }
}

impl IllegalReason {
    /// Why the move is not allowed, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match *self {
            IllegalReason::KingIntoCheck => t!(lang, "illegal-king-into-check"),
            IllegalReason::LeavesKingInCheck => t!(lang, "illegal-leaves-king-in-check"),
            IllegalReason::NoPieceCanGoThere {
                role,
                from,
                to,
                capture,
            } => {
                let piece = piece_name(lang, role);
                let to = to.to_string();
                match (from, capture) {
                    (Some(from), false) => t!(
                        lang,
                        "illegal-piece-cannot-go",
                        piece = piece,
                        from = from.to_string(),
                        to = to
                    ),
                    (Some(from), true) => t!(
                        lang,
                        "illegal-piece-cannot-capture",
                        piece = piece,
                        from = from.to_string(),
                        to = to
                    ),
                    (None, false) => t!(lang, "illegal-no-piece-can-go", piece = piece, to = to),
                    (None, true) => {
                        t!(lang, "illegal-no-piece-can-capture", piece = piece, to = to)
                    }
                }
            }
            IllegalReason::OwnPieceThere { square, role } => t!(
                lang,
                "illegal-own-piece-there",
                piece = piece_name(lang, role),
                square = square.to_string()
            ),
            IllegalReason::EmptySquare(sq) => {
                t!(lang, "illegal-empty-square", square = sq.to_string())
            }
            IllegalReason::NotYourPiece(sq) => {
                t!(lang, "illegal-not-your-piece", square = sq.to_string())
            }
            IllegalReason::WrongPiece {
                square,
                named,
                found,
            } => t!(
                lang,
                "illegal-wrong-piece",
                square = square.to_string(),
                found = piece_name(lang, found),
                named = piece_name(lang, named)
            ),
            IllegalReason::Castling(block) => match block {
                CastlingBlock::NoRight => t!(lang, "illegal-castling-no-right"),
                CastlingBlock::NotGranted => t!(lang, "illegal-castling-not-granted"),
                CastlingBlock::InCheck => t!(lang, "illegal-castling-in-check"),
                CastlingBlock::PiecesInTheWay => t!(lang, "illegal-castling-pieces-in-the-way"),
                CastlingBlock::ThroughCheck => t!(lang, "illegal-castling-through-check"),
                CastlingBlock::IntoCheck => t!(lang, "illegal-king-into-check"),
            },
            IllegalReason::NoPromotion => t!(lang, "illegal-no-promotion"),
            IllegalReason::PromotionRequired => t!(lang, "illegal-promotion-required"),
            IllegalReason::NoLegalMoves => t!(lang, "illegal-no-legal-moves"),
            IllegalReason::Drop(block) => match block {
                DropBlock::NoDrops => t!(lang, "illegal-drop-no-drops"),
                DropBlock::NotInPocket(role) => {
                    t!(
                        lang,
                        "illegal-drop-not-in-pocket",
                        piece = piece_name(lang, role)
                    )
                }
                DropBlock::Occupied(square) => {
                    t!(lang, "illegal-drop-occupied", square = square.to_string())
                }
                DropBlock::PawnOnBackRank => t!(lang, "illegal-drop-pawn-back-rank"),
            },
            IllegalReason::MustCapture => t!(lang, "illegal-must-capture"),
            IllegalReason::VariantRule(variant) => match variant {
                crate::chess::Variant::Atomic => t!(lang, "illegal-variant-atomic"),
                crate::chess::Variant::RacingKings => t!(lang, "illegal-variant-racing-kings"),
                other => t!(lang, "illegal-variant-rule", variant = other.name(lang)),
            },
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// `head`, then "Try e.g. e4, Nf3." with the moves written in `notation`
/// (nothing more when the list is empty), joined as `lang` joins sentences.
fn with_suggestions(
    lang: Lang,
    notation: Notation,
    head: String,
    suggestions: &[String],
) -> String {
    if suggestions.is_empty() {
        return head;
    }
    let moves: Vec<_> = suggestions.iter().map(|s| notation.write(s)).collect();
    let tail = t!(lang, "input-try", moves = moves.join(", "));
    join_sentences(lang, [head, tail])
}

impl InputError {
    /// What is wrong with the move, in `lang`, moves in letters (`Nf3`).
    pub fn text(&self, lang: Lang) -> String {
        self.text_in(lang, Notation::Letters)
    }

    /// What is wrong with the move, in `lang`, with the moves it suggests
    /// written in `notation` (`马f3` where the game's boards write so).
    pub fn text_in(&self, lang: Lang, notation: Notation) -> String {
        match self {
            InputError::Unreadable { input, suggestions } => {
                let head = if input.is_empty() {
                    t!(lang, "input-type-a-move")
                } else {
                    t!(lang, "input-unreadable", input = input)
                };
                with_suggestions(lang, notation, head, suggestions)
            }
            InputError::Illegal {
                input,
                reason,
                suggestions,
            } => {
                let head = t!(
                    lang,
                    "input-illegal",
                    input = input,
                    reason = reason.text(lang)
                );
                with_suggestions(lang, notation, head, suggestions)
            }
            InputError::Ambiguous {
                input,
                role,
                candidates,
            } => {
                let quoted: Vec<String> = candidates
                    .iter()
                    .map(|c| format!("`{}`", notation.write(c)))
                    .collect();
                let list = match quoted.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        t!(lang, "input-list-or", first = rest.join(", "), last = last)
                    }
                    _ => quoted.join(", "),
                };
                t!(
                    lang,
                    "input-ambiguous",
                    input = input,
                    piece = piece_name(lang, *role),
                    candidates = list
                )
            }
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
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
        assert_eq!(echo("N@f3 @e4 @here"), "N@f3 @e4 here");
        assert_eq!(echo("  a \n\t b  "), "a b");
        let long = "x".repeat(10_000);
        assert_eq!(echo(&long), format!("{}…", "x".repeat(20)));
    }
}
