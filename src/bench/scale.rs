//! `chessbot bench --scale`: fills a database with many stored games and
//! active correspondence games (random legal games, bulk-inserted in SQL),
//! then starts the bot in a fresh process and reports start-up time and
//! memory, and the memory each active game costs once the service has it
//! in its cache.

use std::{fmt::Write as _, sync::Arc, time::Instant};

use anyhow::Context;
use rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
use shakmaty::{san::San, CastlingMode, Chess, Position};

use super::{
    report::{rss_kib, Samples},
    throughput::{actor, SERVER},
    BenchArgs,
};
use crate::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{Command, Service},
    store::Store,
};

/// Players the generated games are spread over.
const PLAYERS: usize = 2_000;
/// Rows per INSERT statement.
const BATCH: usize = 400;
const NOW_MS: i64 = 1_767_268_800_000;

pub async fn run(args: &BenchArgs, url: &str) -> anyhow::Result<()> {
    let t = Instant::now();
    let store = Store::open(url).await?;
    generate(&store, args).await?;
    store.close().await;
    println!(
        "generated {} stored and {} active games of {} plies in {:.1} s",
        args.stored,
        args.active,
        args.plies,
        t.elapsed().as_secs_f64()
    );
    // A fresh process, so its memory is the bot's and nothing of ours.
    let exe = std::env::current_exe()?;
    let status = tokio::process::Command::new(exe)
        .args(["bench", "--startup-probe", "--database", url, "--active"])
        .arg(args.active.to_string())
        .status()
        .await?;
    anyhow::ensure!(status.success(), "start-up probe failed: {status}");
    Ok(())
}

/// One generated game: its moves as (uci, san).
fn random_game(rng: &mut SmallRng, plies: usize) -> Vec<(String, String)> {
    let mut position = Chess::default();
    let mut moves = Vec::with_capacity(plies);
    for _ in 0..plies {
        let legal = position.legal_moves();
        let Some(mv) = legal.choose(rng).cloned() else {
            break;
        };
        let san = San::from_move(&position, mv).to_string();
        moves.push((mv.to_uci(CastlingMode::Standard).to_string(), san));
        position.play_unchecked(mv);
        if position.is_game_over() {
            // Keep active games playable: stop before the end.
            moves.pop();
            break;
        }
    }
    moves
}

async fn generate(store: &Store, args: &BenchArgs) -> anyhow::Result<()> {
    store.server(SERVER).await?;
    let pool = store.pool();
    for chunk in (0..PLAYERS).collect::<Vec<_>>().chunks(BATCH) {
        let mut sql =
            String::from("INSERT INTO players (server_id, user_id, display_name) VALUES ");
        for (n, i) in chunk.iter().enumerate() {
            let sep = if n == 0 { "" } else { "," };
            write!(sql, "{sep}('{SERVER}', 'p{i}', 'p{i}')")?;
        }
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(pool).await?;
    }
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let total = args.stored + args.active;
    let ids: Vec<usize> = (1..=total).collect();
    for chunk in ids.chunks(BATCH) {
        let mut games = String::from(
            "INSERT INTO games (id, server_id, home_channel_id, channel_id, white_id, black_id, \
             rated, time_control, status, result, termination, version, deadline_ms, created_ms, \
             ended_ms, wake_ms) VALUES ",
        );
        let mut moves =
            String::from("INSERT INTO moves (game_id, ply, uci, san, played_ms) VALUES ");
        let mut first_move = true;
        for (n, &id) in chunk.iter().enumerate() {
            let active = id > args.stored;
            let game = random_game(&mut rng, args.plies);
            let (white, black) = (id % PLAYERS, (id * 7 + 1) % PLAYERS);
            let channel = if active {
                format!("a{}", id - args.stored - 1)
            } else {
                format!("t{id}")
            };
            let (status, result, termination, ended, deadline) = if active {
                (
                    "active",
                    "NULL",
                    "NULL",
                    "NULL".to_owned(),
                    (NOW_MS + 3 * 86_400_000).to_string(),
                )
            } else {
                (
                    "finished",
                    "'1-0'",
                    "'resignation'",
                    NOW_MS.to_string(),
                    "NULL".to_owned(),
                )
            };
            let sep = if n == 0 { "" } else { "," };
            write!(
                games,
                "{sep}({id}, '{SERVER}', 'lobby', '{channel}', 'p{white}', 'p{black}', 0, '3d', \
                 '{status}', {result}, {termination}, {}, {deadline}, {NOW_MS}, {ended}, {deadline})",
                game.len()
            )?;
            for (ply, (uci, san)) in game.iter().enumerate() {
                let sep = if first_move { "" } else { "," };
                first_move = false;
                write!(
                    moves,
                    "{sep}({id}, {}, '{uci}', '{san}', {NOW_MS})",
                    ply + 1
                )?;
            }
        }
        let mut tx = pool.begin().await?;
        sqlx::query(sqlx::AssertSqlSafe(games))
            .execute(&mut *tx)
            .await
            .context("inserting games")?;
        if !first_move {
            sqlx::query(sqlx::AssertSqlSafe(moves))
                .execute(&mut *tx)
                .await
                .context("inserting moves")?;
        }
        tx.commit().await?;
    }
    Ok(())
}

