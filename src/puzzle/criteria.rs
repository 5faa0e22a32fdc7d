//! The thresholds that make a position a puzzle, and where they come from.
//!
//! They are lichess's, from its open-source puzzle generator
//! (`github.com/ornicar/lichess-puzzler`, `generator/generator.py`, version
//! 49, and `generator/util.py`), which made the millions of puzzles on
//! lichess.org from analysed games. (The first slice followed version 16,
//! whose looser margin of 0.42 let through one-move captures that a deeper
//! search no longer found unique; version 49 asks for 0.7.)
//!
//! - **Win chances** ([`win_chances`]): `2 / (1 + exp(−0.004 · cp)) − 1`,
//!   a mate counting as ±1 (`util.win_chances`; the generator's own
//!   constant, not the analysis page's 0.00368). Lichess counts a mate
//!   *against* the solver as 0; we count it as −1, which only makes such a
//!   second move look worse, as it is.
//! - **The only winning move** ([`is_unique`], `is_valid_attack`): the
//!   engine's best move is the puzzle's move when there is no second move,
//!   or the best's win chances exceed the second's by more than
//!   [`UNIQUE_MARGIN`] (0.7), or the best is mate in 1 and the second
//!   leaves at most [`MATE_IN_ONE_SECOND_AT_MOST`] (0.6) win chances
//!   (`is_valid_mate_in_one`). Two moves that win equally (two mates in 2,
//!   +8 and +7.5) fail every one of these: the position is no puzzle, or
//!   the line stops before it. Where the first move has two mates in 1,
//!   lichess searches on for the best non-mating move; we reject the
//!   position (stricter). On a *later* move of a mating line a second mate
//!   in 1 is accepted (lichess's puzzle page takes any mating move as the
//!   last answer, and so does ours).
//! - **Positions worth probing in a game** ([`probe`], `analyze_position`):
//!   at least two legal moves; the solver not already up in material; then
//!   either a forced mate within [`MATE_SOON`] (15) moves, or — when the
//!   solver was not already winning before the opponent's last move (not
//!   above [`ALREADY_WINNING`], +3.00) — an evaluation of at least
//!   [`WINNING_FLOOR`] (+2.00) whose win chances jumped by more than
//!   [`PROBE_JUMP`] (0.6) from the position before, and, below +4.00, only
//!   when the solver was down in material (a swing from a blunder, not a
//!   slow squeeze). Lichess leaves out mates in 1 found in most games; we
//!   keep them: a club's beginners (30级) need easy puzzles too.
//! - **An advantage line stays winning** ([`WINNING_FLOOR`],
//!   `cook_advantage`): every position of the line must still be at least
//!   +2.00 for the solver, or the whole line is dropped ("not winning
//!   enough").
//! - **Material puzzles** ([`MIN_MATERIAL_GAIN`]): a line that does not mate
//!   must win more than one pawn unit of material (`gain > 1`), counted P 1,
//!   N 3, B 3, R 5, Q 9 (`util.material_count`).
//!
//! Where we differ on purpose: lichess discards advantage puzzles of one
//! move; we keep them (with the margin of 0.7 they are real only-moves), for
//! the same beginners. An advantage line is cut at [`MAX_PLIES`] plies,
//! which bounds the engine time one probe can take.

use shakmaty::{Chess, Position};

use super::material_diff;
use crate::engine::Score;

/// The generator's win-chance constant (`util.win_chances`).
pub const WIN_CHANCE_K: f64 = 0.004;
/// How much better (in win chances, −1..1) the best move must be than the
/// second for it to be the only move (`is_valid_attack`).
pub const UNIQUE_MARGIN: f64 = 0.7;
/// A mate in 1 is the only move when the second move leaves at most these
/// win chances (`is_valid_mate_in_one`'s `non_mate_win_threshold`).
pub const MATE_IN_ONE_SECOND_AT_MOST: f64 = 0.6;
/// Mates this far away or nearer are probed (`mate_soon = Mate(15)`).
pub const MATE_SOON: i32 = 15;
/// A position after which the solver was already this well off (cp) is
/// not an advantage puzzle's start.
pub const ALREADY_WINNING: i32 = 300;
/// An advantage puzzle starts at, and its line keeps, at least this (cp).
pub const WINNING_FLOOR: i32 = 200;
/// Below this (cp), an advantage probe needs the solver down in material.
pub const CLEARLY_WINNING: i32 = 400;
/// The jump in win chances that makes a position worth probing.
pub const PROBE_JUMP: f64 = 0.6;
/// An advantage (not mating) line must win more material than this.
pub const MIN_MATERIAL_GAIN: i32 = 1;
/// Longest advantage line (plies) before it is cut.
pub const MAX_PLIES: usize = 15;

