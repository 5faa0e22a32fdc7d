//! Finding puzzles with the engine: the pure rules of [`crate::puzzle`]
//! driven through the [`EnginePool`] (multi-PV searches at full strength).
//! Nothing is stored here; the service and the command line decide where
//! what is found goes.

use shakmaty::{Chess, Move, Position};

use super::{EnginePool, Limits, Score, UciError};
use crate::puzzle::{criteria, probe, Candidate, Cook, Found, Kind, Reject, Solution};

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

impl PuzzleLimits {
    /// For mining a server's games in the background: the default depths
    /// with a third of the nodes and a tenth of the time, so that a
    /// request arriving while one search runs waits little. (Bound by
    /// nodes alone, without the depth cap, the scan went deeper than the
    /// default's and cost more: measured by `chessbot bench --puzzles`.)
    pub fn background() -> PuzzleLimits {
        let default = PuzzleLimits::default();
        PuzzleLimits {
            scan: Limits {
                movetime_ms: 200,
                nodes: 100_000,
                ..default.scan
            },
            line: Limits {
                movetime_ms: 500,
                nodes: 500_000,
                ..default.line
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
/// between two sides of one strength, and at the moments where the game is
/// still level, a side that blunders instead (a seeded random legal move):
/// the uneven moments puzzles come from. Each blunder's position goes
/// through the same screen and the same rules as a game's
/// ([`probe`], [`cook`]), so a puzzle is a position where the blunder's
/// refutation is the only winning move.
///
/// Why branches rather than one weak side: once a weak side has blundered,
/// the rest of its game is lost and no later position may start a puzzle
/// (the solver is already winning or up in material, lichess's screen), so
/// a game gave one probe at best; measured here, 24 such games gave three
/// probes and no puzzle. Branching probes every level moment of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    pub seed: u64,
    /// Stop once this many puzzles are found.
    pub count: usize,
    /// Give up after this many games.
    pub max_games: usize,
    /// Longest game (plies).
    pub max_plies: usize,
    /// Both sides' searches; each picks among its best
    /// [`GenerateOptions::lines`] moves at random (seeded), the best half
    /// the time, so games differ.
    pub play: Limits,
    pub lines: usize,
    /// A position counts as level (a blunder may be tried there) within
    /// this many centipawns.
    pub level_cp: i32,
    /// The chance of trying a blunder at a level position.
    pub blunder_chance: f64,
    /// The share of blunders that are plausible rather than random: one of
    /// the engine's [`GenerateOptions::plausible_lines`] best moves that
    /// still loses at least [`GenerateOptions::plausible_loss_cp`]. A random
    /// legal move mostly hangs a piece, whose punishment is a single
    /// capture; a move a player might choose loses to a tactic more often.
    pub plausible_share: f64,
    pub plausible_lines: usize,
    pub plausible_loss_cp: i32,
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
            max_plies: 80,
            play: nodes(30_000),
            lines: 2,
            level_cp: 150,
            blunder_chance: 0.5,
            plausible_share: 0.5,
            plausible_lines: 8,
            plausible_loss_cp: 200,
            mining: PuzzleLimits {
                scan: nodes(100_000),
                line: nodes(400_000),
            },
        }
    }
}

/// A position after a blunder, with the evaluation before it (from the
/// side that may now punish it: the solver).
#[derive(Clone, Debug, PartialEq)]
pub struct Blunder {
    pub before: Score,
    pub position: Chess,
}

/// One engine game (its first two plies at random), and the blunders tried
/// at its level moments: the game's positions and the blunders.
pub async fn engine_game(
    pool: &EnginePool,
    options: &GenerateOptions,
    game: usize,
) -> Result<(Vec<Chess>, Vec<Blunder>), UciError> {
    use rand::{seq::SliceRandom, Rng, SeedableRng};

    let mut rng = rand::rngs::SmallRng::seed_from_u64(options.seed ^ (game as u64).rotate_left(32));
    let mut positions = vec![Chess::default()];
    let mut blunders = Vec::new();
    while positions.len() <= options.max_plies {
        let Some(now) = positions.last().cloned() else {
            break;
        };
        if now.is_game_over() {
            break;
        }
        let legal = now.legal_moves();
        let mv = if positions.len() <= 2 {
            match legal.choose(&mut rng) {
                Some(mv) => *mv,
                None => break,
            }
        } else {
            let found = candidates(pool, &now, options.lines, &options.play).await?;
            let Some(best) = found.first() else {
                break;
            };
            // A level moment: try a blunder there (seeded).
            let level = matches!(best.score, Score::Cp(cp) if cp.abs() <= options.level_cp);
            if level && rng.gen_bool(options.blunder_chance) {
                let plausible = if rng.gen_bool(options.plausible_share) {
                    plausible_blunder(pool, &now, best.score, options, &mut rng).await?
                } else {
                    None
                };
                if let Some(blunder) = plausible.or_else(|| legal.choose(&mut rng).copied()) {
                    let mut after = now.clone();
                    after.play_unchecked(blunder);
                    blunders.push(Blunder {
                        before: best.score.flip(),
                        position: after,
                    });
                }
            }
            let pick = if found.len() > 1 && rng.gen_bool(0.5) {
                rng.gen_range(1..found.len())
            } else {
                0
            };
            let choice = &found[pick.min(found.len() - 1)];
            shakmaty::uci::UciMove::from_ascii(choice.uci.as_bytes())
                .ok()
                .and_then(|m| m.to_move(&now).ok())
                .ok_or_else(|| UciError::Protocol(format!("illegal move {}", choice.uci)))?
        };
        let mut next = now;
        next.play_unchecked(mv);
        positions.push(next);
    }
    Ok((positions, blunders))
}

/// One of the engine's best [`GenerateOptions::plausible_lines`] moves in
/// `position` that loses at least [`GenerateOptions::plausible_loss_cp`]
/// against `best` (both from the mover's view), drawn at random; `None`
/// when every move the engine lists is close to the best.
async fn plausible_blunder(
    pool: &EnginePool,
    position: &Chess,
    best: Score,
    options: &GenerateOptions,
    rng: &mut rand::rngs::SmallRng,
) -> Result<Option<Move>, UciError> {
    use rand::seq::SliceRandom;

    let Score::Cp(best_cp) = best else {
        return Ok(None);
    };
    let lines = candidates(pool, position, options.plausible_lines, &options.play).await?;
    let losing: Vec<&Candidate> = lines
        .iter()
        .filter(|c| crate::puzzle::criteria::below(c.score, best_cp - options.plausible_loss_cp))
        .collect();
    Ok(losing.choose(rng).and_then(|c| {
        shakmaty::uci::UciMove::from_ascii(c.uci.as_bytes())
            .ok()
            .and_then(|m| m.to_move(position).ok())
    }))
}

/// `chessbot puzzles generate`: plays [`engine_game`]s and probes their
/// blunders until `options.count` puzzles (distinct positions) are found or
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
        let (_, blunders) = engine_game(pool, options, game).await?;
        for blunder in blunders {
            if found.len() >= options.count {
                break;
            }
            let now = evaluate(pool, &blunder.position, &options.mining.scan).await?;
            let Some(kind) = probe(&blunder.position, blunder.before, now) else {
                continue;
            };
            match cook(pool, &blunder.position, kind, &options.mining.line).await? {
                Ok(solution) => {
                    let puzzle = Found::new(&blunder.position, &solution);
                    if !found.iter().any(|f| f.fen == puzzle.fen) {
                        found.push(puzzle);
                    }
                }
                Err(reject) => tracing::debug!(?kind, %reject, "blunder probed, no puzzle"),
            }
        }
        progress(game + 1, &found);
    }
    Ok(found)
}

