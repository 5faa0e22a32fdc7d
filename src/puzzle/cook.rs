//! The solution line, as a step machine: [`Cook`] asks for one search at a
//! time ([`Request`]: a position and how many principal variations), is
//! given the engine's answer ([`Candidate`]s, best first), and in the end
//! says whether the position is a puzzle and what its solution is. The
//! engine driver (`service/puzzle_mining.rs`) runs the loop; the rules
//! here never wait on anything, so they are tested with hand-made answers.
//!
//! The rules are lichess's (`generator.py`, `cook_mate` and
//! `cook_advantage`; thresholds in [`super::criteria`]):
//!
//! - On the solver's turn two lines are asked for; on the opponent's, one
//!   (the engine's reply is the bot's reply).
//! - A **mate** line must stay a forced mate within 15 at every solver move
//!   and the solver's move must be the only one ([`is_unique`]); it ends in
//!   checkmate. Anything else rejects the position.
//! - An **advantage** line runs while the solver's move is unique; the
//!   first move that is not ends it there. Every position of it must still
//!   be winning (at least +2.00 for the solver), or the line is dropped. It is then cut back until it ends
//!   on a solver's move that had an alternative (a last move with no choice
//!   proves nothing), and it must win material. An advantage line that
//!   turns into a forced mate, or repeats a position, is rejected (lichess
//!   rejects both: the mate is found from its own start instead).

use shakmaty::{uci::UciMove, Board, Chess, Color, Move, Position};

use super::{
    criteria::{is_unique, still_winning, Kind, MATE_SOON, MAX_PLIES, MIN_MATERIAL_GAIN},
    material_diff,
};
use crate::engine::Score;

/// One principal variation's first move and its evaluation, as the engine
/// prints it: from the point of view of the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// UCI (`e2e4`, `e7e8q`).
    pub uci: String,
    pub score: Score,
}

impl Candidate {
    pub fn new(uci: &str, score: Score) -> Candidate {
        Candidate {
            uci: uci.to_owned(),
            score,
        }
    }
}

/// The search the cook needs next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub position: Chess,
    /// How many principal variations (2 on the solver's turn, 1 on the
    /// opponent's).
    pub lines: usize,
}

/// Why a position is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Reject {
    #[error("two moves win equally")]
    NotUnique,
    #[error("the mate is not forced within {MATE_SOON} moves")]
    NoMate,
    #[error("the advantage line turned into a mate")]
    MateInAdvantage,
    #[error("the line repeats a position")]
    Repetition,
    #[error("the line ends without checkmate or stalemates")]
    NoCheckmate,
    #[error("no line is left once trimmed")]
    TooShort,
    #[error("the advantage line fell below +2.00")]
    NotWinningEnough,
    #[error("the line wins no material")]
    NoMaterialGain,
    #[error("the engine named no move or an illegal one: {0}")]
    Engine(String),
}

/// A puzzle's solution: the solver's moves at even indices, the replies at
/// odd ones; always ends on a solver's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub kind: Kind,
    pub moves: Vec<Move>,
}

/// The step machine (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Cook {
    start: Chess,
    solver: Color,
    kind: Kind,
    position: Chess,
    moves: Vec<Move>,
    /// For each solver move: whether it had an alternative.
    had_choice: Vec<bool>,
    seen: Vec<(Board, Color)>,
    /// Set once the line is over.
    verdict: Option<Result<Solution, Reject>>,
}

impl Cook {
    /// Starts on `start` (the solver is the side to move) for a puzzle of
    /// `kind`.
    pub fn new(start: Chess, kind: Kind) -> Cook {
        let seen = vec![(start.board().clone(), start.turn())];
        Cook {
            solver: start.turn(),
            position: start.clone(),
            start,
            kind,
            moves: Vec::new(),
            had_choice: Vec::new(),
            seen,
            verdict: None,
        }
    }

