//! `chessbot bench --flood`: one user sends 1,000 commands a second while
//! 8 games are played at an honest pace, with the production flood limits
//! ([`Limits::default`]). Quiet and flooded phases alternate so both see
//! the same machine, in the order quiet-flooded, flooded-quiet, … (so a
//! machine getting busier or quieter over the run weighs on both alike).
//! The p99 of one phase rests on its slowest few moves, which the machine's
//! other work decides as much as the flooder: the figure to decide on is the
//! median of the rounds' ratios (printed with their spread) beside the
//! ratio over all phases together. Also reported: what a refused flood
//! command costs, the time the flooder's admitted commands took, how many
//! got through against what the limit allows, and the rows the flooder left
//! in the database.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use anyhow::Context;
use rand::{rngs::SmallRng, SeedableRng};
use sqlx::Row;

use super::{
    report::Samples,
    throughput::{self, actor, Slot},
    BenchArgs,
};
use crate::{
    clock::{Clock, ManualClock},
    limits::Limits,
    render::{RenderConfig, Renderer},
    service::{Command, Service, UserRef},
    store::Store,
};

/// Games played beside the flood.
const GAMES: usize = 8;
/// Pause after each move of a game: each player then moves about every
/// 1.1 s, under the one-a-second command rate an honest player keeps.
const THINK: Duration = Duration::from_millis(550);
/// The flooder's rate: one command a millisecond.
const FLOOD_EVERY: Duration = Duration::from_millis(1);
/// The flooders' ids start so: each flooded phase has a fresh one, whose
/// full burst (the worst case) every phase sees alike.
const FLOODER: &str = "flooder";

/// What the flooder saw in one phase.
#[derive(Default)]
struct Flood {
    refused: Samples,
    allowed: usize,
    /// Time spent in the commands that went through.
    allowed_busy: Duration,
    elapsed: Duration,
}

pub async fn run(args: &BenchArgs, url: &str) -> anyhow::Result<()> {
    let renderer = Arc::new(Renderer::new(RenderConfig::default())?);
    let store = Store::open(url).await?;
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(1_767_268_800_000));
    let limits = Limits::default();
    let service = Service::new(store.clone(), renderer, clock).with_limits(limits);
    let seconds = args.flood_seconds.max(1);
    let rounds = args.flood_rounds.max(1);
    println!(
        "chessbot bench --flood: {GAMES} games at one move per player per {:.1} s, a flooder at {} commands/s (a fresh one each flooded phase), {rounds} × ({seconds} s quiet + {seconds} s flooded), {:?}, {} cores",
        THINK.as_secs_f64() * 2.0,
        1000 / FLOOD_EVERY.as_millis().max(1),
        store.backend(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "limits: commands {} at once then {:.0}/min per user; buttons the same; expensive work {} then {:.0}/min per server",
        limits.commands.burst,
        limits.commands.per_second * 60.0,
        limits.expensive.burst,
        limits.expensive.per_second * 60.0
    );
    throughput::configure(&service).await?;
    let mut slots = throughput::start_games(&service, GAMES, GAMES).await?;

    let phase = Duration::from_secs(seconds);
    let mut quiet = Samples::default();
    let mut loud = Samples::default();
    let mut flood = Flood::default();
    let mut ratios = Vec::with_capacity(rounds);
    println!();
    for round in 0..rounds {
        let order = match round % 2 {
            0 => [false, true],
            _ => [true, false],
        };
        let (mut round_quiet, mut round_loud) = (Samples::default(), Samples::default());
        for flooded in order {
            let seed = round as u64 + if flooded { 1000 } else { 0 };
            if !flooded {
                let (moves, back) = play_for(&service, slots, phase, seed).await?;
                round_quiet.extend(moves);
                slots = back;
                continue;
            }
            // A fresh member for each flooded phase, with a game list to
            // ask about and an opponent to pester.
            let who = format!("{FLOODER}{round}");
            let stop = Arc::new(AtomicBool::new(false));
            let flooder = tokio::spawn(flood_until(service.clone(), who, stop.clone()));
            let (moves, back) = play_for(&service, slots, phase, seed).await?;
            stop.store(true, Ordering::Relaxed);
            let f = flooder.await.context("flooder panicked")?;
            round_loud.extend(moves);
            slots = back;
            flood.refused.extend(f.refused);
            flood.allowed += f.allowed;
            flood.allowed_busy += f.allowed_busy;
            flood.elapsed += f.elapsed;
        }
        let ratio = round_loud.quantile_ms(0.99) / round_quiet.quantile_ms(0.99);
        println!(
            "round {}: p99 quiet {:.2} ms (n = {}), flooded {:.2} ms (n = {}): ratio {ratio:.2}",
            round + 1,
            round_quiet.quantile_ms(0.99),
            round_quiet.len(),
            round_loud.quantile_ms(0.99),
            round_loud.len()
        );
        ratios.push(ratio);
        quiet.extend(round_quiet);
        loud.extend(round_loud);
    }

    let sent = flood.allowed + flood.refused.len();
    // What the bucket allows: a full burst per flooded phase (it refills in
    // between) plus the steady rate over the flooded time.
    let allowance = rounds as f64 * f64::from(limits.commands.burst)
        + flood.elapsed.as_secs_f64() * limits.commands.per_second;
    let challenges: i64 =
        sqlx::query("SELECT COUNT(*) AS n FROM challenges WHERE challenger_id LIKE $1")
            .bind(format!("{FLOODER}%"))
            .fetch_one(store.pool())
            .await?
            .try_get("n")?;
    println!();
    println!("players, quiet  : {}", quiet.summary());
    println!("players, flooded: {}", loud.summary());
    ratios.sort_by(f64::total_cmp);
    println!(
        "p99 flooded / quiet: median of rounds {:.2} (min {:.2}, max {:.2}; all phases together {:.2}; target: at most 2)",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
        loud.quantile_ms(0.99) / quiet.quantile_ms(0.99)
    );
    println!(
        "flooder: {sent} commands in {:.1} s ({:.0}/s); {} went through (the limit allows {:.0}), {} refused",
        flood.elapsed.as_secs_f64(),
        sent as f64 / flood.elapsed.as_secs_f64(),
        flood.allowed,
        allowance,
        flood.refused.len()
    );
    println!(
        "refused command cost: median {:.1} µs, p99 {:.1} µs, mean {:.1} µs (target: under 50 µs)",
        flood.refused.quantile_ms(0.5) * 1000.0,
        flood.refused.quantile_ms(0.99) * 1000.0,
        flood.refused.mean_ms() * 1000.0
    );
    println!(
        "flooder's admitted commands took {:.1} ms in all ({:.2} % of the flooded time)",
        flood.allowed_busy.as_secs_f64() * 1000.0,
        flood.allowed_busy.as_secs_f64() / flood.elapsed.as_secs_f64() * 100.0
    );
    println!("flooder's challenges stored: {challenges} (each needs a command that went through)");
    if flood.allowed as f64 > allowance + 1.0 {
        anyhow::bail!("the flooder got more through than the limit allows");
    }
    Ok(())
}

