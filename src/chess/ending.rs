//! How games end: the result (as PGN writes it), the termination (each
//! ending of SPEC §1 has its own), and the draws the side to move may claim.

use std::fmt;

use shakmaty::Color;

use crate::{i18n::Lang, t};

/// The result of a game, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// Aborted games have no result (`*`) and are not rated.
    NoResult,
}

impl GameResult {
    /// The result in which `winner` won, or a draw.
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The winner, if the game was decisive.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::NoResult => None,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NoResult => "*",
        }
    }

    /// Reads `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        Some(match text {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::NoResult,
            _ => return None,
        })
    }
}

/// Why a game ended. Each ending of SPEC §1 has its own variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Resignation,
    /// A player ran out of time (correspondence deadline or live flag). The
    /// result is a draw when the other side cannot possibly mate (FIDE 6.9).
    Timeout,
    Stalemate,
    /// Neither side can mate: a dead position by insufficient material.
    InsufficientMaterial,
    FivefoldRepetition,
    SeventyFiveMoveRule,
    ThreefoldRepetition,
    FiftyMoveRule,
    Agreement,
    Aborted,
    Adjudication,
    /// The third attempt to move the king into check under the
    /// `strict_illegal_moves` house rule.
    IllegalMoves,
    /// Atomic: the winner's capture blew up the other king.
    Explosion,
    /// King of the Hill: the winner's king reached d4, e4, d5 or e5.
    KingOfTheHill,
    /// Three-check: the winner gave check for the third time.
    ThreeChecks,
    /// Horde: Black took every one of White's pieces.
    HordeDestroyed,
    /// Racing Kings: the winner's king reached the eighth rank first (and
    /// Black could not follow at once).
    RaceWon,
    /// Racing Kings: Black's king reached the eighth rank right after
    /// White's: a draw.
    RaceTied,
    /// Antichess: the winner has no piece left.
    NoPiecesLeft,
    /// Antichess: the winner, to move, has pieces but no legal move.
    NoMovesLeft,
}

impl Termination {
    /// Every termination, for storage round trips and tests.
    pub const ALL: [Termination; 21] = [
        Termination::Checkmate,
        Termination::Resignation,
        Termination::Timeout,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::FivefoldRepetition,
        Termination::SeventyFiveMoveRule,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoveRule,
        Termination::Agreement,
        Termination::Aborted,
        Termination::Adjudication,
        Termination::IllegalMoves,
        Termination::Explosion,
        Termination::KingOfTheHill,
        Termination::ThreeChecks,
        Termination::HordeDestroyed,
        Termination::RaceWon,
        Termination::RaceTied,
        Termination::NoPiecesLeft,
        Termination::NoMovesLeft,
    ];