    /// The next search to run, `None` once the line is decided.
    pub fn request(&mut self) -> Option<Request> {
        if self.verdict.is_some() {
            return None;
        }
        if self.position.is_game_over() {
            self.verdict = Some(self.finish());
            return None;
        }
        if self.kind == Kind::Advantage && self.moves.len() >= MAX_PLIES {
            self.verdict = Some(self.finish());
            return None;
        }
        let lines = if self.position.turn() == self.solver {
            2
        } else {
            1
        };
        Some(Request {
            position: self.position.clone(),
            lines,
        })
    }

    /// The engine's answer to the last [`Request`], best line first.
    pub fn answer(&mut self, lines: &[Candidate]) {
        if self.verdict.is_some() {
            return;
        }
        if let Err(reject) = self.step(lines) {
            self.verdict = Some(Err(reject));
        }
    }

    /// The verdict: runs [`Cook::request`] once more if needed, so a line
    /// that just ended is judged.
    pub fn result(mut self) -> Result<Solution, Reject> {
        if self.verdict.is_none() && self.request().is_some() {
            return Err(Reject::Engine("the line was left unfinished".to_owned()));
        }
        self.verdict.unwrap_or(Err(Reject::TooShort))
    }

    fn step(&mut self, lines: &[Candidate]) -> Result<(), Reject> {
        let Some(best) = lines.first() else {
            return Err(Reject::Engine("no line".to_owned()));
        };
        let mv = UciMove::from_ascii(best.uci.as_bytes())
            .ok()
            .and_then(|m| m.to_move(&self.position).ok())
            .ok_or_else(|| Reject::Engine(best.uci.clone()))?;
        if self.position.turn() == self.solver {
            let later = !self.moves.is_empty();
            let second = lines.get(1).map(|c| c.score);
            let unique = is_unique(best.score, second, later);
            match self.kind {
                Kind::Mate => {
                    if !matches!(best.score, Score::Mate(n) if (1..=MATE_SOON).contains(&n)) {
                        return Err(Reject::NoMate);
                    }
                    if !unique {
                        return Err(Reject::NotUnique);
                    }
                }
                Kind::Advantage => {
                    if !unique {
                        self.verdict = Some(self.finish());
                        return Ok(());
                    }
                    if matches!(best.score, Score::Mate(_)) {
                        return Err(Reject::MateInAdvantage);
                    }
                }
            }
            self.had_choice.push(second.is_some());
        }
        if self.kind == Kind::Advantage {
            let for_solver = if self.position.turn() == self.solver {
                best.score
            } else {
                best.score.flip()
            };
            if !still_winning(for_solver) {
                return Err(Reject::NotWinningEnough);
            }
        }
        self.position.play_unchecked(mv);
        self.moves.push(mv);
        let key = (self.position.board().clone(), self.position.turn());
        if self.seen.contains(&key) {
            return Err(Reject::Repetition);
        }
        self.seen.push(key);
        Ok(())
    }

