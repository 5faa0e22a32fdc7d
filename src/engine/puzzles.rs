//! Finding puzzles with the engine: the pure rules of [`crate::puzzle`]
//! driven through the [`EnginePool`] (multi-PV searches at full strength).
//! Nothing is stored here; the service and the command line decide where
//! what is found goes.

use shakmaty::{Chess, Move, Position};

use super::{EnginePool, Limits, Score, UciError};
use crate::puzzle::{criteria, probe, Candidate, Cook, Found, Funnel, Kind, Reject, Solution};

/// How deep puzzle searches go. lichess's generator searches far deeper
/// (depth 50, up to 40 M nodes a move); a club's machine cannot, so the
/// starter set is re-checked deeper afterwards (issue 28's quality proof).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleLimits {
    /// Each position of a game, evaluated to see whether to probe it.
    pub scan: Limits,
    /// The screen: a cheap two-line search of each probed position, which
    /// drops the ones that clearly have no unique first move
    /// ([`criteria::may_be_unique`]) before the line searches are spent on
    /// them. `None`: every probed position is cooked. When it equals
    /// [`PuzzleLimits::scan`], the scan itself searches two lines and
    /// serves as the screen (the same nodes: no search more).
    pub screen: Option<Limits>,
    /// Each step of a candidate's line (two lines on the solver's turn).
    pub line: Limits,
}

/// The screen's search: cheap next to a line step (a tenth of the nodes at
/// most, the line searches' depth cap).
const SCREEN: Limits = Limits {
    movetime_ms: 1_000,
    nodes: 60_000,
    depth: Some(16),
};

impl Default for PuzzleLimits {
    fn default() -> PuzzleLimits {
        PuzzleLimits {
            scan: Limits {
                movetime_ms: 2_000,
                nodes: 300_000,
                depth: Some(12),
            },
            screen: Some(SCREEN),
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
            screen: Some(Limits {
                movetime_ms: 200,
                nodes: 40_000,
                ..SCREEN
            }),
            line: Limits {
                movetime_ms: 500,
                nodes: 500_000,
                ..default.line
            },
        }
    }

    /// The same limits without the screen (every probed position cooked):
    /// what the screen saves, and what it loses, is measured against this.
    pub fn without_screen(self) -> PuzzleLimits {
        PuzzleLimits {
            screen: None,
            ..self
        }
    }

    /// How many lines the scan searches: two when it is the screen too.
    fn scan_lines(&self) -> usize {
        if self.screen.as_ref() == Some(&self.scan) {
            2
        } else {
            1
        }
    }
}