    /// A stable identifier, used in the database.
    pub const fn id(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation => "resignation",
            Termination::Timeout => "timeout",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoveRule => "seventy_five_move_rule",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoveRule => "fifty_move_rule",
            Termination::Agreement => "agreement",
            Termination::Aborted => "aborted",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMoves => "illegal_moves",
            Termination::Explosion => "explosion",
            Termination::KingOfTheHill => "king_of_the_hill",
            Termination::ThreeChecks => "three_checks",
            Termination::HordeDestroyed => "horde_destroyed",
            Termination::RaceWon => "race_won",
            Termination::RaceTied => "race_tied",
            Termination::NoPiecesLeft => "no_pieces_left",
            Termination::NoMovesLeft => "no_moves_left",
        }
    }

    /// The inverse of [`Termination::id`].
    pub fn from_id(id: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.id() == id)
    }

    /// How a person would say it, in `lang`.
    pub fn text(self, lang: Lang) -> String {
        match self {
            Termination::Checkmate => t!(lang, "termination-checkmate"),
            Termination::Resignation => t!(lang, "termination-resignation"),
            Termination::Timeout => t!(lang, "termination-timeout"),
            Termination::Stalemate => t!(lang, "termination-stalemate"),
            Termination::InsufficientMaterial => t!(lang, "termination-insufficient-material"),
            Termination::FivefoldRepetition => t!(lang, "termination-fivefold-repetition"),
            Termination::SeventyFiveMoveRule => t!(lang, "termination-seventy-five-move-rule"),
            Termination::ThreefoldRepetition => t!(lang, "termination-threefold-repetition"),
            Termination::FiftyMoveRule => t!(lang, "termination-fifty-move-rule"),
            Termination::Agreement => t!(lang, "termination-agreement"),
            Termination::Aborted => t!(lang, "termination-aborted"),
            Termination::Adjudication => t!(lang, "termination-adjudication"),
            Termination::IllegalMoves => t!(lang, "termination-illegal-moves"),
            Termination::Explosion => t!(lang, "termination-explosion"),
            Termination::KingOfTheHill => t!(lang, "termination-king-of-the-hill"),
            Termination::ThreeChecks => t!(lang, "termination-three-checks"),
            Termination::HordeDestroyed => t!(lang, "termination-horde-destroyed"),
            Termination::RaceWon => t!(lang, "termination-race-won"),
            Termination::RaceTied => t!(lang, "termination-race-tied"),
            Termination::NoPiecesLeft => t!(lang, "termination-no-pieces-left"),
            Termination::NoMovesLeft => t!(lang, "termination-no-moves-left"),
        }
    }

    /// How a person would say it in English (logs, tests).
    pub const fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation => "resignation",
            Termination::Timeout => "time forfeit",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient material (neither side can mate)",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoveRule => "the 75-move rule",
            Termination::ThreefoldRepetition => "threefold repetition (claimed)",
            Termination::FiftyMoveRule => "the 50-move rule (claimed)",
            Termination::Agreement => "agreement",
            Termination::Aborted => "abort",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMoves => "three illegal king moves",
            Termination::Explosion => "the enemy king exploded (atomic)",
            Termination::KingOfTheHill => "king reached the centre (king of the hill)",
            Termination::ThreeChecks => "the third check (three-check)",
            Termination::HordeDestroyed => "the horde destroyed (horde)",
            Termination::RaceWon => "reaching the eighth rank first (racing kings)",
            Termination::RaceTied => "both kings reaching the eighth rank (racing kings)",
            Termination::NoPiecesLeft => "losing every piece (antichess)",
            Termination::NoMovesLeft => "having no legal move (antichess)",
        }
    }

    /// The PGN `Termination` tag value (the values lichess and most tools use).
    pub const fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Timeout => "Time forfeit",
            Termination::Aborted => "Abandoned",
            Termination::Adjudication => "Adjudication",
            Termination::IllegalMoves => "Rules infraction",
            _ => "Normal",
        }
    }
}

/// How and with what result a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    pub result: GameResult,
    pub termination: Termination,
}

impl Ending {
    /// Whether this ending counts for the ladder (everything but an abort).
    pub const fn is_rated_result(self) -> bool {
        !matches!(self.result, GameResult::NoResult)
    }
}

impl Ending {
    /// "White wins by checkmate", in `lang`.
    pub fn text(self, lang: Lang) -> String {
        match self.result.winner() {
            Some(winner) => t!(
                lang,
                "ending-win",
                color = color_text(lang, winner),
                termination = self.termination.text(lang)
            ),
            None if self.result == GameResult::Draw => {
                if self.termination == Termination::Timeout {
                    t!(lang, "ending-timeout-draw")
                } else {
                    t!(
                        lang,
                        "ending-draw",
                        termination = self.termination.text(lang)
                    )
                }
            }
            None => t!(lang, "ending-aborted"),
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// "White" / "白方": a colour in `lang`.
pub fn color_text(lang: Lang, color: Color) -> String {
    match color {
        Color::White => t!(lang, "color-white"),
        Color::Black => t!(lang, "color-black"),
    }
}

/// `"White"` or `"Black"`.
pub const fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A draw the side to move may claim (FIDE 9.2, 9.3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    ThreefoldRepetition,
    FiftyMoveRule,
}

impl DrawClaim {
    /// The rule, as a claim still to be made (`describe` of the
    /// termination says it was claimed).
    pub const fn describe(self) -> &'static str {
        match self {
            DrawClaim::ThreefoldRepetition => "threefold repetition",
            DrawClaim::FiftyMoveRule => "the 50-move rule",
        }
    }

    pub const fn termination(self) -> Termination {
        match self {
            DrawClaim::ThreefoldRepetition => Termination::ThreefoldRepetition,
            DrawClaim::FiftyMoveRule => Termination::FiftyMoveRule,
        }
    }
}