    fn finish(&self) -> Result<Solution, Reject> {
        let mut moves = self.moves.clone();
        match self.kind {
            Kind::Mate => {
                if !self.position.is_checkmate() {
                    return Err(Reject::NoCheckmate);
                }
            }
            Kind::Advantage => {
                // Cut back to a solver's move that had an alternative.
                while !moves.is_empty()
                    && (moves.len().is_multiple_of(2) || !self.had_choice[moves.len() / 2])
                {
                    moves.pop();
                }
                if moves.is_empty() {
                    return Err(Reject::TooShort);
                }
                let mut end = self.start.clone();
                for mv in &moves {
                    end.play_unchecked(*mv);
                }
                let gain =
                    material_diff(&end, self.solver) - material_diff(&self.start, self.solver);
                if !end.is_checkmate() && gain <= MIN_MATERIAL_GAIN {
                    return Err(Reject::NoMaterialGain);
                }
            }
        }
        Ok(Solution {
            kind: self.kind,
            moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, CastlingMode};

    use super::*;
    use crate::puzzle::uci_of;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    fn c(uci: &str, score: Score) -> Candidate {
        Candidate::new(uci, score)
    }

    /// Runs `cook` against scripted answers, checking each request's
    /// number of lines, and returns the verdict as UCI.
    fn run(mut cook: Cook, script: &[(usize, Vec<Candidate>)]) -> Result<Vec<String>, Reject> {
        for (lines, answer) in script {
            let request = cook.request().expect("the cook asks for a search");
            assert_eq!(request.lines, *lines, "lines asked for");
            cook.answer(answer);
        }
        let solution = cook.result()?;
        Ok(solution.moves.iter().map(uci_of).collect())
    }

    const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

    #[test]
    fn a_unique_mate_in_one() {
        let cook = Cook::new(pos(BACK_RANK), Kind::Mate);
        let got = run(
            cook,
            &[(
                2,
                vec![c("a1a8", Score::Mate(1)), c("h2h3", Score::Cp(150))],
            )],
        );
        assert_eq!(got, Ok(vec!["a1a8".to_owned()]));
    }

    #[test]
    fn two_mates_in_one_are_no_puzzle() {
        // Two rooks: Ra8# and Rb8# both mate.
        let cook = Cook::new(pos("6k1/5ppp/8/8/8/8/5PPP/RR4K1 w - - 0 1"), Kind::Mate);
        let got = run(
            cook,
            &[(
                2,
                vec![c("a1a8", Score::Mate(1)), c("b1b8", Score::Mate(1))],
            )],
        );
        assert_eq!(got, Err(Reject::NotUnique));
    }

    #[test]
    fn a_mate_in_two_with_the_kings_help() {
        // 1.Kb6 Kb8 2.Rh8#.
        let cook = Cook::new(pos("k7/8/2K5/8/8/8/8/7R w - - 0 1"), Kind::Mate);
        let got = run(
            cook,
            &[
                (2, vec![c("c6b6", Score::Mate(2)), c("h1h7", Score::Cp(30))]),
                (1, vec![c("a8b8", Score::Mate(-1))]),
                // A second mate in 1 on the last move is accepted.
                (
                    2,
                    vec![c("h1h8", Score::Mate(1)), c("h1h8", Score::Mate(1))],
                ),
            ],
        );
        assert_eq!(
            got,
            Ok(vec![
                "c6b6".to_owned(),
                "a8b8".to_owned(),
                "h1h8".to_owned()
            ])
        );
    }

    #[test]
    fn a_mate_that_is_lost_on_the_way_rejects_the_position() {
        let cook = Cook::new(pos("k7/8/2K5/8/8/8/8/7R w - - 0 1"), Kind::Mate);
        let got = run(
            cook,
            &[
                (2, vec![c("c6b6", Score::Mate(2)), c("h1h7", Score::Cp(30))]),
                (1, vec![c("a8b8", Score::Mate(-1))]),
                (
                    2,
                    vec![c("h1h7", Score::Cp(900)), c("h1h2", Score::Cp(800))],
                ),
            ],
        );
        assert_eq!(got, Err(Reject::NoMate));
        // And a mate in 2 whose second move mates just as fast is no puzzle.
        let cook = Cook::new(pos("k7/8/2K5/8/8/8/8/7R w - - 0 1"), Kind::Mate);
        let got = run(
            cook,
            &[(
                2,
                vec![c("c6b6", Score::Mate(2)), c("c6c7", Score::Mate(2))],
            )],
        );
        assert_eq!(got, Err(Reject::NotUnique));
    }

    /// The knight fork Nc7+ then Nxa8: unique twice, then a quiet
    /// position where two moves are equal ends the line.
    const FORK: &str = "r3k3/8/8/1N6/8/8/6PP/6K1 w - - 0 1";

    #[test]
    fn an_advantage_line_runs_while_the_move_is_unique() {
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        let got = run(
            cook,
            &[
                (
                    2,
                    vec![c("b5c7", Score::Cp(700)), c("g1f2", Score::Cp(-300))],
                ),
                (1, vec![c("e8d7", Score::Cp(-700))]),
                (
                    2,
                    vec![c("c7a8", Score::Cp(750)), c("c7b5", Score::Cp(-250))],
                ),
                (1, vec![c("d7c8", Score::Cp(-750))]),
                (
                    2,
                    vec![c("g1f2", Score::Cp(760)), c("h2h4", Score::Cp(750))],
                ),
            ],
        );
        assert_eq!(
            got,
            Ok(vec![
                "b5c7".to_owned(),
                "e8d7".to_owned(),
                "c7a8".to_owned()
            ])
        );
    }

    #[test]
    fn an_advantage_without_a_unique_first_move_is_no_puzzle() {
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        let got = run(
            cook,
            &[(
                2,
                vec![c("b5c7", Score::Cp(700)), c("b5d6", Score::Cp(680))],
            )],
        );
        assert_eq!(got, Err(Reject::TooShort));
    }

    #[test]
    fn an_advantage_that_fades_below_two_pawns_is_dropped() {
        // Nc7+ looks winning, but the engine's reply shows the solver at
        // only +1.50 afterwards: lichess's "not winning enough".
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        let got = run(
            cook,
            &[
                (
                    2,
                    vec![c("b5c7", Score::Cp(700)), c("g1f2", Score::Cp(-300))],
                ),
                (1, vec![c("e8d7", Score::Cp(-150))]),
            ],
        );
        assert_eq!(got, Err(Reject::NotWinningEnough));
    }

    #[test]
    fn a_line_that_wins_nothing_is_no_puzzle() {
        // Nc7+ is unique by evaluation, but the line ends before the rook
        // is taken: no material won.
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        let got = run(
            cook,
            &[
                (
                    2,
                    vec![c("b5c7", Score::Cp(700)), c("g1f2", Score::Cp(-300))],
                ),
                (1, vec![c("e8d7", Score::Cp(-700))]),
                (
                    2,
                    vec![c("c7a8", Score::Cp(750)), c("c7b5", Score::Cp(720))],
                ),
            ],
        );
        assert_eq!(got, Err(Reject::NoMaterialGain));
    }

    #[test]
    fn a_last_move_without_choice_is_cut() {
        // The same fork, but Nxa8 comes as the engine's only line (no
        // alternative): the line is cut back to Nc7+, which wins nothing
        // yet. Kept, Nxa8 would have won a rook.
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        let got = run(
            cook,
            &[
                (
                    2,
                    vec![c("b5c7", Score::Cp(700)), c("g1f2", Score::Cp(-300))],
                ),
                (1, vec![c("e8d7", Score::Cp(-700))]),
                (2, vec![c("c7a8", Score::Cp(750))]),
                (1, vec![c("d7c8", Score::Cp(-750))]),
                (
                    2,
                    vec![c("g1f2", Score::Cp(760)), c("h2h4", Score::Cp(750))],
                ),
            ],
        );
        assert_eq!(got, Err(Reject::NoMaterialGain));
    }

    #[test]
    fn an_advantage_that_becomes_a_mate_or_repeats_is_rejected() {
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        let got = run(
            cook,
            &[(2, vec![c("b5c7", Score::Mate(4)), c("g1f2", Score::Cp(0))])],
        );
        assert_eq!(got, Err(Reject::MateInAdvantage));
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        let got = run(
            cook,
            &[
                (
                    2,
                    vec![c("b5c3", Score::Cp(700)), c("g1f2", Score::Cp(-300))],
                ),
                (1, vec![c("e8d8", Score::Cp(-700))]),
                (
                    2,
                    vec![c("c3b5", Score::Cp(700)), c("g1f2", Score::Cp(-300))],
                ),
                (1, vec![c("d8e8", Score::Cp(-700))]),
            ],
        );
        assert_eq!(got, Err(Reject::Repetition));
    }

    #[test]
    fn nonsense_from_the_engine_is_a_rejection_not_a_panic() {
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        assert!(matches!(
            run(cook, &[(2, vec![c("e2e4", Score::Cp(700))])]),
            Err(Reject::Engine(_))
        ));
        let cook = Cook::new(pos(FORK), Kind::Advantage);
        assert!(matches!(run(cook, &[(2, vec![])]), Err(Reject::Engine(_))));
    }
}