/// What kind of puzzle a position promises.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A forced mate: every solver move must keep mating.
    Mate,
    /// A decisive gain: the line runs while the solver's move is unique
    /// and must win material.
    Advantage,
}

/// The generator's win chances (−1..1) of the side whose view `score` is.
pub fn win_chances(score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => -1.0,
        Score::Cp(cp) => 2.0 / (1.0 + (-WIN_CHANCE_K * f64::from(cp)).exp()) - 1.0,
    }
}

/// Whether `score` is below `cp` centipawns, mates ordered as python-chess
/// orders them (a mate for the side is above every centipawn value, a mate
/// against it below).
pub fn below(score: Score, cp: i32) -> bool {
    match score {
        Score::Cp(c) => c < cp,
        Score::Mate(n) => n <= 0,
    }
}

/// Whether the best move (score `best`, solver's view) is the only one
/// that wins, against the second best (`None`: there is no other legal
/// move). `later`: a later move of the line, where a second mate in 1 is
/// also a right answer.
pub fn is_unique(best: Score, second: Option<Score>, later: bool) -> bool {
    let Some(second) = second else {
        return true;
    };
    match best {
        Score::Mate(1) if second == Score::Mate(1) => later,
        Score::Mate(1) => win_chances(second) <= MATE_IN_ONE_SECOND_AT_MOST,
        _ => win_chances(best) > win_chances(second) + UNIQUE_MARGIN,
    }
}

/// Whether the best move is the only one that *wins* (the deeper re-check's
/// question, `chessbot puzzles check`): the best wins (a mate, or at least
/// [`WINNING_FLOOR`]) and the second does not; or there is no second move;
/// or, on a later move, both mate at once. Looser than [`is_unique`] where
/// the second is far from winning but the margin is just short of 0.7.
pub fn only_winning_move(best: Score, second: Option<Score>, later: bool) -> bool {
    let Some(second) = second else {
        return true;
    };
    if later && best == Score::Mate(1) && second == Score::Mate(1) {
        return true;
    }
    still_winning(best) && below(second, WINNING_FLOOR)
}

/// How much narrower than [`UNIQUE_MARGIN`] (and wider than
/// [`MATE_IN_ONE_SECOND_AT_MOST`]) the screen lets a cheap search's margin
/// be: a low-node search misjudges a move by a few tenths of win chances
/// now and then, and a puzzle dropped by the screen is lost for good.
pub const SCREEN_SLACK: f64 = 0.25;

/// The screen in front of the full line search: whether a cheap multi-PV
/// search's best two moves (solver's view) leave room for a unique first
/// move. `false` only when they clearly do not — two mates in 1, or a
/// second move within [`UNIQUE_MARGIN`] − [`SCREEN_SLACK`] of the best —
/// so the expensive searches are spent on positions that may pass
/// [`is_unique`] (the cook's first step, which decides, is as strict as
/// ever).
pub fn may_be_unique(best: Score, second: Option<Score>) -> bool {
    let Some(second) = second else {
        return true;
    };
    match best {
        Score::Mate(1) if second == Score::Mate(1) => false,
        Score::Mate(1) => win_chances(second) <= MATE_IN_ONE_SECOND_AT_MOST + SCREEN_SLACK,
        _ => win_chances(best) > win_chances(second) + UNIQUE_MARGIN - SCREEN_SLACK,
    }
}

/// Whether an advantage line's position (`score` from the solver's view)
/// is still winning enough to go on (`cook_advantage`).
pub fn still_winning(score: Score) -> bool {
    !below(score, WINNING_FLOOR)
}

