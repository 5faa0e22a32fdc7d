//! How moves are written for people: standard letters (`Nf3`) or the piece
//! names of the Chinese seeds (`马f3`). Storage, PGN export and move input
//! always use the standard letters; only replies are translated.
//!
//! The Chinese form replaces each piece letter with its character (王 后 车
//! 象 马; pawns stay bare, as in SAN), in the piece position and after `=`
//! for a promotion: `马f3`, `后xf7#`, `e8=后`, `马bd7`. Castling stays
//! `O-O` / `O-O-O`: it is how Chinese chess books and sites print it, it is
//! short on a board caption, and the input reader accepts `短易位`/`长易位`
//! as well as `O-O` anyway.

use std::borrow::Cow;

/// A way of writing moves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Standard algebraic notation with English letters: `Nf3`, `e8=Q`.
    #[default]
    Letters,
    /// Chinese piece names: `马f3`, `e8=后`.
    Chinese,
}

impl Notation {
    /// Every notation, in the order offered to moderators.
    pub const ALL: [Notation; 2] = [Notation::Letters, Notation::Chinese];

    /// The stable name, stored and typed in `/settings notation`.
    pub const fn id(self) -> &'static str {
        match self {
            Notation::Letters => "letters",
            Notation::Chinese => "chinese",
        }
    }

    /// The inverse of [`Notation::id`] (case-insensitive, a few aliases).
    pub fn from_id(text: &str) -> Option<Notation> {
        match text.trim().to_ascii_lowercase().as_str() {
            "letters" | "english" | "san" | "en" => Some(Notation::Letters),
            "chinese" | "zh" | "zh-cn" | "中文" => Some(Notation::Chinese),
            _ => None,
        }
    }

    /// `san` written in this notation.
    pub fn write(self, san: &str) -> Cow<'_, str> {
        match self {
            Notation::Letters => Cow::Borrowed(san),
            Notation::Chinese => Cow::Owned(chinese_san(san)),
        }
    }
}

/// The Chinese name of a SAN piece letter, if it is one.
const fn chinese_piece(letter: char) -> Option<char> {
    match letter {
        'K' => Some('王'),
        'Q' => Some('后'),
        'R' => Some('车'),
        'B' => Some('象'),
        'N' => Some('马'),
        _ => None,
    }
}

/// SAN with piece letters replaced by Chinese piece names. Only capitals
/// are pieces in SAN (files are lower case, so `b` stays a file), and `O`
/// of castling is not a piece letter, so castling is unchanged.
pub fn chinese_san(san: &str) -> String {
    san.chars().map(|c| chinese_piece(c).unwrap_or(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_become_chinese_names_and_pawns_stay_bare() {
        assert_eq!(chinese_san("Nf3"), "马f3");
        assert_eq!(chinese_san("Qxf7#"), "后xf7#");
        assert_eq!(chinese_san("e8=Q"), "e8=后");
        assert_eq!(chinese_san("exd8=N+"), "exd8=马+");
        assert_eq!(chinese_san("Nbd7"), "马bd7");
        assert_eq!(chinese_san("R1a3"), "车1a3");
        assert_eq!(chinese_san("Bxb5"), "象xb5");
        assert_eq!(chinese_san("Kxe2"), "王xe2");
        assert_eq!(chinese_san("e4"), "e4");
        assert_eq!(chinese_san("bxc6"), "bxc6");
    }

    #[test]
    fn castling_is_unchanged() {
        assert_eq!(chinese_san("O-O"), "O-O");
        assert_eq!(chinese_san("O-O-O+"), "O-O-O+");
    }

    #[test]
    fn letters_leave_san_alone_and_ids_round_trip() {
        assert_eq!(Notation::Letters.write("Nf3"), "Nf3");
        assert_eq!(Notation::Chinese.write("Nf3"), "马f3");
        for n in Notation::ALL {
            assert_eq!(Notation::from_id(n.id()), Some(n));
        }
        assert_eq!(Notation::from_id("klingon"), None);
    }

    #[test]
    fn every_legal_san_of_a_position_translates_back_through_the_input_reader() {
        use shakmaty::{fen::Fen, san::SanPlus, CastlingMode, Chess, Position};
        // A position with promotions, captures, castling and checks.
        let fen: Fen = "r3k2r/1P3ppp/8/3Q4/8/8/5PPP/R3K1NR w KQkq - 0 1"
            .parse()
            .expect("fen");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        for m in pos.legal_moves() {
            let san = SanPlus::from_move(pos.clone(), m).to_string();
            let chinese = chinese_san(&san);
            let read = crate::chess::input::parse_move(&pos, &chinese)
                .unwrap_or_else(|e| panic!("{chinese} ({san}): {e}"));
            assert_eq!(read, m, "{chinese} reads back as the same move");
        }
    }
}
