//! `chessbot bench --puzzles`: the puzzle figures of issue 28, each beside
//! a reference measured in the same run, on the same machine:
//!
//! 0. **`chessbot puzzles generate`, before and after** (`--generator-games
//!    N` games each, the same seed): puzzles per CPU-minute of the generator
//!    as it was (no screen, half the level moments, half the blunders
//!    random) and as it is (the screen, aimed engine-chosen blunders at
//!    every level moment), each with its funnel. `--generator-only` stops
//!    there.
//! 1. **Puzzles found per CPU-minute** from analysed games: engine games
//!    (by default Stockfish at full skill with one move in ten played at
//!    random, a club player's oversights: engines at a low skill give
//!    material away too gradually for lichess's rules to find puzzles)
//!    mined as the bot mines a server's games
//!    (`PuzzleLimits::background`), and as `chessbot puzzles import` does
//!    (`PuzzleLimits::default`), each with and without the screen; CPU is
//!    the engine's and ours, read from `/proc`. Reference: the same games
//!    analysed as `/analyze` does (positions per CPU-minute).
//! 2. **`/puzzle` answer latency**: a `/move` answering a puzzle (checked,
//!    rated or advanced, its board drawn), one at a time. Reference: a
//!    `/move` in a game, one at a time, on the same service.
//! 3. **The move path beside mining**: moves per second with 4 in flight,
//!    rounds with and without a miner running at the engine pool's lowest
//!    priority (over and over the same games), taking turns.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    time::Instant,
};

use shakmaty::{uci::UciMove, Chess, Position};

use super::{report::Samples, throughput, BenchArgs};
use crate::{
    clock::{Clock, ManualClock},
    engine::{
        cpu, in_background,
        puzzles::{generate, mine_game, GenerateOptions, PuzzleLimits},
        Engine, EngineOptions, Limits, ANALYSIS_SKILL,
    },
    render::{RenderConfig, Renderer},
    service::{Actor, Command, Service},
    store::{NewPuzzle, Store},
};

/// Longest game (plies).
const MAX_PLIES: usize = 80;
/// Puzzle answers (and game moves) timed.
const ANSWERS: usize = 200;
/// Rounds of the move path with and without the miner.
const ROUNDS: usize = 4;

/// CPU seconds of this process and the engine's.
fn cpu_now(engine: &Engine) -> f64 {
    cpu::own() + cpu::engines(&engine.pool)
}

/// `chessbot puzzles generate` as it was ([`GenerateOptions::previous`])
/// and as it is ([`GenerateOptions::new`]), the same seed and number of
/// games each, on one engine: puzzles per CPU-minute side by side, with
/// each run's funnel.
async fn generator(engine: &Engine, seed: u64, games: usize) -> anyhow::Result<()> {
    println!("== puzzles generate: puzzles per CPU-minute (seed {seed}, {games} games each) ==");
    let mut rates = Vec::new();
    for (name, mut options) in [
        ("before", GenerateOptions::previous(seed, usize::MAX)),
        ("after", GenerateOptions::new(seed, usize::MAX)),
    ] {
        options.max_games = games;
        let meter = cpu::Meter::start(&engine.pool);
        let wall = Instant::now();
        let (found, funnel) = generate(&engine.pool, &options, |_, _, _| {}).await?;
        let spent = meter.spent(&engine.pool);
        let rate = spent.per_minute(found.len());
        println!(
            "{name:<7} {:>4} puzzles  {:>7.1} CPU-s (engine {:.1})  {:>7.1} s  {rate:>6.2} puzzles/CPU-min",
            found.len(),
            spent.total(),
            spent.engines,
            wall.elapsed().as_secs_f64(),
        );
        println!("        funnel: {funnel}");
        rates.push(rate);
    }
    if let [before, after] = rates[..] {
        println!(
            "ratio (after ÷ before): {:.2}×",
            after / before.max(f64::MIN_POSITIVE)
        );
    }
    Ok(())
}

/// One game between two sides of the given skills (colours alternate by
/// game), `random_moves` of its moves played at random: every position.
async fn mined_game(
    engine: &Engine,
    game: usize,
    [stronger, weaker]: [u8; 2],
    random_moves: f64,
    seed: u64,
) -> anyhow::Result<Vec<Chess>> {
    use rand::{seq::SliceRandom, Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed.wrapping_add(game as u64));
    let limits = Limits {
        movetime_ms: 2_000,
        nodes: 20_000,
        depth: None,
    };
    let mut positions = vec![Chess::default()];
    while positions.len() <= MAX_PLIES {
        let Some(now) = positions.last().cloned() else {
            break;
        };
        if now.is_game_over() {
            break;
        }
        // Club players who blunder both ways: a game where one side is
        // crushed early gives few probes (the solver is already winning).
        let skill = if (now.turn() == shakmaty::Color::White) == game.is_multiple_of(2) {
            stronger
        } else {
            weaker
        };
        // A club player's oversight: now and then a move at random (an
        // engine at a low skill still rarely hangs a queen or a mate, so
        // its games alone give almost no puzzles).
        if rng.gen_bool(random_moves) {
            let moves = now.legal_moves();
            if let Some(mv) = moves.choose(&mut rng) {
                let mut next = now.clone();
                next.play_unchecked(*mv);
                positions.push(next);
                continue;
            }
        }
        let found = engine
            .pool
            .search(&crate::puzzle::fen_of(&now), skill, &limits)
            .await?;
        let Some(mv) = found
            .best
            .and_then(|uci| uci.parse::<UciMove>().ok())
            .and_then(|m| m.to_move(&now).ok())
        else {
            break;
        };
        let mut next = now;
        next.play_unchecked(mv);
        positions.push(next);
    }
    Ok(positions)
}

