//! The variant a game is played in, named by lichess's keys (`standard`,
//! `chess960`, `crazyhouse`, `atomic`, `antichess`, `kingofthehill`,
//! `threecheck`, `horde`, `racingkings`). Every place that asks "which
//! rules?" asks this enum.
//!
//! What a variant decides here: the rules shakmaty plays (its
//! `VariantPosition`), the castling mode (in Chess960 the king castles onto
//! its rook, and UCI writes it so), the PGN `Variant` tag (lichess's
//! names), whether a start position has a number, whether pieces are
//! dropped, and which engine can play it.

use shakmaty::{variant::Variant as Rules, CastlingMode};

use crate::{i18n::Lang, t};

/// The rules a game is played by.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    #[default]
    Standard,
    /// Fischer random chess: one of 960 start positions, castling king onto
    /// rook.
    Chess960,
    /// Captured pieces change sides and may be dropped back (`N@f3`).
    Crazyhouse,
    /// Every capture explodes the 3×3 square around it (pawns survive the
    /// blast); blowing up the enemy king wins.
    Atomic,
    /// Captures are forced; losing every piece, or being stalemated, wins.
    Antichess,
    /// A king reaching d4, e4, d5 or e5 wins.
    KingOfTheHill,
    /// The third check wins.
    ThreeCheck,
    /// White's 36 pawns against Black's army: Black wins by taking them
    /// all.
    Horde,
    /// No checks; the first king to reach the eighth rank wins (Black
    /// may still equalise on the next move).
    RacingKings,
}

impl Variant {
    /// Every variant, standard first (the order of option lists, lichess's).
    pub const ALL: [Variant; 9] = [
        Variant::Standard,
        Variant::Chess960,
        Variant::Crazyhouse,
        Variant::Atomic,
        Variant::Antichess,
        Variant::KingOfTheHill,
        Variant::ThreeCheck,
        Variant::Horde,
        Variant::RacingKings,
    ];

