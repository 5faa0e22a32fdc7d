//! `chessbot bench --pages`: the club pages' answer times over HTTP, side
//! by side with reading the same data from the store in the same run:
//!
//! - a 200-player, 9-round Swiss (played through the service, results set
//!   by a moderator): its tournament page;
//! - a ladder of 10,000 players: its first and its last page;
//! - a 300-ply game: the viewer's page.
//!
//! Each figure is the median and 99th percentile of `SAMPLES` requests,
//! one at a time over a fresh connection, and the page's size.

use std::{sync::Arc, time::Instant};

use anyhow::{bail, Context};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use shakmaty::{Chess, Position};

use super::{
    report::Samples,
    throughput::{actor, SERVER},
    web::{http_get, pick, played},
};
use crate::{
    clock::SystemClock,
    render::{RenderConfig, Renderer},
    service::{
        links::WebLinks, ColorChoice, Command, Service, Setting, TournamentCommand,
        TournamentOptions, UserRef,
    },
};

/// Requests timed per page.
const SAMPLES: usize = 60;
const SWISS_PLAYERS: usize = 200;
const SWISS_ROUNDS: i64 = 9;
const LADDER_PLAYERS: i64 = 10_000;
const GAME_PLIES: usize = 300;

pub async fn run(url: &str) -> anyhow::Result<()> {
    let renderer = Arc::new(Renderer::new(RenderConfig::default())?);
    let store = crate::store::Store::open(url).await?;
    let service = Service::new(store, renderer, Arc::new(SystemClock));
    super::throughput::configure(&service).await?;
    let links = WebLinks::new("http://127.0.0.1", b"bench secret");
    let options = crate::platform::web::WebOptions {
        links,
        activity: None,
    };
    let (addr, _server) =
        crate::platform::web::start(service.clone(), "127.0.0.1:0".parse()?, options).await?;
    let moderator = actor("admin", "lobby");
    service
        .handle(
            &moderator,
            Command::Settings {
                changes: vec![Setting::WebPages("link".into())],
            },
        )
        .await;
    let slug = service
        .store()
        .server(SERVER)
        .await?
        .web_slug
        .context("the pages were not turned on")?;
    println!(
        "chessbot bench --pages: on {}, {} cores; {SAMPLES} requests per page, one at a time",
        super::database::describe(url),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let started = Instant::now();
    let tournament = swiss(&service).await?;
    ladder(&service, LADDER_PLAYERS).await?;
    let game = long_game(&service).await?;
    println!(
        "(data made in {:.1} s: {SWISS_PLAYERS}-player {SWISS_ROUNDS}-round Swiss #{tournament}, \
         {LADDER_PLAYERS} ladder players, a {GAME_PLIES}-ply game #{game})",
        started.elapsed().as_secs_f64()
    );
    println!(
        "{:<34} {:>10} {:>10} {:>11} {:>16} {:>16}",
        "page", "p50 ms", "p99 ms", "bytes", "store read p50", "store read p99"
    );
    let store = service.store().clone();
    let pages: [(&str, String); 4] = [
        (
            "tournament (200 players, 9 rounds)",
            format!("/club/{slug}/tournament/{tournament}"),
        ),
        (
            "ladder page 1 of 200",
            format!("/club/{slug}/ladder?page=1"),
        ),
        (
            "ladder page 200 of 200",
            format!("/club/{slug}/ladder?page=200"),
        ),
        (
            "game viewer (300 plies)",
            format!("/club/{slug}/game/{game}"),
        ),
    ];
    for (i, (name, path)) in pages.iter().enumerate() {
        let mut answers = Samples::default();
        let mut bytes = 0;
        for _ in 0..SAMPLES {
            let at = Instant::now();
            let body = http_get(addr, path).await?;
            answers.push(at.elapsed());
            bytes = body.len();
        }
        let mut reads = Samples::default();
        for _ in 0..SAMPLES {
            let at = Instant::now();
            match i {
                0 => {
                    store.tournament(tournament).await?;
                    store.entrants(tournament).await?;
                    store.tournament_games(tournament).await?;
                }
                1 | 2 => {
                    let offset = if i == 1 { 0 } else { LADDER_PLAYERS - 50 };
                    store.ladder_size(SERVER).await?;
                    store.leaderboard(SERVER, offset, 50).await?;
                }
                _ => {
                    store.game(game).await?;
                    store.moves(game).await?;
                }
            }
            reads.push(at.elapsed());
        }
        println!(
            "{:<34} {:>10.2} {:>10.2} {:>11} {:>16.2} {:>16.2}",
            name,
            answers.quantile_ms(0.5),
            answers.quantile_ms(0.99),
            bytes,
            reads.quantile_ms(0.5),
            reads.quantile_ms(0.99),
        );
    }
    println!("(targets: tournament < 20 ms and < 300 KB; a ladder page < 10 ms)");
    Ok(())
}

/// A Swiss of `SWISS_PLAYERS` played to the end, results set by the
/// moderator board by board; its id.
async fn swiss(service: &Service) -> anyhow::Result<i64> {
    let moderator = actor("admin", "lobby");
    let reply = service
        .handle(
            &moderator,
            Command::Tournament(TournamentCommand::Create(TournamentOptions {
                name: "Bench Swiss".into(),
                rounds: Some(SWISS_ROUNDS),
                rated: Some(false),
                ..TournamentOptions::default()
            })),
        )
        .await;
    if reply.ephemeral {
        bail!("the tournament was refused: {}", reply.text);
    }
    let id = service.store().tournaments_of(SERVER, false, 1).await?[0].id;
    let which = Some(format!("#{id}"));
    for i in 0..SWISS_PLAYERS {
        let player = format!("s{i:03}");
        service
            .handle(
                &actor(&player, "lobby"),
                Command::Tournament(TournamentCommand::Join {
                    tournament: which.clone(),
                }),
            )
            .await;
    }
    service
        .handle(
            &moderator,
            Command::Tournament(TournamentCommand::Start {
                tournament: which.clone(),
            }),
        )
        .await;
    let mut rng = SmallRng::seed_from_u64(26);
    for round in 1..=SWISS_ROUNDS {
        service.background_idle().await;
        let boards = service.store().tournament_games(id).await?;
        for board in boards
            .iter()
            .filter(|b| b.round == round && b.result.is_none())
        {
            if board.black_id.is_none() {
                continue;
            }
            let result = ["win", "loss", "draw"][rng.gen_range(0..3)];
            service
                .handle(
                    &moderator,
                    Command::Tournament(TournamentCommand::Result {
                        tournament: which.clone(),
                        player: UserRef {
                            id: board.white_id.clone(),
                            name: board.white_id.clone(),
                        },
                        result: result.into(),
                        round: Some(round),
                        correct: false,
                    }),
                )
                .await;
        }
        service.background_idle().await;
        service.take_notices();
    }
    let record = service
        .store()
        .tournament(id)
        .await?
        .context("the tournament")?;
    if record.current_round != SWISS_ROUNDS {
        bail!("the Swiss stopped at round {}", record.current_round);
    }
    Ok(id)
}

/// `count` players on the ladder, written in one transaction.
pub(super) async fn ladder(service: &Service, count: i64) -> anyhow::Result<()> {
    let pool = service.store().pool();
    let mut tx = pool.begin().await?;
    for i in 0..count {
        sqlx::query(
            "INSERT INTO players (server_id, user_id, display_name, points, rated_games, wins, draws, losses) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (server_id, user_id) DO NOTHING",
        )
        .bind(SERVER)
        .bind(format!("l{i:05}"))
        .bind(format!("Ladder player {i}"))
        .bind(300_000 - i * 29)
        .bind(10 + i % 90)
        .bind(i % 40)
        .bind(i % 7)
        .bind(i % 30)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A game of at least `GAME_PLIES` random legal moves, still on; its id.
async fn long_game(service: &Service) -> anyhow::Result<i64> {
    for seed in 0..50u64 {
        let channel = format!("long-{seed}");
        let (white, black) = (format!("w{seed}"), format!("b{seed}"));
        service
            .handle(
                &actor(&white, &channel),
                Command::Challenge {
                    opponent: Some(UserRef {
                        id: black.clone(),
                        name: black.clone(),
                    }),
                    color: ColorChoice::White,
                    rated: Some(false),
                    time: None,
                    fen: None,
                    variant: None,
                    position: None,
                },
            )
            .await;
        service
            .handle(
                &actor(&black, &channel),
                Command::Accept { challenge: None },
            )
            .await;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut position = Chess::default();
        let mut plies = 0;
        while plies < GAME_PLIES {
            let Some(uci) = pick(&position, &mut rng) else {
                break;
            };
            let next = played(&position, &uci)?;
            // Stop short of an ending the bot calls by itself.
            if next.is_game_over() || next.is_insufficient_material() {
                break;
            }
            let mover = if plies % 2 == 0 { &white } else { &black };
            let reply = service
                .handle(
                    &actor(mover, &channel),
                    Command::Move {
                        text: uci,
                        claim_draw: false,
                    },
                )
                .await;
            if reply.ephemeral {
                break;
            }
            position = next;
            plies += 1;
        }
        let game = service.store().latest_game_in(&channel).await?;
        if let Some(game) = game.filter(|g| g.is_active() && plies >= GAME_PLIES) {
            return Ok(game.id);
        }
    }
    bail!("no random game reached {GAME_PLIES} plies")
}