/// The start-up probe: what a starting bot does, timed, then one move in
/// each of `active` games so the service caches them all.
pub async fn probe(url: &str, active: usize) -> anyhow::Result<()> {
    let rss_start = rss_kib().unwrap_or(0);
    let t = Instant::now();
    let renderer = Arc::new(Renderer::new(RenderConfig::default())?);
    let render_ms = t.elapsed().as_secs_f64() * 1e3;
    let t_store = Instant::now();
    let store = Store::open(url).await?;
    let store_ms = t_store.elapsed().as_secs_f64() * 1e3;
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(NOW_MS + 60_000));
    let service = Service::new(store.clone(), renderer, clock);
    let startup_ms = t.elapsed().as_secs_f64() * 1e3;
    let rss_started = rss_kib().unwrap_or(0);

    // What a deadline scheduler reads at start (issue 6 is not merged yet;
    // this is the query it needs, timed on its own).
    let t_deadlines = Instant::now();
    let deadlines = sqlx::query(
        "SELECT id, deadline_ms FROM games WHERE status = 'active' AND deadline_ms IS NOT NULL",
    )
    .fetch_all(store.pool())
    .await?;
    let deadlines_ms = t_deadlines.elapsed().as_secs_f64() * 1e3;
    let deadline_rows = deadlines.len();
    drop(deadlines);
    let rss_before_games = rss_kib().unwrap_or(0);

    let mut cold = Samples::default();
    for i in 0..active {
        let channel = format!("a{i}");
        let Some(record) = store.active_game_in(&channel).await? else {
            anyhow::bail!("active game {channel} is missing");
        };
        let plies = store.moves(record.id).await?.len();
        let mover = if plies % 2 == 0 {
            record.game.white_id.clone()
        } else {
            record.game.black_id.clone()
        };
        let Some(san) = service.move_suggestions(&channel, "", 1).await.pop() else {
            anyhow::bail!("no legal move in {channel}");
        };
        let t = Instant::now();
        let reply = service
            .handle(
                &actor(&mover, &channel),
                Command::Move {
                    text: san,
                    claim_draw: false,
                },
            )
            .await;
        cold.push(t.elapsed());
        anyhow::ensure!(
            reply.image.is_some(),
            "move in {channel} refused: {}",
            reply.text
        );
    }
    let rss_games = rss_kib().unwrap_or(0);
    println!("start-up: {startup_ms:.1} ms (renderer {render_ms:.1} ms, store open + migrations {store_ms:.1} ms)");
    println!("scheduler query: {deadline_rows} deadlines read in {deadlines_ms:.1} ms");
    println!(
        "memory: {} KiB at process start, {} KiB after start-up, {} KiB with {active} games cached",
        rss_start, rss_started, rss_games
    );
    if active > 0 {
        println!(
            "memory per active game in the service cache: {:.1} KiB",
            rss_games.saturating_sub(rss_before_games) as f64 / active as f64
        );
        println!(
            "first move after start (game replayed from the store): {}",
            cold.summary()
        );
    }
    store.close().await;
    Ok(())
}