/// Mines `games` with `limits`: puzzles found, CPU seconds, wall seconds.
async fn mine_all(
    engine: &Engine,
    games: &[Vec<Chess>],
    limits: &PuzzleLimits,
) -> anyhow::Result<(usize, f64, f64)> {
    let (cpu, wall) = (cpu_now(engine), Instant::now());
    let mut found = 0;
    for positions in games {
        found += mine_game(&engine.pool, positions, limits).await?.len();
    }
    Ok((found, cpu_now(engine) - cpu, wall.elapsed().as_secs_f64()))
}

/// Analyses `games` as `/analyze` does: positions, CPU seconds.
async fn analyse_all(engine: &Engine, games: &[Vec<Chess>]) -> anyhow::Result<(usize, f64)> {
    let limits = engine.options.analysis.limits();
    let cpu = cpu_now(engine);
    let mut positions = 0;
    for game in games {
        for position in game {
            if position.is_game_over() {
                continue;
            }
            engine
                .pool
                .search(&crate::puzzle::fen_of(position), ANALYSIS_SKILL, &limits)
                .await?;
            positions += 1;
        }
    }
    Ok((positions, cpu_now(engine) - cpu))
}

fn actor(user: &str) -> Actor {
    throughput::actor(user, "puzzles")
}

/// Times `/move` answers to puzzles (each user takes a puzzle and plays its
/// first move) and, as the reference, `/move`s in games, one at a time.
async fn answer_latency(
    service: &Service,
    slots: Vec<throughput::Slot>,
) -> anyhow::Result<(Samples, Samples, Vec<throughput::Slot>)> {
    // Puzzles with a first move known to be right: the pool's own.
    let mut answers = Samples::default();
    for i in 0..ANSWERS {
        let who = actor(&format!("solver{i}"));
        let shown = service.handle(&who, Command::Puzzle).await;
        if !shown.ephemeral || shown.card.is_none() {
            anyhow::bail!("no puzzle for the latency run: {}", shown.text);
        }
        let Some(open) = service.store().open_attempt(&who.server, &who.user).await? else {
            anyhow::bail!("no open attempt after /puzzle");
        };
        let Some(puzzle) = service.store().puzzle(open.puzzle_id).await? else {
            anyhow::bail!("puzzle {} is gone", open.puzzle_id);
        };
        let text = puzzle.moves.first().cloned().unwrap_or_default();
        let t = Instant::now();
        service
            .handle(
                &who,
                Command::Move {
                    text,
                    claim_draw: false,
                },
            )
            .await;
        answers.push(t.elapsed());
    }
    let (moves, slots) = throughput::play(service, slots, ANSWERS, 1, 0.0, 7).await?;
    Ok((answers, moves.moves, slots))
}

/// A miner running over and over the same games at the lowest priority.
struct Miner {
    stop: Arc<AtomicBool>,
    searches: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl Miner {
    fn start(engine: Arc<Engine>, games: Vec<Vec<Chess>>) -> Miner {
        let stop = Arc::new(AtomicBool::new(false));
        let searches = Arc::new(AtomicU64::new(0));
        let task = {
            let (stop, searches) = (stop.clone(), searches.clone());
            tokio::spawn(async move {
                let before = engine.pool.searches();
                for game in games.iter().cycle() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let mined =
                        in_background(mine_game(&engine.pool, game, &PuzzleLimits::background()))
                            .await;
                    if mined.is_err() {
                        break;
                    }
                    searches.store(engine.pool.searches() - before, Ordering::Relaxed);
                }
            })
        };
        Miner {
            stop,
            searches,
            task,
        }
    }

    /// Stops after the game it is on; the engine searches it made.
    async fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.task.await;
        self.searches.load(Ordering::Relaxed)
    }
}