/// Whether a game's position is worth probing, and for what kind of
/// puzzle. `before`: the evaluation before the opponent's last move, `now`:
/// the evaluation of `position`, both from the side to move's view.
pub fn probe(position: &Chess, before: Score, now: Score) -> Option<Kind> {
    if position.legal_moves().len() < 2 {
        return None;
    }
    let solver = position.turn();
    if material_diff(position, solver) > 0 {
        return None;
    }
    match now {
        Score::Mate(n) if (1..=MATE_SOON).contains(&n) => Some(Kind::Mate),
        Score::Mate(_) => None,
        _ if !below(before, ALREADY_WINNING + 1) => None,
        Score::Cp(cp)
            if cp >= WINNING_FLOOR && win_chances(now) > win_chances(before) + PROBE_JUMP =>
        {
            if cp < CLEARLY_WINNING && material_diff(position, solver) > -1 {
                None
            } else {
                Some(Kind::Advantage)
            }
        }
        Score::Cp(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, CastlingMode};

    use super::*;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn win_chances_are_the_generators() {
        assert_eq!(win_chances(Score::Cp(0)), 0.0);
        assert!((win_chances(Score::Cp(200)) - 0.379_949).abs() < 1e-5);
        assert_eq!(win_chances(Score::Mate(3)), 1.0);
        assert_eq!(win_chances(Score::Mate(-2)), -1.0);
        assert!(win_chances(Score::Cp(-300)) < 0.0);
    }

    #[test]
    fn a_single_legal_move_is_unique() {
        assert!(is_unique(Score::Cp(50), None, false));
    }

    #[test]
    fn the_margin_decides_between_two_centipawn_moves() {
        // +9.00 (0.947) against +1.00 (0.197): 0.75 > 0.7, unique; +6.00
        // (0.834) against +1.00 is short of it (version 16 took it).
        assert!(is_unique(Score::Cp(900), Some(Score::Cp(100)), false));
        assert!(!is_unique(Score::Cp(600), Some(Score::Cp(100)), false));
        // +8.00 against +7.50: two moves win equally.
        assert!(!is_unique(Score::Cp(800), Some(Score::Cp(750)), false));
        // +3.00 (0.537) against 0.00: short of 0.7 (version 16's 0.42
        // took it); against -1.00 (-0.197) it is the only move.
        assert!(!is_unique(Score::Cp(300), Some(Score::Cp(0)), false));
        assert!(is_unique(Score::Cp(300), Some(Score::Cp(-100)), false));
    }

    #[test]
    fn mates() {
        // Mate in 1 against a second move worth +3.00 (0.537 <= 0.6).
        assert!(is_unique(Score::Mate(1), Some(Score::Cp(300)), false));
        // ... against +9.00 (0.946): the second move wins too.
        assert!(!is_unique(Score::Mate(1), Some(Score::Cp(900)), false));
        // Two mates in 1: no puzzle at the start, either answer later.
        assert!(!is_unique(Score::Mate(1), Some(Score::Mate(1)), false));
        assert!(is_unique(Score::Mate(1), Some(Score::Mate(1)), true));
        // Longer mates take the margin: the second must be below about +1.55.
        assert!(is_unique(Score::Mate(2), Some(Score::Cp(150)), false));
        assert!(!is_unique(Score::Mate(2), Some(Score::Cp(160)), false));
        assert!(!is_unique(Score::Mate(2), Some(Score::Mate(2)), false));
        assert!(is_unique(Score::Mate(3), Some(Score::Mate(-4)), false));
        // A long mate against a slightly slower mate: both win, rejected.
        assert!(!is_unique(Score::Mate(5), Some(Score::Mate(7)), false));
        assert!(is_unique(Score::Mate(5), Some(Score::Cp(-50)), false));
    }

    #[test]
    fn the_only_winning_move() {
        // Winning a piece (+4.55) against an equal +0.33: short of the
        // margin (0.655), but the only move that wins.
        assert!(!is_unique(Score::Cp(455), Some(Score::Cp(33)), false));
        assert!(only_winning_move(
            Score::Cp(455),
            Some(Score::Cp(33)),
            false
        ));
        // A second move at +2.00 wins too.
        assert!(!only_winning_move(
            Score::Cp(900),
            Some(Score::Cp(200)),
            false
        ));
        // A mate against a second move that also mates, or wins.
        assert!(!only_winning_move(
            Score::Mate(2),
            Some(Score::Mate(3)),
            false
        ));
        assert!(!only_winning_move(
            Score::Mate(1),
            Some(Score::Mate(1)),
            false
        ));
        assert!(only_winning_move(
            Score::Mate(1),
            Some(Score::Mate(1)),
            true
        ));
        assert!(only_winning_move(
            Score::Mate(3),
            Some(Score::Cp(150)),
            false
        ));
        // The best no longer wins.
        assert!(!only_winning_move(
            Score::Cp(150),
            Some(Score::Cp(-400)),
            false
        ));
        assert!(only_winning_move(Score::Cp(150), None, false));
    }

    #[test]
    fn the_screen_drops_only_what_clearly_is_no_puzzle() {
        // Everything the full rule takes, the screen takes.
        for (best, second) in [
            (Score::Cp(900), Some(Score::Cp(100))),
            (Score::Cp(300), Some(Score::Cp(-100))),
            (Score::Mate(1), Some(Score::Cp(300))),
            (Score::Mate(3), Some(Score::Mate(-4))),
            (Score::Cp(50), None),
        ] {
            assert!(is_unique(best, second, false));
            assert!(may_be_unique(best, second), "{best:?} {second:?}");
        }
        // Near misses of the margin go on to the full search: +6.00
        // against +1.00 (0.64) and a piece won, +4.55 against +0.33 (0.655).
        assert!(may_be_unique(Score::Cp(600), Some(Score::Cp(100))));
        assert!(may_be_unique(Score::Cp(455), Some(Score::Cp(33))));
        // A mate in 1 against a second move worth +4.00 (0.66 > 0.6).
        assert!(may_be_unique(Score::Mate(1), Some(Score::Cp(400))));
        // Clearly not unique: two moves win equally, two mates in 1, a
        // mate in 1 beside another crushing move, two mates.
        assert!(!may_be_unique(Score::Cp(800), Some(Score::Cp(750))));
        assert!(!may_be_unique(Score::Cp(300), Some(Score::Cp(100))));
        assert!(!may_be_unique(Score::Mate(1), Some(Score::Mate(1))));
        assert!(!may_be_unique(Score::Mate(1), Some(Score::Cp(1_200))));
        assert!(!may_be_unique(Score::Mate(2), Some(Score::Mate(3))));
    }

    #[test]
    fn an_advantage_line_stays_above_two_pawns() {
        assert!(still_winning(Score::Cp(200)));
        assert!(still_winning(Score::Mate(4)));
        assert!(!still_winning(Score::Cp(199)));
        assert!(!still_winning(Score::Mate(-3)));
    }

    #[test]
    fn probing_a_games_positions() {
        // White to move, material level, a mate in 2 appeared.
        let level = pos("r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
        assert_eq!(
            probe(&level, Score::Cp(10), Score::Mate(2)),
            Some(Kind::Mate)
        );
        assert_eq!(probe(&level, Score::Cp(10), Score::Mate(16)), None);
        // Already winning before the opponent's move: still a mate
        // puzzle, but no advantage puzzle.
        assert_eq!(
            probe(&level, Score::Cp(450), Score::Mate(2)),
            Some(Kind::Mate)
        );
        assert_eq!(probe(&level, Score::Cp(310), Score::Cp(900)), None);
        // A big jump to +5: an advantage probe.
        assert_eq!(
            probe(&level, Score::Cp(0), Score::Cp(500)),
            Some(Kind::Advantage)
        );
        // +1.00 to +4.50 is a jump of 0.52 (version 16's 0.5 took it).
        assert_eq!(probe(&level, Score::Cp(100), Score::Cp(450)), None);
        // A jump of 0.7 to below +2.00 is not winning enough.
        assert_eq!(probe(&level, Score::Cp(-300), Score::Cp(190)), None);
        // A jump to +3.50 with level material: not clearly winning.
        assert_eq!(probe(&level, Score::Cp(-150), Score::Cp(350)), None);
        // No jump.
        assert_eq!(probe(&level, Score::Cp(300), Score::Cp(500)), None);
        // Up in material already: not a puzzle's start.
        let up = pos("r5k1/5ppp/8/8/8/8/5PPP/R2Q2K1 w - - 0 1");
        assert_eq!(probe(&up, Score::Cp(0), Score::Mate(2)), None);
        // Down four (a rook against a queen), a jump to +3.50: the swing of a blunder.
        let down = pos("1q4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
        assert_eq!(
            probe(&down, Score::Cp(-150), Score::Cp(350)),
            Some(Kind::Advantage)
        );
        // One legal move only.
        let forced = pos("k7/8/8/8/8/8/r7/7K w - - 0 1");
        assert_eq!(forced.legal_moves().len(), 1);
        assert_eq!(probe(&forced, Score::Cp(-900), Score::Cp(0)), None);
    }
}