/// What a deeper search says of a puzzle ([`recheck`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Recheck {
    /// At every solver's move the solution's move is the engine's best and
    /// unique by the generator's own rule ([`criteria::is_unique`], the
    /// 0.7 margin).
    Unique,
    /// The solution's move is the engine's best and the only one that wins
    /// ([`criteria::only_winning_move`]), but somewhere the margin is
    /// narrower than the generator asks for.
    OnlyWinning,
    /// A different best move, a second winning move, or a puzzle that no
    /// longer replays.
    Fails,
}

impl Recheck {
    /// Whether the puzzle's solution is still the unique winning line (the
    /// quality proof's question).
    pub fn passes(self) -> bool {
        self != Recheck::Fails
    }
}

/// Re-checks a puzzle (`chessbot puzzles check`, the starter set's quality
/// proof): at every solver's move, searched again within `limits` (much
/// deeper than it was found with), the solution's move must still be the
/// engine's best, and no other move may win; where the solution's move
/// mates, any mating best move will do (as when solving). It also says
/// whether the generator's own margin still holds everywhere: a capture
/// that wins a piece (+4.50 against an equal +0.30) sits right at the 0.7
/// margin, and a deeper search moves it by a few centipawns either way
/// without making a second move any good.
pub async fn recheck(
    pool: &EnginePool,
    found: &Found,
    limits: &Limits,
) -> Result<Recheck, UciError> {
    let Ok(fen) = found.fen.parse::<shakmaty::fen::Fen>() else {
        return Ok(Recheck::Fails);
    };
    let Ok(mut position) = fen.into_position::<Chess>(shakmaty::CastlingMode::Standard) else {
        return Ok(Recheck::Fails);
    };
    let mut verdict = Recheck::Unique;
    for (i, uci) in found.moves.iter().enumerate() {
        let Some(mv) = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
            .ok()
            .and_then(|m| m.to_move(&position).ok())
        else {
            return Ok(Recheck::Fails);
        };
        if i % 2 == 0 {
            let lines = candidates(pool, &position, 2, limits).await?;
            let Some(best) = lines.first() else {
                return Ok(Recheck::Fails);
            };
            let mut after = position.clone();
            after.play_unchecked(mv);
            let mates = after.is_checkmate() && matches!(best.score, Score::Mate(1));
            if best.uci != *uci && !mates {
                return Ok(Recheck::Fails);
            }
            let second = lines.get(1).map(|c| c.score);
            if !criteria::is_unique(best.score, second, i > 0) {
                if !criteria::only_winning_move(best.score, second, i > 0) {
                    return Ok(Recheck::Fails);
                }
                verdict = Recheck::OnlyWinning;
            }
        }
        position.play_unchecked(mv);
    }
    Ok(verdict)
}

/// Whether a puzzle is still the unique winning line deeper ([`recheck`]).
pub async fn still_unique(
    pool: &EnginePool,
    found: &Found,
    limits: &Limits,
) -> Result<bool, UciError> {
    Ok(recheck(pool, found, limits).await?.passes())
}

/// The positions of every game in a PGN file (games are split at each
/// `[Event` tag after movetext); games that do not read are skipped and
/// counted.
pub fn pgn_games(text: &str) -> (Vec<Vec<Chess>>, usize) {
    let mut games = Vec::new();
    let mut bad = 0;
    for chunk in split_pgn(text) {
        match crate::chess::pgn::import(&chunk) {
            // Puzzles are standard chess: another variant's game is skipped.
            Ok(imported) if imported.game.variant() != crate::chess::Variant::Standard => bad += 1,
            Ok(imported) => {
                let shakmaty::variant::VariantPosition::Chess(mut position) =
                    imported.game.initial_position().clone()
                else {
                    bad += 1;
                    continue;
                };
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
