//! A FEN as a person pastes it (`/show fen:…`), read field by field so that
//! a mistake is named: which of the six fields cannot be read, or, for a
//! FEN that reads, why its position cannot be played (no king, pawns on the
//! first rank, the side not to move in check, …).
//!
//! Parsing and the rules are shakmaty's; this module only tells apart what
//! shakmaty reports and puts it into the reader's words.

use shakmaty::{
    fen::{Fen, ParseFenError},
    variant::VariantPosition,
    CastlingMode, Chess, PositionErrorKinds,
};

use crate::{i18n::Lang, t};

/// The longest FEN read: a real one is under 90 characters.
pub const MAX_FEN_CHARS: usize = 120;

/// The six fields of a FEN, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    Board,
    Turn,
    Castling,
    EnPassant,
    Halfmove,
    Fullmove,
}

impl FenField {
    const ALL: [FenField; 6] = [
        FenField::Board,
        FenField::Turn,
        FenField::Castling,
        FenField::EnPassant,
        FenField::Halfmove,
        FenField::Fullmove,
    ];

    /// Its place in the FEN, from 1.
    pub fn number(self) -> usize {
        Self::ALL.iter().position(|&f| f == self).unwrap_or(0) + 1
    }
}

/// Why a position that reads cannot be played (shakmaty's
/// [`PositionErrorKinds`], one by one).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unplayable {
    Empty,
    MissingKing,
    TooManyKings,
    PawnsOnBackRank,
    Castling,
    EnPassant,
    OppositeCheck,
    ImpossibleCheck,
    TooMuchMaterial,
    /// A rule of the game's variant (Racing Kings: no check; Horde: White
    /// has no king, …).
    Variant,
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenProblem {
    Empty,
    TooLong {
        chars: usize,
    },
    TooManyFields {
        count: usize,
    },
    /// A field that cannot be read, with its text.
    Field {
        field: FenField,
        text: String,
    },
    Unplayable(Vec<Unplayable>),
}

/// Reads `text` as the FEN of a position: standard chess, or Chess960 when
/// its castling rights are ones only Chess960 has. Missing trailing
/// fields take their usual defaults (`w - - 0 1`), as lichess allows.
pub fn read_fen(text: &str) -> Result<Chess, FenProblem> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err(FenProblem::Empty);
    }
    if chars > MAX_FEN_CHARS {
        return Err(FenProblem::TooLong { chars });
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() > FenField::ALL.len() {
        return Err(FenProblem::TooManyFields {
            count: fields.len(),
        });
    }
    let fen: Fen = text.parse().map_err(|e| field_problem(e, text))?;
    let again = fen.clone();
    let played = match fen.into_position(CastlingMode::Standard) {
        // Castling rights only Chess960 has (a king off the e-file, a rook
        // inside, Shredder-FEN letters): a Chess960 position, whose
        // castling mode the position then carries.
        Err(e) if e.kinds() == PositionErrorKinds::INVALID_CASTLING_RIGHTS => {
            match again.into_position(CastlingMode::Chess960) {
                Ok(position) => Ok(position),
                Err(_) => Err(e),
            }
        }
        standard => standard,
    };
    played.map_err(|e| unplayable(e.kinds()))
}

/// Reads `text` as the FEN of a position of `rules` castling by `mode` (a
/// game's variant, as stored games and challenges' `fen:` are read), with
/// none of [`read_fen`]'s guesses or limits: the problem named the same way.
pub fn read_position_in(
    rules: shakmaty::variant::Variant,
    mode: CastlingMode,
    text: &str,
) -> Result<VariantPosition, FenProblem> {
    let text = text.trim();
    if text.is_empty() {
        return Err(FenProblem::Empty);
    }
    let setup = text
        .parse::<Fen>()
        .map_err(|e| field_problem(e, text))?
        .into_setup();
    VariantPosition::from_setup(rules, setup.clone(), mode).map_err(|e| {
        // A position standard chess would play is refused for the variant's
        // own rules (a king in Horde's White army, a check in Racing
        // Kings): shakmaty's kinds would name a standard rule instead.
        let standard = shakmaty::variant::Variant::Chess;
        if rules != standard && VariantPosition::from_setup(standard, setup, mode).is_ok() {
            FenProblem::Unplayable(vec![Unplayable::Variant])
        } else {
            unplayable(e.kinds())
        }
    })
}

/// The field of `text` that shakmaty could not read.
fn field_problem(e: ParseFenError, text: &str) -> FenProblem {
    let field = match e {
        ParseFenError::InvalidTurn => FenField::Turn,
        ParseFenError::InvalidCastling => FenField::Castling,
        ParseFenError::InvalidEpSquare => FenField::EnPassant,
        ParseFenError::InvalidHalfmoveClock => FenField::Halfmove,
        ParseFenError::InvalidFullmoves => FenField::Fullmove,
        // The board, its pocket (other variants) and anything unsorted.
        _ => FenField::Board,
    };
    let text = text
        .split_whitespace()
        .nth(field.number() - 1)
        .unwrap_or("");
    FenProblem::Field {
        field,
        text: text.to_owned(),
    }
}

