//! How long the bot takes to close a round of a 200-player Swiss: the
//! round's last game ends (a resignation through the service), the next
//! round is paired by the FIDE Dutch engine, its 100 games are created in
//! one transaction and the announcement and thread requests are built.
//! Side by side, in the same run: the Dutch pairing call alone on the same
//! tournament (the reference: what the rest costs on top of it).
//!
//! `cargo run --release --example tournament_bench [-- PLAYERS ROUNDS]`
//! (default 200 players, rounds 1–5 closed). SQLite in a temp folder with
//! the default durability (every commit synced).

use std::{sync::Arc, time::Instant};

use chessbot::{
    clock::{Clock, ManualClock},
    render::{RenderConfig, Renderer},
    service::{Actor, Command, Service, TournamentCommand, TournamentOptions},
    store::{GameChange, GameState, Store},
    tournament::dutch,
};

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: "bench".into(),
        channel: channel.into(),
        user: user.into(),
        name: user.into(),
        locale: None,
        server_locale: None,
        is_moderator: user == "mod",
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let players = args.first().copied().unwrap_or(200);
    let rounds = args.get(1).copied().unwrap_or(5);
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite:{}", dir.path().join("bench.db").display());
    let store = Store::open(&url).await?;
    let clock: Arc<dyn Clock> = Arc::new(ManualClock::new(1_767_268_800_000));
    let service = Service::new(
        store.clone(),
        Arc::new(Renderer::new(RenderConfig::default())?),
        clock,
    );
    service.seed_lots(1);
    let run = |user: &str, command: TournamentCommand| {
        let service = service.clone();
        let a = actor(user, "lobby");
        async move { service.handle(&a, Command::Tournament(command)).await }
    };
    run(
        "mod",
        TournamentCommand::Create(TournamentOptions {
            name: "Bench Swiss".into(),
            rounds: Some(rounds as i64 + 1),
            rated: Some(false),
            max_players: Some(i64::from(players)),
            ..TournamentOptions::default()
        }),
    )
    .await;
    for i in 0..players {
        run(
            &format!("p{i:04}"),
            TournamentCommand::Join { tournament: None },
        )
        .await;
    }
    run("mod", TournamentCommand::Start { tournament: None }).await;
    let id = store.tournaments_of("bench", false, 1).await?[0].id;
    println!("players {players}: closing a round (last game ends → next round paired, games created, announced)");
    println!("round  boards  close (ms)  Dutch pairing alone (ms)");
    for round in 1..=rounds {
        let boards = store.tournament_games(id).await?;
        let games: Vec<i64> = boards
            .iter()
            .filter(|b| b.round == i64::from(round) && b.result.is_none())
            .filter_map(|b| b.game_id)
            .collect();
        let (last, rest) = games.split_last().expect("a game to play");
        // Every game but the last ends in the database (results varied by id).
        for (k, game) in rest.iter().enumerate() {
            let record = store.game(*game).await?.expect("game");
            let result = ["1-0", "0-1", "1/2-1/2"][(k + round as usize) % 3];
            store
                .apply(&GameChange {
                    game_id: *game,
                    expected_version: record.version,
                    new_move: None,
                    state: GameState {
                        result: Some(result.into()),
                        termination: Some("agreement".into()),
                        ended_ms: Some(1),
                        ..GameState::default()
                    },
                    rating: None,
                    mover: None,
                    at_ms: 1,
                })
                .await?;
        }
        // The last game: moved to its thread, resigned through the service.
        service.thread_opened(*last, &format!("t{last}")).await;
        service.background_idle().await;
        service.take_notices();
        let record = store.game(*last).await?.expect("game");
        let loser = actor(&record.game.black_id, &format!("t{last}"));
        let started = Instant::now();
        service
            .handle(&loser, Command::Resign { confirmed: true })
            .await;
        service.background_idle().await;
        let notices = service.take_notices();
        let close = started.elapsed();
        let paired = notices
            .iter()
            .filter(|n| n.reply.open_thread.is_some())
            .count();
        // The reference: the pairing call alone, on the tournament as it
        // stood before this round was paired.
        let t = {
            let mut event = chessbot::tournament::event::Event {
                settings: chessbot::tournament::event::Settings {
                    name: String::new(),
                    format: chessbot::tournament::event::Format::Swiss,
                    rounds: rounds + 1,
                    groups: 1,
                    match_games: 1,
                    decider: Default::default(),
                    initial_colour: chessbot::tournament::model::Colour::White,
                    scoring: Default::default(),
                },
                entrants: Vec::new(),
                boards: Vec::new(),
            };
            let entrants = store.entrants(id).await?;
            let mut by_pno: Vec<_> = entrants.iter().collect();
            by_pno.sort_by_key(|e| e.pno);
            let pno = |u: &str| {
                entrants
                    .iter()
                    .find(|e| e.user_id == u)
                    .and_then(|e| e.pno)
                    .unwrap_or(0) as u32
            };
            event.entrants = by_pno
                .iter()
                .map(|e| chessbot::tournament::event::Entrant {
                    pno: e.pno.unwrap_or(0) as u32,
                    name: e.name.clone(),
                    rating: 0,
                    section: None,
                    withdrawn_after: None,
                })
                .collect();
            event.boards = store
                .tournament_games(id)
                .await?
                .iter()
                .filter(|b| b.round <= i64::from(round))
                .map(|b| chessbot::tournament::event::Board {
                    round: b.round as u32,
                    board: b.board as u32,
                    game_no: 1,
                    white: pno(&b.white_id),
                    black: b.black_id.as_deref().map(pno),
                    result: b
                        .result
                        .as_deref()
                        .and_then(chessbot::tournament::event::BoardResult::from_id),
                })
                .collect();
            event.record()
        };
        let started = Instant::now();
        let pairs = dutch::pair_round(&t, round + 1)?;
        let alone = started.elapsed();
        println!(
            "{:>5}  {:>6}  {:>10.1}  {:>24.1}",
            round + 1,
            paired.max(pairs.len()),
            close.as_secs_f64() * 1e3,
            alone.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