/// Runs the three measurements and prints them.
pub async fn run(args: &BenchArgs, url: &str) -> anyhow::Result<()> {
    let [stronger, weaker] = args.mining_skills[..] else {
        anyhow::bail!("--mining-skills takes two levels (0 to 20), the stronger first: 20,20");
    };
    if !(0.0..=1.0).contains(&args.mining_random_moves) {
        anyhow::bail!("--mining-random-moves is a share of the moves, from 0 to 1");
    }
    let engine = Arc::new(
        Engine::start(None, 1, 16, 1, EngineOptions::default())
            .await
            .ok_or_else(|| {
                anyhow::anyhow!("--puzzles needs Stockfish (apt-get install stockfish)")
            })?,
    );
    println!(
        "chessbot bench --puzzles: {} games (skill {stronger} against {weaker}, {:.0} % of moves at random), {} cores",
        args.mining_games,
        100.0 * args.mining_random_moves,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    if args.generator_games > 0 {
        println!();
        generator(&engine, args.seed, args.generator_games).await?;
        if args.generator_only {
            return Ok(());
        }
    }
    let skills = [stronger, weaker];
    let mut games = Vec::with_capacity(args.mining_games);
    for g in 0..args.mining_games {
        games.push(mined_game(&engine, g, skills, args.mining_random_moves, args.seed).await?);
    }
    let plies: usize = games.iter().map(|g| g.len() - 1).sum();

    println!();
    println!("== puzzles found per CPU-minute ({plies} plies) ==");
    let per_min = |n: usize, cpu: f64| n as f64 / (cpu / 60.0).max(1e-9);
    for (name, limits) in [
        ("mining (background)", PuzzleLimits::background()),
        (
            "  without the screen",
            PuzzleLimits::background().without_screen(),
        ),
        ("import (default)", PuzzleLimits::default()),
        (
            "  without the screen",
            PuzzleLimits::default().without_screen(),
        ),
    ] {
        let (found, cpu, wall) = mine_all(&engine, &games, &limits).await?;
        println!(
            "{name:<22} {found:>4} puzzles  {cpu:>7.1} CPU-s  {wall:>7.1} s  {:>7.2} puzzles/CPU-min",
            per_min(found, cpu)
        );
    }
    let (positions, cpu) = analyse_all(&engine, &games).await?;
    println!(
        "{:<22} {positions:>4} positions {cpu:>6.1} CPU-s  {:>17.1} positions/CPU-min (/analyze, the reference)",
        "analysis",
        per_min(positions, cpu)
    );

    let renderer = Arc::new(Renderer::new(RenderConfig::default())?);
    let store = Store::open(url).await?;
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(1_767_268_800_000));
    let service = Service::new(store.clone(), renderer, clock);
    throughput::configure(&service).await?;
    // Enough puzzles that every solver gets one: the games' own.
    let mut pool = Vec::new();
    for game in &games {
        for found in mine_game(&engine.pool, game, &PuzzleLimits::background()).await? {
            pool.push(NewPuzzle::found(&found, "bench"));
        }
    }
    let starter = crate::puzzle::starter::read(crate::puzzle::starter::STARTER)
        .map_err(anyhow::Error::msg)?;
    pool.extend(starter.iter().map(|f| NewPuzzle::found(f, "starter")));
    store
        .add_puzzles(throughput::SERVER, &pool, service.now_ms())
        .await?;
    let slots = throughput::start_games(&service, args.games.min(200), args.concurrency).await?;
    let (answers, moves, slots) = answer_latency(&service, slots).await?;
    println!();
    println!("== /puzzle answer latency (one at a time) ==");
    println!("puzzle answer: {}", answers.summary());
    println!("game move    : {} (the reference)", moves.summary());
    println!(
        "ratio (median answer ÷ median move): {:.2}×",
        answers.quantile_ms(0.5) / moves.quantile_ms(0.5)
    );

    println!();
    println!(
        "== the move path beside mining ({} in flight, {ROUNDS} rounds each, taking turns) ==",
        args.concurrency
    );
    let per_round = (args.moves / ROUNDS / 2).max(200);
    let (mut without, mut with) = (
        throughput::Outcome::default(),
        throughput::Outcome::default(),
    );
    let mut searches = 0;
    let mut slots = slots;
    for round in 0..ROUNDS as u64 {
        let (run, rest) =
            throughput::play(&service, slots, per_round, args.concurrency, 0.0, round).await?;
        without.extend(run);
        let miner = Miner::start(engine.clone(), games.clone());
        let (run, rest) = throughput::play(
            &service,
            rest,
            per_round,
            args.concurrency,
            0.0,
            round + 100,
        )
        .await?;
        searches += miner.stop().await;
        with.extend(run);
        slots = rest;
    }
    println!(
        "without mining: {:>8.0} moves/s   per move {}",
        without.moves_per_sec(),
        without.moves.summary()
    );
    println!(
        "with mining   : {:>8.0} moves/s   per move {}",
        with.moves_per_sec(),
        with.moves.summary()
    );
    println!(
        "ratio (with ÷ without): {:.2}×; the miner made {searches} engine searches meanwhile",
        with.moves_per_sec() / without.moves_per_sec()
    );
    store.close().await;
    Ok(())
}