/// Why a position that reads cannot be played, from shakmaty's `kinds`.
fn unplayable(kinds: PositionErrorKinds) -> FenProblem {
    let named = [
        (PositionErrorKinds::EMPTY_BOARD, Unplayable::Empty),
        (PositionErrorKinds::MISSING_KING, Unplayable::MissingKing),
        (PositionErrorKinds::TOO_MANY_KINGS, Unplayable::TooManyKings),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            Unplayable::PawnsOnBackRank,
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            Unplayable::Castling,
        ),
        (PositionErrorKinds::INVALID_EP_SQUARE, Unplayable::EnPassant),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            Unplayable::OppositeCheck,
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            Unplayable::ImpossibleCheck,
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            Unplayable::TooMuchMaterial,
        ),
        (PositionErrorKinds::VARIANT, Unplayable::Variant),
    ];
    let mut why: Vec<Unplayable> = named
        .iter()
        .filter(|(kind, _)| kinds.contains(*kind))
        .map(|&(_, why)| why)
        .collect();
    // An empty board also lacks its kings: saying so adds nothing.
    if why.contains(&Unplayable::Empty) {
        why.retain(|w| *w == Unplayable::Empty);
    }
    FenProblem::Unplayable(why)
}

impl Unplayable {
    fn text(self, lang: Lang) -> String {
        match self {
            Unplayable::Empty => t!(lang, "fen-unplayable-empty"),
            Unplayable::MissingKing => t!(lang, "fen-unplayable-missing-king"),
            Unplayable::TooManyKings => t!(lang, "fen-unplayable-too-many-kings"),
            Unplayable::PawnsOnBackRank => t!(lang, "fen-unplayable-pawns-back-rank"),
            Unplayable::Castling => t!(lang, "fen-unplayable-castling"),
            Unplayable::EnPassant => t!(lang, "fen-unplayable-en-passant"),
            Unplayable::OppositeCheck => t!(lang, "fen-unplayable-opposite-check"),
            Unplayable::ImpossibleCheck => t!(lang, "fen-unplayable-impossible-check"),
            Unplayable::TooMuchMaterial => t!(lang, "fen-unplayable-too-much-material"),
            Unplayable::Variant => t!(lang, "fen-unplayable-variant"),
        }
    }
}

impl FenProblem {
    /// What is wrong, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            FenProblem::Empty => t!(lang, "fen-empty"),
            FenProblem::TooLong { chars } => {
                t!(lang, "fen-too-long", chars = *chars, max = MAX_FEN_CHARS)
            }
            FenProblem::TooManyFields { count } => t!(lang, "fen-too-many-fields", count = *count),
            FenProblem::Field { field, text } => {
                let text = &shown(text);
                let number = field.number();
                match field {
                    FenField::Board => t!(lang, "fen-bad-board", number = number, text = text),
                    FenField::Turn => t!(lang, "fen-bad-turn", number = number, text = text),
                    FenField::Castling => {
                        t!(lang, "fen-bad-castling", number = number, text = text)
                    }
                    FenField::EnPassant => {
                        t!(lang, "fen-bad-en-passant", number = number, text = text)
                    }
                    FenField::Halfmove => {
                        t!(lang, "fen-bad-halfmove", number = number, text = text)
                    }
                    FenField::Fullmove => {
                        t!(lang, "fen-bad-fullmove", number = number, text = text)
                    }
                }
            }
            FenProblem::Unplayable(why) => t!(
                lang,
                "fen-unplayable",
                reasons = crate::i18n::join_list(lang, why.iter().map(|w| w.text(lang)))
            ),
        }
    }
}

/// A field as it is quoted back: FEN's own characters only (anything else
/// as `?`, so no markdown or mention passes), at most 80 of them.
fn shown(text: &str) -> String {
    text.chars()
        .take(80)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '/' || c == '-' {
                c
            } else {
                '?'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(fen: &str) -> FenProblem {
        read_fen(fen).expect_err("refused")
    }

    #[test]
    fn a_good_fen_and_a_short_one_read() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(read_fen(start), Ok(Chess::default()));
        // Only the board: White to move, no castling.
        assert!(read_fen("4k3/8/8/8/8/8/8/4K3").is_ok());
    }

    #[test]
    fn each_unreadable_field_is_named() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                FenField::Board,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                FenField::Turn,
                "x",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",
                FenField::Castling,
                "KQxq",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                FenField::EnPassant,
                "e9",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                FenField::Halfmove,
                "x",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y",
                FenField::Fullmove,
                "y",
            ),
        ];
        for (fen, field, text) in cases {
            assert_eq!(
                problem(fen),
                FenProblem::Field {
                    field,
                    text: text.to_owned()
                },
                "{fen}"
            );
        }
        let text = problem(cases[1].0).text(Lang::En);
        assert!(text.contains("field 2") && text.contains("`x`"), "{text}");
        let zh = problem(cases[1].0).text(Lang::ZhCn);
        assert!(zh.contains("第2") && zh.contains("`x`"), "{zh}");
    }

    #[test]
    fn an_unplayable_position_says_why() {
        assert_eq!(
            problem("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            FenProblem::Unplayable(vec![Unplayable::MissingKing])
        );
        assert_eq!(
            problem("8/8/8/8/8/8/8/8 w - - 0 1"),
            FenProblem::Unplayable(vec![Unplayable::Empty])
        );
        // Black is in check with White to move.
        let check = problem("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1");
        assert_eq!(
            check,
            FenProblem::Unplayable(vec![Unplayable::OppositeCheck])
        );
        assert!(
            check.text(Lang::En).contains("not to move is in check"),
            "{}",
            check.text(Lang::En)
        );
        assert_eq!(
            problem("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            FenProblem::Unplayable(vec![Unplayable::PawnsOnBackRank])
        );
    }

    #[test]
    fn too_much_text_is_refused_before_reading() {
        assert_eq!(problem(""), FenProblem::Empty);
        assert_eq!(problem("   "), FenProblem::Empty);
        assert!(matches!(
            problem(&"8/".repeat(100)),
            FenProblem::TooLong { .. }
        ));
        assert_eq!(
            problem("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
            FenProblem::TooManyFields { count: 7 }
        );
    }
}