/// Whether a probed `position` goes on to the line searches: without a
/// screen always; with one, when [`criteria::may_be_unique`] says so of the
/// scan's two lines (`scanned`, when the scan is the screen) or of a screen
/// search of its own.
pub async fn screen(
    pool: &EnginePool,
    position: &Chess,
    scanned: &[Candidate],
    limits: &PuzzleLimits,
) -> Result<bool, UciError> {
    let Some(screen) = &limits.screen else {
        return Ok(true);
    };
    let searched;
    let lines = if limits.scan_lines() == 2 {
        scanned
    } else {
        searched = candidates(pool, position, 2, screen).await?;
        &searched[..]
    };
    let Some(best) = lines.first() else {
        return Ok(true);
    };
    Ok(criteria::may_be_unique(
        best.score,
        lines.get(1).map(|c| c.score),
    ))
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

/// The scan of `position` ([`PuzzleLimits::scan`]): its evaluation (as
/// [`evaluate`]) and the lines searched (two when the scan is the screen
/// too; none for a finished position).
async fn scan(
    pool: &EnginePool,
    position: &Chess,
    limits: &PuzzleLimits,
) -> Result<(Score, Vec<Candidate>), UciError> {
    if position.is_game_over() {
        return Ok((evaluate(pool, position, &limits.scan).await?, Vec::new()));
    }
    let found = candidates(pool, position, limits.scan_lines(), &limits.scan).await?;
    Ok((found.first().map_or(Score::Cp(0), |c| c.score), found))
}

/// The puzzles in a game: `positions[i]` is the position after `i` plies
/// (`positions[0]` the start). Each position is evaluated, probed with
/// [`probe`] (lichess's screen: a jump from the position before), passed
/// through the [`screen`] and the promising ones cooked. Positions inside
/// a puzzle already found are not probed again.
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
        let (now, lines) = scan(pool, position, limits).await?;
        tracing::trace!(ply = i, before = ?before_for_mover, ?now, "scanned");
        if i > 0
            && i >= skip_until
            && let Some(kind) = probe(position, before_for_mover, now)
        {
            if !screen(pool, position, &lines, limits).await? {
                tracing::debug!(ply = i, ?kind, "probed, screened out");
            } else {
                match cook(pool, position, kind, &limits.line).await? {
                    Ok(solution) => {
                        skip_until = i + solution.moves.len();
                        found.push(Found::new(position, &solution));
                    }
                    Err(reject) => {
                        tracing::debug!(ply = i, ?kind, %reject, "probed, no puzzle")
                    }
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
/// still level, a side that blunders instead: the uneven moments puzzles
/// come from. The blunder is the engine's own choice where it can be (one
/// of its best [`GenerateOptions::plausible_lines`] moves that loses, and
/// by default one whose refutation the probe would take: see
/// [`GenerateOptions::aim`]), else a seeded random legal move. Each
/// blunder's position goes through the same screen and the same rules as a
/// game's ([`probe`], [`screen`], [`cook`]), so a puzzle is a position
/// where the blunder's refutation is the only winning move.
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
    /// The share of blunders chosen by the engine rather than at random: one
    /// of the engine's [`GenerateOptions::plausible_lines`] best moves that
    /// still loses at least [`GenerateOptions::plausible_loss_cp`]. A random
    /// legal move mostly hangs a piece, whose punishment is a single
    /// capture, or loses too little to be probed; a move a player might
    /// choose loses to a tactic more often.
    pub plausible_share: f64,
    pub plausible_lines: usize,
    pub plausible_loss_cp: i32,
    /// Aim the engine's blunders: among its lines, prefer the moves after
    /// which [`probe`] (fed the same search's scores) would probe the
    /// position — a real mistake, one that hands the opponent a clear win —
    /// over any move that merely loses
    /// [`GenerateOptions::plausible_loss_cp`].
    pub aim: bool,
    pub mining: PuzzleLimits,
}

impl GenerateOptions {
    /// Node-bound searches (the move time is only a safety net), so a seed
    /// gives the same games again on the same Stockfish build. Every level
    /// moment tries a blunder, the engine's choice among up to 40 lines
    /// (nearly every legal move: among the best 12, a move losing two pawns
    /// was there a quarter of the time), aimed; the scan of a blunder's
    /// position searches two lines and is the screen.
    pub fn new(seed: u64, count: usize) -> GenerateOptions {
        let previous = GenerateOptions::previous(seed, count);
        let scan = previous.mining.scan.clone();
        GenerateOptions {
            blunder_chance: 1.0,
            plausible_share: 1.0,
            plausible_lines: 40,
            aim: true,
            mining: PuzzleLimits {
                screen: Some(scan),
                ..previous.mining
            },
            ..previous
        }
    }

    /// The generator as it was before the screen and aimed blunders (commit
    /// 011e360): a blunder at half the level moments, half of them random,
    /// every probed position cooked. Kept to measure against
    /// (`chessbot bench --puzzles`).
    pub fn previous(seed: u64, count: usize) -> GenerateOptions {
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
            aim: false,
            mining: PuzzleLimits {
                scan: nodes(100_000),
                screen: None,
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
    /// Chosen from the engine's lines (else a random legal move).
    pub by_engine: bool,
}

/// One engine game (its first two plies at random), and the blunders tried
/// at its level moments: the game's positions and the blunders.
pub async fn engine_game(
    pool: &EnginePool,
    options: &GenerateOptions,
    game: usize,
) -> Result<(Vec<Chess>, Vec<Blunder>), UciError> {
    engine_game_counted(pool, options, game, &mut Funnel::default()).await
}

/// [`engine_game`], counting its game, plies, level moments and blunders
/// in `funnel`.
pub async fn engine_game_counted(
    pool: &EnginePool,
    options: &GenerateOptions,
    game: usize,
    funnel: &mut Funnel,
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
            if level {
                funnel.level_moments += 1;
            }
            if level && rng.gen_bool(options.blunder_chance) {
                let plausible = if rng.gen_bool(options.plausible_share) {
                    plausible_blunder(pool, &now, best.score, options, &mut rng).await?
                } else {
                    None
                };
                let by_engine = plausible.is_some();
                if let Some(blunder) = plausible.or_else(|| legal.choose(&mut rng).copied()) {
                    let mut after = now.clone();
                    after.play_unchecked(blunder);
                    funnel.blunders += 1;
                    funnel.engine_blunders += usize::from(by_engine);
                    blunders.push(Blunder {
                        before: best.score.flip(),
                        position: after,
                        by_engine,
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
    funnel.games += 1;
    funnel.plies += positions.len() - 1;
    Ok((positions, blunders))
}

/// The blunders among the engine's `lines` in `position` (the mover's
/// view, best first, `best` the best's score): the moves that lose at
/// least `loss_cp`; with `aim`, only those after which [`probe`] would
/// probe the position, judged by the same search's scores (the solver's
/// evaluation before the blunder is `best` flipped, after it the move's
/// score flipped), when there is any. A pure choice: the engine's search
/// is done by the caller.
pub fn blunders_among<'a>(
    position: &Chess,
    best: Score,
    lines: &'a [Candidate],
    loss_cp: i32,
    aim: bool,
) -> Vec<&'a Candidate> {
    let Score::Cp(best_cp) = best else {
        return Vec::new();
    };
    let losing: Vec<&Candidate> = lines
        .iter()
        .filter(|c| criteria::below(c.score, best_cp - loss_cp))
        .collect();
    if !aim {
        return losing;
    }
    let aimed: Vec<&Candidate> = losing
        .iter()
        .copied()
        .filter(|c| {
            shakmaty::uci::UciMove::from_ascii(c.uci.as_bytes())
                .ok()
                .and_then(|m| m.to_move(position).ok())
                .is_some_and(|mv| {
                    let mut after = position.clone();
                    after.play_unchecked(mv);
                    probe(&after, best.flip(), c.score.flip()).is_some()
                })
        })
        .collect();
    if aimed.is_empty() {
        losing
    } else {
        aimed
    }
}

/// One of the engine's best [`GenerateOptions::plausible_lines`] moves in
/// `position` that is a blunder ([`blunders_among`]) against `best` (the
/// mover's view), drawn at random; `None` when every move the engine lists
/// is close to the best.
async fn plausible_blunder(
    pool: &EnginePool,
    position: &Chess,
    best: Score,
    options: &GenerateOptions,
    rng: &mut rand::rngs::SmallRng,
) -> Result<Option<Move>, UciError> {
    use rand::seq::SliceRandom;

    if !matches!(best, Score::Cp(_)) {
        return Ok(None);
    }
    let lines = candidates(pool, position, options.plausible_lines, &options.play).await?;
    let blunders = blunders_among(
        position,
        best,
        &lines,
        options.plausible_loss_cp,
        options.aim,
    );
    Ok(blunders.choose(rng).and_then(|c| {
        shakmaty::uci::UciMove::from_ascii(c.uci.as_bytes())
            .ok()
            .and_then(|m| m.to_move(position).ok())
    }))
}

/// `chessbot puzzles generate`: plays [`engine_game`]s and probes their
/// blunders until `options.count` puzzles (distinct positions) are found or
/// `options.max_games` are played. `progress` hears each game's number,
/// the puzzles found so far and the funnel so far (the command line writes
/// the puzzles out each time, so a stopped run keeps what it found).
pub async fn generate(
    pool: &EnginePool,
    options: &GenerateOptions,
    mut progress: impl FnMut(usize, &[Found], &Funnel),
) -> Result<(Vec<Found>, Funnel), UciError> {
    let mut found: Vec<Found> = Vec::new();
    let mut funnel = Funnel::default();
    let limits = &options.mining;
    for game in 0..options.max_games {
        if found.len() >= options.count {
            break;
        }
        let (_, blunders) = engine_game_counted(pool, options, game, &mut funnel).await?;
        for blunder in blunders {
            if found.len() >= options.count {
                break;
            }
            let (now, lines) = scan(pool, &blunder.position, limits).await?;
            let Some(kind) = probe(&blunder.position, blunder.before, now) else {
                continue;
            };
            funnel.probed += 1;
            if !screen(pool, &blunder.position, &lines, limits).await? {
                funnel.screened_out += 1;
                continue;
            }
            funnel.cooked += 1;
            match cook(pool, &blunder.position, kind, &limits.line).await? {
                Ok(solution) => {
                    let puzzle = Found::new(&blunder.position, &solution);
                    if found.iter().any(|f| f.fen == puzzle.fen) {
                        funnel.duplicates += 1;
                    } else {
                        funnel.found += 1;
                        found.push(puzzle);
                    }
                }
                Err(reject) => {
                    tracing::debug!(?kind, %reject, "blunder probed, no puzzle");
                    funnel.reject(&reject);
                }
            }
        }
        progress(game + 1, &found, &funnel);
    }
    Ok((found, funnel))
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

    fn pos(fen: &str) -> Chess {
        fen.parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn aimed_blunders_are_the_ones_the_probe_would_take() {
        // Queens face each other on the d-file, White to move.
        let position = pos("6k1/5ppp/8/3q4/8/8/5PPP/3Q2K1 w - - 0 1");
        let lines = [
            Candidate::new("h2h3", Score::Cp(20)),
            Candidate::new("d1d2", Score::Cp(0)),
            // Loses 2.70 but Black's gain is no clear swing (0.50 < 0.6).
            Candidate::new("g1f1", Score::Cp(-250)),
            // Hangs the queen: Black is +8.50, a probe.
            Candidate::new("d1d4", Score::Cp(-850)),
        ];
        let ucis = |found: Vec<&Candidate>| -> Vec<String> {
            found.into_iter().map(|c| c.uci.clone()).collect()
        };
        let best = Score::Cp(20);
        assert_eq!(
            ucis(blunders_among(&position, best, &lines, 200, false)),
            ["g1f1", "d1d4"]
        );
        assert_eq!(
            ucis(blunders_among(&position, best, &lines, 200, true)),
            ["d1d4"]
        );
        // Nothing the probe takes: aiming falls back to any losing move.
        assert_eq!(
            ucis(blunders_among(&position, best, &lines[..3], 200, true)),
            ["g1f1"]
        );
        // No loss that large, or a mate already on the board: none.
        assert!(blunders_among(&position, best, &lines, 1_000, true).is_empty());
        assert!(blunders_among(&position, Score::Mate(3), &lines, 200, true).is_empty());
    }

    #[test]
    fn the_previous_generator_is_kept_to_compare_with() {
        let new = GenerateOptions::new(5, 10);
        let previous = GenerateOptions::previous(5, 10);
        assert_eq!((new.seed, new.count), (previous.seed, previous.count));
        assert_eq!(new.play, previous.play);
        assert_eq!(new.mining.line, previous.mining.line);
        // The scan searches two lines and is the screen: no search more.
        assert_eq!(new.mining.screen.as_ref(), Some(&new.mining.scan));
        assert_eq!(new.mining.scan_lines(), 2);
        assert!(new.aim && !previous.aim);
        assert_eq!(new.plausible_share, 1.0);
        assert_eq!(previous.mining.screen, None);
        assert_eq!(previous.mining.scan_lines(), 1);
        // A screen of its own elsewhere; without_screen drops it.
        let default = PuzzleLimits::default();
        assert!(default.screen.is_some());
        assert_eq!(default.scan_lines(), 1);
        assert_eq!(default.clone().without_screen().screen, None);
        assert_eq!(default.clone().without_screen().line, default.line);
    }

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
