//! `chessbot bench`: how fast the bot plays, measured on the real
//! [`Service`] (no Discord), side by side with the floor, the least work any
//! bot must do per move; and, with `--scale`, how start-up time and memory
//! grow with a large database.
//!
//! ```text
//! chessbot bench                                 # 1,000 games on SQLite, both durabilities
//! chessbot bench --durability full               # SQLite with synchronous = FULL only
//! chessbot bench --database postgres             # the same on PostgreSQL
//! chessbot bench --clock frozen                  # the service's clock standing still
//! chessbot bench --scale --stored 100000 --active 10000
//! chessbot bench --flood                         # 1,000 commands/s from one user
//! chessbot bench --web                           # the live web board, beside the move path
//! chessbot bench --pages                         # the club pages, beside reading their data
//! chessbot bench --puzzles                       # puzzles per CPU-minute, answer latency, moves beside mining
//! ```

mod analysis_load;
mod cpu;
mod database;
mod flood;
mod floor;
mod pages;
mod puzzles;
pub mod report;
mod scale;
mod throughput;
mod web;

use std::{sync::Arc, time::Instant};

use report::per_move;

use crate::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{timing::StageSnapshot, Service},
    store::{Backend, Durability},
};

/// When the bench's games are played (2026-01-01 12:00 UTC).
const START_MS: i64 = 1_767_268_800_000;

/// A clock that starts at a fixed instant and then follows real time.
struct RunningClock {
    start_ms: i64,
    started: Instant,
}

impl RunningClock {
    fn new(start_ms: i64) -> Self {
        RunningClock {
            start_ms,
            started: Instant::now(),
        }
    }
}

impl Clock for RunningClock {
    fn now_ms(&self) -> i64 {
        let elapsed = i64::try_from(self.started.elapsed().as_millis()).unwrap_or(i64::MAX);
        self.start_ms.saturating_add(elapsed)
    }
}