/// Plays every slot at the honest pace for `phase`; the players' move
/// latencies.
async fn play_for(
    service: &Service,
    slots: Vec<Slot>,
    phase: Duration,
    seed: u64,
) -> anyhow::Result<(Samples, Vec<Slot>)> {
    let until = Instant::now() + phase;
    let mut tasks = Vec::new();
    for (i, mut slot) in slots.into_iter().enumerate() {
        let service = service.clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(seed * 100 + i as u64);
            let mut outcome = throughput::Outcome::default();
            // Spread the games' moves over the pause.
            tokio::time::sleep(THINK / GAMES as u32 * i as u32).await;
            while Instant::now() < until {
                throughput::step(&service, &mut slot, &mut rng, 0.0, &mut outcome).await?;
                tokio::time::sleep(THINK).await;
            }
            anyhow::Ok((outcome.moves, slot))
        }));
    }
    let mut samples = Samples::default();
    let mut back = Vec::new();
    for task in tasks {
        let (moves, slot) = task.await.context("player panicked")??;
        samples.extend(moves);
        back.push(slot);
    }
    Ok((samples, back))
}

/// One command a millisecond until `stop`: boards, challenges, moves,
/// profiles (expensive) and game lists in turn.
async fn flood_until(service: Service, user: String, stop: Arc<AtomicBool>) -> Flood {
    let who = actor(&user, "flood");
    let victim = UserRef {
        id: "w0".to_owned(),
        name: "w0".to_owned(),
    };
    let started = Instant::now();
    let mut flood = Flood::default();
    let mut n: u32 = 0;
    while !stop.load(Ordering::Relaxed) {
        let command = match n % 5 {
            0 => Command::Board,
            1 => Command::Challenge {
                opponent: Some(victim.clone()),
                color: crate::service::ColorChoice::Random,
                rated: None,
                time: None,
                fen: None,
                variant: None,
                position: None,
            },
            2 => Command::Move {
                text: "e4".to_owned(),
                claim_draw: false,
            },
            3 => Command::Profile { user: None },
            _ => Command::Games,
        };
        let t = Instant::now();
        let reply = service.handle(&who, command).await;
        let took = t.elapsed();
        if reply.text.starts_with("Slow down") || reply.text.starts_with("This server is asking") {
            flood.refused.push(took);
        } else {
            flood.allowed += 1;
            flood.allowed_busy += took;
        }
        n += 1;
        // Keep to the schedule: command n goes out at n ms.
        let next = started + FLOOD_EVERY * n;
        tokio::time::sleep_until(next.into()).await;
    }
    flood.elapsed = started.elapsed();
    flood
}
