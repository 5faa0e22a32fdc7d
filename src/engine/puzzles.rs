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
        tracing::trace!(fen = %crate::puzzle::fen_of(&request.position), ?answer, "cook step");
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
        tracing::trace!(ply = i, before = ?before_for_mover, ?now, "scanned");
        if i > 0 && i >= skip_until {
            if let Some(kind) = probe(position, before_for_mover, now) {
                match cook(pool, position, kind, &limits.line).await? {
                    Ok(solution) => {
                        skip_until = i + solution.moves.len();
                        found.push(Found::new(position, &solution));
                    }
                    Err(reject) => tracing::debug!(ply = i, ?kind, %reject, "probed, no puzzle"),
                }
            }
        }
        // For the next position's mover (the other side), this one's
        // evaluation seen from its side.
        before_for_mover = now.flip();
    }
    Ok(found)
}

/// How the starter set is made (`chessbot puzzles generate`): engine games
/// between uneven sides, puzzles mined from them.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    pub seed: u64,
    /// Stop once this many puzzles are found.
    pub count: usize,
    /// Give up after this many games.
    pub max_games: usize,
    /// Longest game (plies).
    pub max_plies: usize,
    /// The weak side's searches: shallow, and it picks among its best
    /// [`GenerateOptions::weak_lines`] moves at random (seeded), the best
    /// only with probability 1/2, and plays any legal move with probability
    /// [`GenerateOptions::blunder_chance`]: it makes the mistakes puzzles
    /// are made of (lichess's screen wants a swing to about +4, a piece or
    /// more, which careful play rarely gives).
    pub weak: Limits,
    pub blunder_chance: f64,
    /// A game stops once the strong side is this far ahead (cp): no
    /// position after it can start a puzzle (the solver would already be
    /// winning, [`crate::puzzle::criteria::ALREADY_WINNING`]).
    pub decided_cp: i32,
    pub weak_lines: usize,
    /// The strong side's searches.
    pub strong: Limits,
    pub mining: PuzzleLimits,
}

impl GenerateOptions {
    /// Node-bound searches (the move time is only a safety net), so a seed
    /// gives the same games again on the same Stockfish build.
    pub fn new(seed: u64, count: usize) -> GenerateOptions {
        let nodes = |nodes| Limits {
            movetime_ms: 30_000,
            nodes,
            depth: None,
        };
        GenerateOptions {
            seed,
            count,
            max_games: count.saturating_mul(10).max(10),
            max_plies: 100,
            weak: nodes(300),
            blunder_chance: 0.05,
            decided_cp: 700,
            weak_lines: 3,
            strong: nodes(100_000),
            mining: PuzzleLimits {
                scan: nodes(100_000),
                line: nodes(400_000),
            },
        }
    }
}

/// One engine game between a weak and a strong side (the weak side White
/// in even games, Black in odd ones), its first two plies drawn at random:
/// every position, from the start.
pub async fn uneven_game(
    pool: &EnginePool,
    options: &GenerateOptions,
    game: usize,
) -> Result<Vec<Chess>, UciError> {
    use rand::{seq::SliceRandom, Rng, SeedableRng};

    let mut rng = rand::rngs::SmallRng::seed_from_u64(options.seed ^ (game as u64).rotate_left(32));
    let weak = if game.is_multiple_of(2) {
        shakmaty::Color::White
    } else {
        shakmaty::Color::Black
    };
    let mut positions = vec![Chess::default()];
    while positions.len() <= options.max_plies {
        let Some(now) = positions.last().cloned() else {
            break;
        };
        if now.is_game_over() {
            break;
        }
        let random =
            positions.len() <= 2 || (now.turn() == weak && rng.gen_bool(options.blunder_chance));
        let mv = if random {
            let moves = now.legal_moves();
            let Some(mv) = moves.choose(&mut rng) else {
                break;
            };
            *mv
        } else {
            let (lines, limits) = if now.turn() == weak {
                (options.weak_lines, &options.weak)
            } else {
                (1, &options.strong)
            };
            let found = candidates(pool, &now, lines, limits).await?;
            // The best half the time, else any of the others.
            let pick = if found.len() > 1 && rng.gen_bool(0.5) {
                rng.gen_range(1..found.len())
            } else {
                0
            };
            let Some(choice) = found.get(pick) else {
                break;
            };
            // Decided: the strong side is far ahead before its move.
            let ahead = match choice.score {
                Score::Mate(n) => n > 0,
                Score::Cp(cp) => cp >= options.decided_cp,
            };
            if now.turn() != weak && ahead && positions.len() > 2 {
                // Keep this position (it may be the puzzle) and stop.
                break;
            }
            match shakmaty::uci::UciMove::from_ascii(choice.uci.as_bytes())
                .ok()
                .and_then(|m| m.to_move(&now).ok())
            {
                Some(mv) => mv,
                None => return Err(UciError::Protocol(format!("illegal move {}", choice.uci))),
            }
        };
        let mut next = now;
        next.play_unchecked(mv);
        positions.push(next);
    }
    Ok(positions)
}

/// `chessbot puzzles generate`: plays [`uneven_game`]s and mines them until
/// `options.count` puzzles (distinct positions) are found or
/// `options.max_games` are played. `progress` hears each game's number and
/// the puzzles found so far (the command line writes them out each time,
/// so a stopped run keeps what it found).
pub async fn generate(
    pool: &EnginePool,
    options: &GenerateOptions,
    mut progress: impl FnMut(usize, &[Found]),
) -> Result<Vec<Found>, UciError> {
    let mut found: Vec<Found> = Vec::new();
    for game in 0..options.max_games {
        if found.len() >= options.count {
            break;
        }
        let positions = uneven_game(pool, options, game).await?;
        for puzzle in mine_game(pool, &positions, &options.mining).await? {
            if found.len() < options.count && !found.iter().any(|f| f.fen == puzzle.fen) {
                found.push(puzzle);
            }
        }
        progress(game + 1, &found);
    }
    Ok(found)
}

/// The positions of every game in a PGN file (games are split at each
/// `[Event` tag after movetext); games that do not read are skipped and
/// counted.
pub fn pgn_games(text: &str) -> (Vec<Vec<Chess>>, usize) {
    let mut games = Vec::new();
    let mut bad = 0;
    for chunk in split_pgn(text) {
        match crate::chess::pgn::import(&chunk) {
            Ok(imported) => {
                let mut position = imported.game.initial_position().clone();
                let mut positions = vec![position.clone()];
                for ply in imported.game.plies() {
                    position.play_unchecked(ply.mv);
                    positions.push(position.clone());
                }
                games.push(positions);
            }
            Err(_) => bad += 1,
        }
    }
    (games, bad)
}

/// Splits a PGN file into games: a tag line after a line of movetext starts
/// the next game.
fn split_pgn(text: &str) -> Vec<String> {
    let mut games = Vec::new();
    let mut current = String::new();
    let mut in_moves = false;
    for line in text.lines() {
        let tag = line.trim_start().starts_with('[');
        if tag && in_moves {
            games.push(std::mem::take(&mut current));
            in_moves = false;
        }
        if !tag && !line.trim().is_empty() {
            in_moves = true;
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() {
        games.push(current);
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pgn_file_splits_into_games() {
        let text =
            "[Event \"a\"]\n[White \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
                    [Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. e5 *\n";
        let (games, bad) = pgn_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].len(), 8);
        assert!(games[0][7].is_checkmate());
        assert_eq!(games[1].len(), 2);
        assert_eq!(bad, 1, "1. e5 is not legal for White");
    }
}