/// Options of `chessbot bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Games in play at once.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Moves to time (under load).
    #[arg(long, default_value_t = 20_000)]
    pub moves: usize,
    /// Commands in flight at once (the rest of the games wait their turn,
    /// as players thinking do).
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// `sqlite` (a fresh temporary file), `postgres` (a fresh database on
    /// 127.0.0.1:5432, dropped afterwards) or a database URL to use as is.
    #[arg(long, default_value = "sqlite")]
    pub database: String,
    /// SQLite: `full`, `normal` or `both` (each on a fresh database, then
    /// side by side).
    #[arg(long, default_value = "both")]
    pub durability: String,
    /// The service's clock during the move bench: `running` (real time
    /// passing from a fixed start, so every move sets a new deadline, as in
    /// a running bot) or `frozen` (one instant throughout: each move of a
    /// game sets the deadline the last one did).
    #[arg(long, default_value = "running", value_parser = ["running", "frozen"])]
    pub clock: String,
    /// Share of moves preceded by an out-of-turn attempt, and again by an
    /// illegal one.
    #[arg(long, default_value_t = 0.03)]
    pub bad_rate: f64,
    /// Turns ours and the floor take in the move bench, each with its share
    /// of `--moves`. Each turn's pair gives a ratio of its own, printed with
    /// their median and spread: more rounds, a figure less at the mercy of
    /// what else the machine did in one of them.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub rounds: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Measure start-up time and memory with a large database instead.
    #[arg(long)]
    pub scale: bool,
    /// `--scale`: finished games to store.
    #[arg(long, default_value_t = 100_000)]
    pub stored: usize,
    /// `--scale`: active correspondence games to store.
    #[arg(long, default_value_t = 10_000)]
    pub active: usize,
    /// `--scale`: plies per generated game.
    #[arg(long, default_value_t = 40)]
    pub plies: usize,
    /// Measure flood protection instead: one user sending 1,000 commands a
    /// second beside 8 games played at an honest pace.
    #[arg(long)]
    pub flood: bool,
    /// `--flood`: seconds of each quiet and each flooded phase.
    #[arg(long, default_value_t = 5)]
    pub flood_seconds: u64,
    /// `--flood`: quiet/flooded rounds (the figure is the median of the
    /// rounds' ratios: more rounds, less noise).
    #[arg(long, default_value_t = 8)]
    pub flood_rounds: usize,
    /// Measure the live web board instead: a move from one socket until
    /// the opponent's has it at 1, 100 and 1,000 games (at most `--games`),
    /// beside the same moves without the web; one game watched by 1,000
    /// sockets; the page's weight.
    #[arg(long)]
    pub web: bool,
    /// Measure the club pages instead: a 200-player Swiss's page, a
    /// 10,000-player ladder's pages and a 300-ply game's viewer, beside
    /// reading the same data from the store.
    #[arg(long)]
    pub pages: bool,
    /// Measure puzzles instead (needs Stockfish): puzzles found per
    /// CPU-minute from uneven engine games (beside analysing the same
    /// games), the latency of a `/move` answering a puzzle (beside a game's
    /// move), and the move path's throughput with the background miner
    /// running (beside without).
    #[arg(long)]
    pub puzzles: bool,
    /// `--puzzles`: games played by `puzzles generate` before and after the
    /// screen and aimed blunders, each (0: skip that part).
    #[arg(long, default_value_t = 6)]
    pub generator_games: usize,
    /// `--puzzles`: engine games mined and analysed.
    #[arg(long, default_value_t = 12)]
    pub mining_games: usize,
    /// `--puzzles`: the two sides' Stockfish skill levels (0..20) in the
    /// mined games, the stronger first (colours alternate by game).
    #[arg(long, value_delimiter = ',', default_values_t = [20, 20])]
    pub mining_skills: Vec<u8>,
    /// `--puzzles`: the share of the mined games' moves played at random
    /// (a club player's oversights), 0 to 1.
    #[arg(long, default_value_t = 0.1)]
    pub mining_random_moves: f64,
    /// `--puzzles`: measure only the generator, before and after.
    #[arg(long)]
    pub generator_only: bool,
    /// Internal: start the bot on `--database` as is, report and exit (the
    /// scale run starts itself with this to measure a fresh process).
    #[arg(long, hide = true)]
    pub startup_probe: bool,
    /// Keep one game analysis running (the engine searching position after
    /// position at the analysis depth) while moves are timed, to see that
    /// the move path does not slow down. Needs Stockfish.
    #[arg(long)]
    pub with_analysis: bool,
}

/// Runs the bench and prints its report.
pub async fn run(args: BenchArgs) -> anyhow::Result<()> {
    if args.startup_probe {
        return scale::probe(&args.database, args.active).await;
    }
    if args.scale || args.flood || args.web || args.pages || args.puzzles {
        let db = database::BenchDatabase::create(&args.database).await?;
        let result = if args.web {
            web::run(&args, db.url()).await
        } else if args.pages {
            pages::run(db.url()).await
        } else if args.puzzles {
            puzzles::run(&args, db.url()).await
        } else if args.scale {
            scale::run(&args, db.url()).await
        } else {
            flood::run(&args, db.url()).await
        };
        db.drop_it().await?;
        return result;
    }
    anyhow::ensure!(
        u64::try_from(args.moves).is_ok_and(|moves| moves >= args.rounds),
        "--moves ({}) must be at least --rounds ({}): each turn plays its share of the moves",
        args.moves,
        args.rounds
    );
    let modes: Vec<Durability> = match args.durability.trim() {
        "both" => vec![Durability::Full, Durability::Normal],
        one => vec![one.parse().map_err(anyhow::Error::msg)?],
    };
    let mut headlines = Vec::new();
    for (i, mode) in modes.iter().enumerate() {
        if i > 0 {
            println!();
        }
        let db = database::BenchDatabase::create(&args.database).await?;
        let result = throughput(&args, db.url(), *mode).await;
        db.drop_it().await?;
        let headline = result?;
        // The setting is SQLite's: PostgreSQL runs once.
        let postgres = headline.backend == Backend::Postgres;
        headlines.push(headline);
        if postgres {
            break;
        }
    }
    if headlines.len() > 1 {
        println!();
        println!(
            "== durability side by side ({} in flight) ==",
            args.concurrency
        );
        println!(
            "{:<8} {:>10} {:>12} {:>12} {:>16} {:>16}",
            "mode", "moves/s", "median ms", "p99 ms", "1-by-1 median", "1-by-1 p99"
        );
        for h in &headlines {
            println!(
                "{:<8} {:>10.0} {:>12.3} {:>12.3} {:>16.3} {:>16.3}",
                h.durability.name(),
                h.moves_per_sec,
                h.loaded.quantile_ms(0.5),
                h.loaded.quantile_ms(0.99),
                h.sequential.quantile_ms(0.5),
                h.sequential.quantile_ms(0.99)
            );
        }
    }
    Ok(())
}

