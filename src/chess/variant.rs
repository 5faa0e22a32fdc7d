//! The variant a game is played in, named by lichess's keys (`standard`,
//! `chess960`). An enum rather than a flag: lichess's other variants
//! (crazyhouse, atomic, …) join it as cases, and every place that asks
//! "which rules?" already asks it.
//!
//! What a variant decides here: the castling mode shakmaty plays with (in
//! Chess960 the king castles onto its rook, and UCI writes it so), the PGN
//! `Variant` tag, and whether a start position has a number.

use shakmaty::CastlingMode;

use crate::{i18n::Lang, t};

/// The rules a game is played by.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    #[default]
    Standard,
    /// Fischer random chess: one of 960 start positions, castling king onto
    /// rook.
    Chess960,
}

impl Variant {
    /// Every variant, standard first (the order of option lists).
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Chess960];

    /// lichess's key, lower case: what options take and the store keeps.
    pub const fn key(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960 => "chess960",
        }
    }

    /// The variant of a lichess key (case and spaces forgiven: `Chess960`,
    /// `chess 960`).
    pub fn from_key(key: &str) -> Option<Variant> {
        let squashed: String = key
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        Variant::ALL
            .into_iter()
            .find(|v| v.key() == squashed)
            .or_else(|| {
                matches!(squashed.as_str(), "960" | "fischerandom" | "fischerrandom")
                    .then_some(Variant::Chess960)
            })
    }

    /// The value of PGN's `Variant` tag (lichess writes `Chess960`; other
    /// programs write `Fischerandom` or `chess 960`). A missing tag or
    /// `Standard` is standard chess; `None` for a variant not played here.
    pub fn from_pgn_tag(tag: Option<&str>) -> Option<Variant> {
        match tag.map(str::trim) {
            None | Some("") => Some(Variant::Standard),
            Some(name) => Variant::from_key(name),
        }
    }

    /// The name PGN's `Variant` tag carries (`None` for standard chess,
    /// which has no tag).
    pub const fn pgn_tag(self) -> Option<&'static str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 => Some("Chess960"),
        }
    }

    /// How shakmaty reads and writes castling in this variant.
    pub const fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// Whether its start positions are numbered (Chess960's 0–959).
    pub const fn numbered_starts(self) -> bool {
        matches!(self, Variant::Chess960)
    }

    /// Its name as people read it, in `lang` (`Chess960`, `960国际象棋`).
    pub fn name(self, lang: Lang) -> String {
        match self {
            Variant::Standard => t!(lang, "variant-standard"),
            Variant::Chess960 => t!(lang, "variant-chess960"),
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
        assert_eq!(Variant::from_key("crazyhouse"), None);
        assert_eq!(Variant::from_key(""), None);
        assert_eq!(Variant::from_pgn_tag(None), Some(Variant::Standard));
        assert_eq!(
            Variant::from_pgn_tag(Some("Fischerandom")),
            Some(Variant::Chess960)
        );
        assert_eq!(Variant::from_pgn_tag(Some("Atomic")), None);
    }
}
