//! Where a challenged game starts: its variant and start position, read
//! from the challenge's `variant`, `position` and `fen` options and checked
//! before anything is stored.
//!
//! - no variant (or `standard`): standard chess, from the usual start or
//!   the FEN given;
//! - `chess960`: start position `position` (0–959), or one drawn at random
//!   when it is left out, so that the challenged player sees the position
//!   before accepting; or a Chess960 FEN;
//! - lichess's other variants (`crazyhouse`, `atomic`, `antichess`,
//!   `kingofthehill`, `threecheck`, `horde`, `racingkings`): the variant's
//!   usual start, or a FEN that is legal in that variant.
//!
//! Refused: a variant this bot does not play, a position outside 0–959, a
//! position with standard chess, a position and a FEN together.

use super::error::{check_length, refuse, refuse_msg, ServiceError};
use crate::{
    chess::{chess960, Game, Variant},
    i18n::Lang,
    msg, t,
};

/// A challenge's start, ready to store and to draw.
#[derive(Clone, Debug)]
pub(super) struct Start {
    pub variant: Variant,
    /// The Chess960 start position's number.
    pub number: Option<u16>,
    /// The FEN a replay starts from (`None`: standard chess's start).
    pub fen: Option<String>,
    /// Whether the position was set up by the challenger (a FEN): such
    /// games are never rated.
    pub set_up: bool,
    /// The game as it stands before the first move.
    pub game: Game,
}

/// A variant option (`/challenge`, `/leaderboard`) by lichess's key; one
/// this bot does not play is refused, with the keys it knows.
pub(super) fn read_variant(text: &str) -> Result<Variant, ServiceError> {
    check_length("variant", text, 32)?;
    match Variant::from_key(text) {
        Some(v) => Ok(v),
        None => {
            let known: Vec<&str> = Variant::ALL.iter().map(|v| v.key()).collect();
            refuse_msg(msg!(
                "challenge-variant-unknown",
                variant = super::error::echo(text, 32),
                known = known.join(", ")
            ))
        }
    }
}

/// Reads the options (`lang`: the asker's, for what is wrong with a FEN);
/// `draw` picks a Chess960 number (below 960) when none is given (the
/// service draws by lot, seeded in the console and tests).
pub(super) fn challenge_start(
    variant: Option<&str>,
    position: Option<i64>,
    fen: Option<&str>,
    lang: Lang,
    draw: impl FnOnce() -> u16,
) -> Result<Start, ServiceError> {
    let variant = match variant {
        None => Variant::Standard,
        Some(text) => read_variant(text)?,
    };
    if let Some(number) = position {
        if !variant.numbered_starts() {
            return refuse_msg(msg!("challenge-position-standard"));
        }
        if !(0..i64::from(chess960::POSITIONS)).contains(&number) {
            return refuse_msg(msg!("challenge-position-range", number = number));
        }
        if fen.is_some() {
            return refuse_msg(msg!("challenge-position-and-fen"));
        }
    }
    if let Some(text) = fen {
        check_length("fen", text, 100)?;
        let game = Game::from_fen_in(variant, text)
            .or_else(|e| refuse(t!(lang, "challenge-fen-invalid", reason = e.0.text(lang))))?;
        if game.is_over() {
            return refuse_msg(msg!("challenge-fen-over"));
        }
        return Ok(Start {
            variant,
            number: game.start_number(),
            fen: game.initial_fen().map(str::to_owned),
            set_up: true,
            game,
        });
    }
    let game = match variant {
        Variant::Standard => Game::new(),
        Variant::Chess960 => {
            let number = match position {
                // In 0..960, checked above.
                Some(n) => u16::try_from(n).unwrap_or(chess960::STANDARD),
                None => draw(),
            };
            Game::chess960(number).ok_or_else(|| {
                ServiceError::Internal(format!("Chess960 position {number} does not set up"))
            })?
        }
        // Lichess's other variants: their own usual start.
        other => Game::start_of(other),
    };
    Ok(Start {
        variant,
        number: game.start_number(),
        fen: game.initial_fen().map(str::to_owned),
        set_up: false,
        game,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(variant: Option<&str>, position: Option<i64>) -> Result<Start, ServiceError> {
        challenge_start(variant, position, None, Lang::En, || 301)
    }

    #[test]
    fn a_chosen_or_drawn_chess960_start() {
        let chosen = start(Some("chess960"), Some(0)).expect("position 0");
        assert_eq!(chosen.variant, Variant::Chess960);
        assert_eq!(chosen.number, Some(0));
        assert_eq!(chosen.fen.as_deref(), chess960::start_fen(0).as_deref());
        assert!(!chosen.set_up);
        let drawn = start(Some("Chess960"), None).expect("drawn");
        assert_eq!(drawn.number, Some(301));
        // Position 518 is still a Chess960 game, with its FEN kept.
        let usual = start(Some("chess960"), Some(518)).expect("518");
        assert_eq!(usual.number, Some(518));
        assert!(usual.fen.is_some());
        let standard = start(None, None).expect("standard");
        assert_eq!((standard.variant, standard.fen), (Variant::Standard, None));
    }

    #[test]
    fn lichess_variants_start_at_their_usual_start() {
        for variant in &Variant::ALL[2..] {
            let usual = start(Some(variant.key()), None).expect("the usual start");
            assert_eq!(usual.variant, *variant);
            assert_eq!((usual.number, usual.fen, usual.set_up), (None, None, false));
            assert_eq!(usual.game.variant(), *variant);
        }
    }

    #[test]
    fn bad_starts_are_refused() {
        let refused = |r: Result<Start, ServiceError>| matches!(r, Err(ServiceError::User(_)));
        assert!(refused(start(Some("shogi"), None)));
        assert!(refused(start(Some("crazyhouse"), Some(3))));
        // A FEN legal in standard chess but not in Horde (White has a king).
        assert!(refused(challenge_start(
            Some("horde"),
            None,
            Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            Lang::En,
            || 0
        )));
        assert!(refused(start(Some("chess960"), Some(960))));
        assert!(refused(start(Some("chess960"), Some(-1))));
        assert!(refused(start(None, Some(3))));
        assert!(refused(start(Some("standard"), Some(3))));
        assert!(refused(challenge_start(
            Some("chess960"),
            Some(3),
            Some("8/8/8/8/8/8/8/K6k w - - 0 1"),
            Lang::En,
            || 0
        )));
    }
}