/// CPU per move under load, ours beside the floor's: what each side of the
/// database connection spends, which decides the moves a busy machine can
/// make.
fn print_cpu(
    ours: &cpu::CpuSample,
    ours_moves: usize,
    floor: &cpu::CpuSample,
    floor_moves: usize,
    with_database: bool,
) {
    let ms = |d: std::time::Duration, moves: usize| d.as_secs_f64() * 1e3 / moves.max(1) as f64;
    println!(
        "CPU per move, ms (ours, refusals included / floor): bot {:.3} / {:.3}{}",
        ms(ours.bot, ours_moves),
        ms(floor.bot, floor_moves),
        match with_database {
            true => format!(
                ", database server {:.3} / {:.3}, both {:.3} / {:.3}",
                ms(ours.database, ours_moves),
                ms(floor.database, floor_moves),
                ms(ours.bot + ours.database, ours_moves),
                ms(floor.bot + floor.database, floor_moves)
            ),
            // SQLite runs in this process; a remote server is not seen.
            false => " (the database's own work included if it runs in this process)".to_owned(),
        }
    );
}

/// The turns' own ratios (floor moves/s ÷ ours, each turn beside the floor's
/// turn right after it): their median, spread and each one, so that a run
/// shows how far one figure can be trusted on this machine.
fn round_ratio_line(ratios: &mut [f64]) -> String {
    let each = ratios
        .iter()
        .map(|r| format!("{r:.2}"))
        .collect::<Vec<_>>()
        .join(" ");
    ratios.sort_by(f64::total_cmp);
    format!(
        "turn by turn: median {:.2}× (min {:.2}, max {:.2} over {} turns: {each})",
        report::median(ratios),
        ratios.first().copied().unwrap_or(f64::NAN),
        ratios.last().copied().unwrap_or(f64::NAN),
        ratios.len()
    )
}

/// The figures of one run that the side-by-side table shows.
struct Headline {
    backend: Backend,
    durability: Durability,
    moves_per_sec: f64,
    loaded: report::Samples,
    sequential: report::Samples,
}

