//! Finding puzzles with the engine: the pure rules of [`crate::puzzle`]
//! driven through the [`EnginePool`] (multi-PV searches at full strength).
//! Nothing is stored here; the service and the command line decide where
//! what is found goes.

use shakmaty::{Chess, Position};

use super::{EnginePool, Limits, Score, UciError};
use crate::puzzle::{probe, Candidate, Cook, Found, Kind, Reject, Solution};

/// How deep puzzle searches go. lichess's generator searches far deeper
/// (depth 50, up to 40 M nodes a move); a club's machine cannot, so the
/// starter set is re-checked deeper afterwards (issue 28's quality proof).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleLimits {
    /// Each position of a game, evaluated to see whether to probe it.
    pub scan: Limits,
    /// Each step of a candidate's line (two lines on the solver's turn).
    pub line: Limits,
}

impl Default for PuzzleLimits {
    fn default() -> PuzzleLimits {
        PuzzleLimits {
            scan: Limits {
                movetime_ms: 2_000,
                nodes: 300_000,
                depth: Some(12),
            },
            line: Limits {
                movetime_ms: 5_000,
                nodes: 1_500_000,
                depth: Some(16),
            },
        }
    }
}

/// The engine's `lines` best first moves in `position`, as candidates.
pub async fn candidates(
    pool: &EnginePool,
    position: &Chess,
    lines: usize,
    limits: &Limits,
) -> Result<Vec<Candidate>, UciError> {
    let found = pool
        .search_lines(&crate::puzzle::fen_of(position), lines, limits)
        .await?;
    Ok(found
        .into_iter()
        .filter_map(|line| {
            let first = line.moves.first()?;
            Some(Candidate::new(first, line.score))
        })
        .collect())
}

/// Runs [`Cook`] on `start` for a puzzle of `kind`. The outer error is the
/// engine's; the inner one says why the position is no puzzle.
pub async fn cook(
    pool: &EnginePool,
    start: &Chess,
    kind: Kind,
    limits: &Limits,
) -> Result<Result<Solution, Reject>, UciError> {
    let mut cook = Cook::new(start.clone(), kind);
    while let Some(request) = cook.request() {
        let answer = candidates(pool, &request.position, request.lines, limits).await?;
        cook.answer(&answer);
    }
    Ok(cook.result())
}

/// The evaluation of `position` from the side to move's view (a finished
/// position: mated is `Mate(0)`, drawn `Cp(0)`).
pub async fn evaluate(
    pool: &EnginePool,
    position: &Chess,
    limits: &Limits,
) -> Result<Score, UciError> {
    if position.is_checkmate() {
        return Ok(Score::Mate(0));
    }
    if position.is_game_over() {
        return Ok(Score::Cp(0));
    }
    let found = candidates(pool, position, 1, limits).await?;
    Ok(found.first().map_or(Score::Cp(0), |c| c.score))
}

/// The puzzles in a game: `positions[i]` is the position after `i` plies
/// (`positions[0]` the start). Each position is evaluated, probed with
/// [`probe`] (lichess's screen: a jump from the position before), and the
/// promising ones cooked. Positions inside a puzzle already found are not
/// probed again.
pub async fn mine_game(
    pool: &EnginePool,
    positions: &[Chess],
    limits: &PuzzleLimits,
) -> Result<Vec<Found>, UciError> {
    let mut found = Vec::new();
    // The evaluation before the first move, from the mover's opponent's
    // view, as lichess starts (`Cp(20)` for the side to move).
    let mut before_for_mover = Score::Cp(20);
    let mut skip_until = 0;
    for (i, position) in positions.iter().enumerate() {
        let now = evaluate(pool, position, &limits.scan).await?;
        if i > 0 && i >= skip_until {
            if let Some(kind) = probe(position, before_for_mover, now) {
                if let Ok(solution) = cook(pool, position, kind, &limits.line).await? {
                    skip_until = i + solution.moves.len();
                    found.push(Found::new(position, &solution));
                }
            }
        }
        // For the next position's mover (the other side), this one's
        // evaluation seen from its side.
        before_for_mover = now.flip();
    }
    Ok(found)
}