    /// lichess's key, lower case: what options take and the store keeps.
    pub const fn key(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
            Variant::Crazyhouse => "crazyhouse",
            Variant::Atomic => "atomic",
            Variant::Antichess => "antichess",
            Variant::KingOfTheHill => "kingofthehill",
            Variant::ThreeCheck => "threecheck",
            Variant::Horde => "horde",
            Variant::RacingKings => "racingkings",
        }
    }

    /// The variant of a lichess key (case, spaces and dashes forgiven:
    /// `Chess960`, `chess 960`, `King of the Hill`, `Three-check`), or of a
    /// name other programs use (`Fischerandom`, `3check`, `KOTH`).
    pub fn from_key(key: &str) -> Option<Variant> {
        let squashed: String = key
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        Variant::ALL
            .into_iter()
            .find(|v| v.key() == squashed)
            .or(match squashed.as_str() {
                "960" | "fischerandom" | "fischerrandom" => Some(Variant::Chess960),
                "3check" => Some(Variant::ThreeCheck),
                "koth" => Some(Variant::KingOfTheHill),
                "zh" => Some(Variant::Crazyhouse),
                _ => None,
            })
    }

    /// The value of PGN's `Variant` tag (lichess writes `Chess960`,
    /// `Crazyhouse`, `King of the Hill`, `Three-check`, `Racing Kings`, …;
    /// other programs write `Fischerandom` or `chess 960`). A missing tag,
    /// `Standard` or lichess's `From Position` is standard chess; `None`
    /// for a variant not played here.
    pub fn from_pgn_tag(tag: Option<&str>) -> Option<Variant> {
        match tag.map(str::trim) {
            None | Some("") => Some(Variant::Standard),
            Some(name) if name.eq_ignore_ascii_case("from position") => Some(Variant::Standard),
            Some(name) => Variant::from_key(name),
        }
    }

    /// The name PGN's `Variant` tag carries, as lichess writes it (`None`
    /// for standard chess, which has no tag).
    pub const fn pgn_tag(self) -> Option<&'static str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 => Some("Chess960"),
            Variant::Crazyhouse => Some("Crazyhouse"),
            Variant::Atomic => Some("Atomic"),
            Variant::Antichess => Some("Antichess"),
            Variant::KingOfTheHill => Some("King of the Hill"),
            Variant::ThreeCheck => Some("Three-check"),
            Variant::Horde => Some("Horde"),
            Variant::RacingKings => Some("Racing Kings"),
        }
    }

    /// The rules shakmaty plays (Chess960 is chess with another castling
    /// mode).
    pub const fn rules(self) -> Rules {
        match self {
            Variant::Standard | Variant::Chess960 => Rules::Chess,
            Variant::Crazyhouse => Rules::Crazyhouse,
            Variant::Atomic => Rules::Atomic,
            Variant::Antichess => Rules::Antichess,
            Variant::KingOfTheHill => Rules::KingOfTheHill,
            Variant::ThreeCheck => Rules::ThreeCheck,
            Variant::Horde => Rules::Horde,
            Variant::RacingKings => Rules::RacingKings,
        }
    }

    /// How shakmaty reads and writes castling in this variant.
    pub const fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Chess960 => CastlingMode::Chess960,
            _ => CastlingMode::Standard,
        }
    }

    /// Whether its start positions are numbered (Chess960's 0–959).
    pub const fn numbered_starts(self) -> bool {
        matches!(self, Variant::Chess960)
    }

    /// Whether pieces in hand are dropped onto the board (Crazyhouse).
    pub const fn has_drops(self) -> bool {
        matches!(self, Variant::Crazyhouse)
    }

    /// Whether the fifty- and seventy-five-move rules apply. Not in
    /// Crazyhouse, where material never runs out (lichess and python-chess
    /// agree).
    pub const fn has_move_count_draws(self) -> bool {
        !matches!(self, Variant::Crazyhouse)
    }

    /// Whether Stockfish plays it (standard chess and Chess960); the
    /// others need Fairy-Stockfish.
    pub const fn stockfish_plays(self) -> bool {
        matches!(self, Variant::Standard | Variant::Chess960)
    }

    /// The engine that plays it, as the computer player is named
    /// (`Fairy-Stockfish level 3` in a Crazyhouse game).
    pub const fn engine_name(self) -> &'static str {
        if self.stockfish_plays() {
            "Stockfish"
        } else {
            "Fairy-Stockfish"
        }
    }

    /// The `UCI_Variant` value Fairy-Stockfish knows it by.
    pub const fn uci_variant(self) -> &'static str {
        match self {
            Variant::Standard | Variant::Chess960 => "chess",
            Variant::Crazyhouse => "crazyhouse",
            Variant::Atomic => "atomic",
            Variant::Antichess => "antichess",
            Variant::KingOfTheHill => "kingofthehill",
            Variant::ThreeCheck => "3check",
            Variant::Horde => "horde",
            Variant::RacingKings => "racingkings",
        }
    }

    /// Its name as people read it, in `lang` (`Chess960`, `960国际象棋`).
    pub fn name(self, lang: Lang) -> String {
        match self {
            Variant::Standard => t!(lang, "variant-standard"),
            Variant::Chess960 => t!(lang, "variant-chess960"),
            Variant::Crazyhouse => t!(lang, "variant-crazyhouse"),
            Variant::Atomic => t!(lang, "variant-atomic"),
            Variant::Antichess => t!(lang, "variant-antichess"),
            Variant::KingOfTheHill => t!(lang, "variant-kingofthehill"),
            Variant::ThreeCheck => t!(lang, "variant-threecheck"),
            Variant::Horde => t!(lang, "variant-horde"),
            Variant::RacingKings => t!(lang, "variant-racingkings"),
        }
    }

    /// "Chess960, position 123" where the start has a number; else the
    /// name alone.
    pub fn with_start(self, lang: Lang, number: Option<u16>) -> String {
        match number {
            Some(number) => t!(
                lang,
                "variant-with-position",
                variant = self.name(lang),
                number = number
            ),
            None => self.name(lang),
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_and_forgive_case() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_key(v.key()), Some(v));
        }
        assert_eq!(Variant::from_key("Chess960"), Some(Variant::Chess960));
        assert_eq!(Variant::from_key("chess 960"), Some(Variant::Chess960));
        assert_eq!(Variant::from_key("crazyhouse"), Some(Variant::Crazyhouse));
        assert_eq!(
            Variant::from_key("King of the Hill"),
            Some(Variant::KingOfTheHill)
        );
        assert_eq!(Variant::from_key("3check"), Some(Variant::ThreeCheck));
        assert_eq!(Variant::from_key("shogi"), None);
        assert_eq!(Variant::from_key(""), None);
        assert_eq!(Variant::from_pgn_tag(None), Some(Variant::Standard));
        assert_eq!(
            Variant::from_pgn_tag(Some("Fischerandom")),
            Some(Variant::Chess960)
        );
        assert_eq!(Variant::from_pgn_tag(Some("Bughouse")), None);
        assert_eq!(
            Variant::from_pgn_tag(Some("From Position")),
            Some(Variant::Standard)
        );
        // Every tag this bot writes reads back to its variant.
        for v in Variant::ALL {
            assert_eq!(Variant::from_pgn_tag(v.pgn_tag()), Some(v));
        }
    }
}