async fn throughput(
    args: &BenchArgs,
    url: &str,
    durability: Durability,
) -> anyhow::Result<Headline> {
    let renderer = Arc::new(Renderer::new(RenderConfig::default())?);
    let store = crate::store::Store::open_with(url, durability).await?;
    let clock: Arc<dyn Clock> = match args.clock.as_str() {
        "frozen" => Arc::new(ManualClock::new(START_MS)),
        _ => Arc::new(RunningClock::new(START_MS)),
    };
    let service = Service::new(store.clone(), renderer.clone(), clock);
    println!(
        "chessbot bench: {} games, {} moves in {} turns, {} in flight, clock {}, {:?}{} on {}, {} cores",
        args.games,
        args.moves,
        args.rounds,
        args.concurrency,
        args.clock,
        store.backend(),
        match store.backend() {
            Backend::Sqlite => format!(" (durability {})", durability.name()),
            Backend::Postgres => String::new(),
        },
        database::describe(url),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    let t = Instant::now();
    throughput::configure(&service).await?;
    let slots = throughput::start_games(&service, args.games, args.concurrency).await?;
    println!(
        "setup: {} games started in {:.2} s",
        slots.len(),
        t.elapsed().as_secs_f64()
    );

    // Warm-up: every game gets its first move, so the timed run sees cached
    // games as a running bot does.
    let (_, slots) = throughput::play(
        &service,
        slots,
        args.games,
        args.concurrency,
        0.0,
        args.seed,
    )
    .await?;

    // Ours and the floor take turns, a quarter of the moves at a time, so
    // that both see the same machine (others' load on a shared machine
    // comes and goes).
    let analysis = match args.with_analysis {
        true => Some(analysis_load::start().await?),
        false => None,
    };
    let floor = floor::Floor::new(store.clone(), renderer, args.seed).await?;
    let sequential_moves = (args.moves / 10).max(200);
    let mut loaded = throughput::Outcome::default();
    let mut sequential = throughput::Outcome::default();
    let mut floor_loaded = floor::FloorOutcome::default();
    let mut floor_seq = floor::FloorOutcome::default();
    let mut stages = StageSnapshot::default();
    let mut seq_stages = StageSnapshot::default();
    // CPU under load, ours and the floor's: the database server's too when
    // it runs on this machine.
    let server =
        (store.backend() == Backend::Postgres && database::is_local(url)).then_some("postgres");
    let (mut ours_cpu, mut floor_cpu) = (cpu::CpuSample::default(), cpu::CpuSample::default());
    let mut slots = slots;
    let rounds = args.rounds;
    let per_round = usize::try_from(rounds).unwrap_or(1);
    // Floor moves/s ÷ ours, turn by turn.
    let mut round_ratios = Vec::with_capacity(per_round);
    for round in 0..rounds {
        let seed = args.seed + 1000 * (round + 1);
        let before = service.stage_timings();
        let cpu_before = cpu::CpuSample::now(server);
        let (run, rest) = throughput::play(
            &service,
            slots,
            args.moves / per_round,
            args.concurrency,
            args.bad_rate,
            seed,
        )
        .await?;
        stages = stages.plus(&service.stage_timings().since(&before));
        let ours_rate = run.moves_per_sec();
        loaded.extend(run);
        let cpu_between = cpu::CpuSample::now(server);
        ours_cpu = ours_cpu.plus(&cpu_between.since(&cpu_before));
        let floor_run = floor.run(args.moves / per_round, args.concurrency).await?;
        round_ratios.push(floor_run.ops_per_sec() / ours_rate);
        floor_loaded.extend(floor_run);
        floor_cpu = floor_cpu.plus(&cpu::CpuSample::now(server).since(&cpu_between));

        // One command at a time: per-move cost without queueing.
        let before = service.stage_timings();
        let (run, rest) = throughput::play(
            &service,
            rest,
            (sequential_moves / per_round).max(1),
            1,
            0.0,
            seed + 500,
        )
        .await?;
        seq_stages = seq_stages.plus(&service.stage_timings().since(&before));
        sequential.extend(run);
        floor_seq.extend(floor.run((sequential_moves / per_round).max(1), 1).await?);
        slots = rest;
    }
    floor.finish().await?;
    store.close().await;
    if let Some(analysis) = analysis {
        println!();
        println!(
            "with one analysis running beside: {} positions analysed meanwhile",
            analysis.stop().await
        );
    }

    println!();
    println!("== under load ({} in flight) ==", args.concurrency);
    println!(
        "ours : {:>8.0} moves/s   per move {}",
        loaded.moves_per_sec(),
        loaded.moves.summary()
    );
    println!(
        "floor: {:>8.0} moves/s   per move {}",
        floor_loaded.ops_per_sec(),
        floor_loaded.whole.summary()
    );
    println!(
        "cost ratio (floor moves/s ÷ ours): {:.2}×",
        floor_loaded.ops_per_sec() / loaded.moves_per_sec()
    );
    println!("{}", round_ratio_line(&mut round_ratios));
    println!(
        "refused attempts (wrong player, illegal): {}",
        loaded.refusals.summary()
    );
    println!("games replaced after ending: {}", loaded.restarts);
    if ours_cpu.measured() {
        print_cpu(
            &ours_cpu,
            loaded.moves.len(),
            &floor_cpu,
            floor_loaded.whole.len(),
            server.is_some(),
        );
    }
    let (groups, grouped) = store.group_commit_stats();
    if groups > 0 {
        println!(
            "group commit: {grouped} changes in {groups} transactions ({:.2} a group)",
            grouped as f64 / groups as f64
        );
    }
    if store.backend() == Backend::Postgres {
        let (used, stale) = service.kept_view_stats();
        println!(
            "moves judged on a kept view (no read): {used}, of which judged again on a fresh read: {stale}; \
             refusals decided on a kept view confirmed current: {}",
            service.kept_views_confirmed()
        );
    }
    println!();
    println!("== one at a time ==");
    println!("ours : {}", sequential.moves.summary());
    println!("floor: {}", floor_seq.whole.summary());
    println!(
        "cost ratio (median ours ÷ median floor): {:.2}×",
        sequential.moves.quantile_ms(0.5) / floor_seq.whole.quantile_ms(0.5)
    );
    println!();
    println!("== breakdown (ms per move: each stage's total time ÷ moves) ==");
    println!(
        "{:<30} {:>10} {:>10} {:>11} {:>12}",
        "", "load ours", "load floor", "1-by-1 ours", "1-by-1 floor"
    );
    let row = |name: &str, a: f64, b: f64, c: f64, d: f64| {
        println!("{name:<30} {a:>10.3} {b:>10.3} {c:>11.3} {d:>12.3}");
    };
    let (l, s) = (&floor_loaded, &floor_seq);
    let (ours_moves, seq_moves) = (loaded.moves.len(), sequential.moves.len());
    // One stage: ours per move (under load, one at a time), the floor's
    // counterpart (if it has one) beside each.
    let stage_row = |name: &str,
                     ours: fn(&StageSnapshot) -> (u64, u64),
                     floor: Option<fn(&floor::FloorOutcome) -> f64>| {
        let floor_of = |f: &floor::FloorOutcome| floor.map_or(0.0, |pick| pick(f));
        row(
            name,
            per_move(ours(&stages), ours_moves),
            floor_of(l),
            per_move(ours(&seq_stages), seq_moves),
            floor_of(s),
        );
    };
    stage_row("read game (under its lock)", |t| t.read, None);
    stage_row(
        "parse + validate",
        |t| t.validate,
        Some(|f| f.validate.mean_ms()),
    );
    stage_row(
        "commit (board drawn meanwhile)",
        |t| t.commit,
        Some(|f| f.commit.mean_ms()),
    );
    stage_row(
        "render (the drawing itself)",
        |t| t.render,
        Some(|f| f.render.mean_ms()),
    );
    stage_row(
        "render waited for (endings)",
        |t| t.render_wait,
        Some(|f| f.render.mean_ms()),
    );
    // Ours draws while it commits: only a wait for the drawing adds up.
    let accounted = |t: &StageSnapshot, moves: usize| {
        [t.read, t.validate, t.commit, t.render_wait]
            .into_iter()
            .map(|stage| per_move(stage, moves))
            .sum::<f64>()
    };
    row(
        "rest (lock, reply)",
        loaded.moves.mean_ms() - accounted(&stages, ours_moves),
        l.whole.mean_ms() - l.validate.mean_ms() - l.commit.mean_ms() - l.render.mean_ms(),
        sequential.moves.mean_ms() - accounted(&seq_stages, seq_moves),
        s.whole.mean_ms() - s.validate.mean_ms() - s.commit.mean_ms() - s.render.mean_ms(),
    );
    row(
        "whole move",
        loaded.moves.mean_ms(),
        l.whole.mean_ms(),
        sequential.moves.mean_ms(),
        s.whole.mean_ms(),
    );
    Ok(Headline {
        backend: store.backend(),
        durability,
        moves_per_sec: loaded.moves_per_sec(),
        loaded: loaded.moves,
        sequential: sequential.moves,
    })
}

#[cfg(test)]
mod tests {
    use super::round_ratio_line;

    #[test]
    fn the_turns_line_gives_median_spread_and_each_turn_in_order() {
        let line = round_ratio_line(&mut [1.5, 1.2, 2.0, 1.3]);
        assert_eq!(
            line,
            "turn by turn: median 1.40× (min 1.20, max 2.00 over 4 turns: 1.50 1.20 2.00 1.30)"
        );
    }
}
