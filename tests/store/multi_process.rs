//! Several processes on one database: two `Service`s, each with its own
//! store pool and its own in-process game locks (as two bot processes
//! running different Discord shards would have), race on the same challenge,
//! the same move and the same button. Exactly one action applies; the others
//! get a clear answer; the stored game replays legally with no duplicate ply.
//!
//! The in-process lock cannot help here, so this is the test of the
//! database-side serialisation: the version check in `Store::apply` and the
//! single-transaction `accept_challenge`. Runs on SQLite (two pools on one
//! file) and on PostgreSQL when `TEST_POSTGRES_URL` is set.
//!
//! Exactly-once deadline firing across two schedulers is in
//! `tests/service/schedulers.rs`.

use crate::common;

use std::{io::Write, sync::Arc, time::Instant};

use chessbot::{
    chess::Game,
    clock::SystemClock,
    render::{RenderConfig, Renderer},
    service::{Actor, ColorChoice, Command, DrawAction, Reply, Service, UserRef},
    store::{ServerSettings, Store},
};
use common::TestDb;

const SERVER: &str = "guild";

/// Racers per contested action, split between the two processes.
const RACERS: usize = 12;

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: SERVER.to_owned(),
        channel: channel.to_owned(),
        user: user.to_owned(),
        name: user.to_owned(),
        locale: None,
        server_locale: None,
        is_moderator: false,
    }
}

/// Two "processes" on the database at `url`: separate pools, separate
/// service state. Games live in their channel (no threads) so the channel
/// finds them.
async fn two_processes(url: &str) -> [Service; 2] {
    let renderer = Arc::new(Renderer::new(RenderConfig { pieces_dir: None }).unwrap());
    let a = Store::open(url).await.unwrap();
    let b = Store::open(url).await.unwrap();
    let mut settings = ServerSettings::defaults(SERVER);
    a.server(SERVER).await.unwrap();
    settings.threads = false;
    a.save_settings(&settings).await.unwrap();
    [a, b].map(|store| Service::new(store, renderer.clone(), Arc::new(SystemClock)))
}

/// Two processes as [`two_processes`] makes them, and a game between
/// alice (White) and bob in `channel`, started on the first: the
/// processes, the game's id and its players.
async fn a_game_on_two_processes(url: &str, channel: &str) -> ([Service; 2], i64, Actor, Actor) {
    let processes = two_processes(url).await;
    let a = &processes[0];
    let (alice, bob) = (actor("alice", channel), actor("bob", channel));
    let challenge = Command::challenge_as_white(UserRef {
        id: "bob".into(),
        name: "bob".into(),
    });
    assert!(!a.handle(&alice, challenge).await.ephemeral);
    let accepted = a.handle(&bob, Command::Accept { challenge: None }).await;
    assert!(accepted.image.is_some(), "{}", accepted.text);
    let game = game_id_in(a.store(), channel).await;
    (processes, game, alice, bob)
}

/// Runs `command` as `who` from `RACERS` tasks at once, alternating between
/// the two processes; returns the replies.
async fn race(services: &[Service; 2], who: &Actor, command: Command) -> Vec<Reply> {
    let start = Arc::new(tokio::sync::Barrier::new(RACERS));
    let tasks: Vec<_> = (0..RACERS)
        .map(|i| {
            let service = services[i % 2].clone();
            let (who, command, start) = (who.clone(), command.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                service.handle(&who, command).await
            })
        })
        .collect();
    let mut replies = Vec::new();
    for task in tasks {
        replies.push(task.await.unwrap());
    }
    replies
}

/// Exactly one reply is the public result; every other one is a private
/// refusal containing one of `expected`.
fn exactly_one_applied(replies: &[Reply], expected: &[&str], what: &str) {
    let (applied, refused): (Vec<_>, Vec<_>) = replies.iter().partition(|r| !r.ephemeral);
    assert_eq!(
        applied.len(),
        1,
        "{what}: {:#?}",
        replies.iter().map(|r| &r.text).collect::<Vec<_>>()
    );
    for r in refused {
        assert!(
            expected.iter().any(|e| r.text.contains(e)),
            "{what}: unexpected answer to a loser: {}",
            r.text
        );
    }
}

async fn game_id_in(store: &Store, channel: &str) -> i64 {
    store
        .active_game_in(channel)
        .await
        .unwrap()
        .expect("a game")
        .id
}

async fn races_on_one_game(url: &str) {
    let services = two_processes(url).await;
    let store = services[0].store().clone();
    let (alice, bob) = (actor("alice", "ch"), actor("bob", "ch"));

    // A rated challenge; bob accepts it from both processes at once.
    let posted = services[0]
        .handle(
            &alice,
            Command::Challenge {
                opponent: Some(UserRef {
                    id: "bob".into(),
                    name: "bob".into(),
                }),
                color: ColorChoice::White,
                rated: Some(true),
                time: None,
                fen: None,
                variant: None,
                position: None,
            },
        )
        .await;
    assert!(!posted.ephemeral, "{}", posted.text);
    let challenge = store.pending_challenges_in(SERVER, "ch").await.unwrap()[0].id;
    let replies = race(
        &services,
        &bob,
        Command::Button {
            id: format!("challenge:{challenge}:accept"),
        },
    )
    .await;
    exactly_one_applied(
        &replies,
        &["answered a moment ago", "already been accepted"],
        "accept",
    );
    assert_eq!(store.all_game_ids().await.unwrap().len(), 1);
    let game = game_id_in(&store, "ch").await;

    // Every move is sent by its player from both processes at once.
    let line = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"];
    for (i, san) in line.iter().enumerate() {
        let who = if i % 2 == 0 { &alice } else { &bob };
        let replies = race(
            &services,
            who,
            Command::Move {
                text: (*san).into(),
                claim_draw: false,
            },
        )
        .await;
        exactly_one_applied(&replies, &["moved on", "not your turn"], san);
    }

    // alice offers a draw; bob presses Accept on that board from both
    // processes at once (a double click, two shards).
    let offer = services[1]
        .handle(
            &alice,
            Command::Draw {
                action: DrawAction::Offer,
            },
        )
        .await;
    assert!(!offer.ephemeral, "{}", offer.text);
    // A game button carries the board it was shown on: the plies played.
    let shown_at = store.moves(game).await.unwrap().len();
    let replies = race(
        &services,
        &bob,
        Command::Button {
            id: format!("game:{game}:draw-accept:{shown_at}"),
        },
    )
    .await;
    exactly_one_applied(&replies, &["moved on", "already over"], "draw-accept");

    // The stored game: every ply once, in order, legal; settled once.
    let record = store.game(game).await.unwrap().unwrap();
    assert_eq!(record.state.result.as_deref(), Some("1/2-1/2"));
    let moves = store.moves(game).await.unwrap();
    assert_eq!(
        moves.iter().map(|m| m.ply).collect::<Vec<_>>(),
        (1..=6).collect::<Vec<_>>()
    );
    assert_eq!(
        moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(),
        line
    );
    Game::replay(None, moves.iter().map(|m| (m.uci.as_str(), m.played_ms))).expect("replays");
    assert_eq!(store.game_rating_changes(game).await.unwrap().len(), 2);
    assert_eq!(
        store
            .player(SERVER, "alice")
            .await
            .unwrap()
            .unwrap()
            .rated_games,
        1
    );
    assert_eq!(store.points_total(SERVER).await.unwrap(), 0);
    // The metrics hooks saw it (the registry is per test binary, shared).
    let metrics = chessbot::metrics::registry();
    assert!(metrics.moves_applied() >= 6);
    assert!(
        metrics.commands("move", chessbot::metrics::Outcome::Refused) >= 6 * (RACERS as u64 - 1)
    );
    for s in &services {
        s.store().close().await;
    }
}

/// Twenty plies of a Ruy Lopez, for the throughput measurement.
const RUY_LOPEZ: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

/// Plays `games` games at once, each in its own channel, moves alternating
/// between the two processes; returns the moves per second (board image
/// rendered for every move, as in the bot).
async fn throughput(url: &str, games: usize) -> f64 {
    let services = two_processes(url).await;
    let mut channels = Vec::new();
    for g in 0..games {
        let channel = format!("ch{g}");
        let (white, black) = (
            actor(&format!("w{g}"), &channel),
            actor(&format!("b{g}"), &channel),
        );
        services[0]
            .handle(
                &white,
                Command::Challenge {
                    opponent: Some(UserRef {
                        id: black.user.clone(),
                        name: black.user.clone(),
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
        let accepted = services[1]
            .handle(&black, Command::Accept { challenge: None })
            .await;
        assert!(!accepted.ephemeral, "{}", accepted.text);
        channels.push((white, black));
    }
    let started = Instant::now();
    let tasks: Vec<_> = channels
        .into_iter()
        .map(|(white, black)| {
            let services = services.clone();
            tokio::spawn(async move {
                for (i, san) in RUY_LOPEZ.iter().enumerate() {
                    let who = if i % 2 == 0 { &white } else { &black };
                    let reply = services[i % 2]
                        .handle(
                            who,
                            Command::Move {
                                text: (*san).into(),
                                claim_draw: false,
                            },
                        )
                        .await;
                    assert!(!reply.ephemeral, "{san}: {}", reply.text);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let rate = (games * RUY_LOPEZ.len()) as f64 / started.elapsed().as_secs_f64();
    for s in &services {
        s.store().close().await;
    }
    rate
}

fn report(backend: &str, rate: f64) {
    // Past the harness's capture: this number is the point of the test.
    let _ = writeln!(
        std::io::stderr(),
        "{backend}: {rate:.0} moves/s (8 concurrent games, 2 processes, board rendered per move, test profile)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_two_processes_race_on_one_game() {
    let db = TestDb::sqlite();
    races_on_one_game(&db.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_processes_race_on_one_game() {
    if let Some(db) = TestDb::postgres("two_processes_race_on_one_game").await {
        races_on_one_game(&db.url).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_two_processes_throughput() {
    let db = TestDb::sqlite();
    report("SQLite", throughput(&db.url, 8).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_two_processes_throughput() {
    if let Some(db) = TestDb::postgres("two_processes_throughput").await {
        report("PostgreSQL", throughput(&db.url, 8).await);
    }
}

/// Kept views (PostgreSQL): each process keeps what a move read, brought up
/// to the state it committed, and judges the game's next move on it without
/// reading; the commit checks that nothing the view was read from changed.
/// Here the other process moves, changes a setting and stores a conditional
/// move behind the first one's back: every move is still judged on the
/// game as it is (no move lost, none twice, the new language and the
/// conditional answer honoured), and a kept view is exactly what a read
/// gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_views_see_what_other_processes_change() {
    let Some(db) = TestDb::postgres("kept_views_see_what_other_processes_change").await else {
        return;
    };
    let ([a, b], game, alice, bob) = a_game_on_two_processes(&db.url, "kv").await;
    let store = a.store().clone();
    let play = |service: &Service, who: &Actor, san: &str| {
        let (service, who, san) = (service.clone(), who.clone(), san.to_owned());
        async move {
            let reply = service
                .handle(
                    &who,
                    Command::Move {
                        text: san.clone(),
                        claim_draw: false,
                    },
                )
                .await;
            assert!(reply.image.is_some(), "{san}: {}", reply.text);
            reply
        }
    };
    let sans = |store: Store| async move {
        store
            .moves(game)
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.san)
            .collect::<Vec<_>>()
    };

    // A reads the game for 1.e4 and keeps it; 1...e5 is judged on the kept
    // view, which is then what a read gives.
    play(&a, &alice, "e4").await;
    assert_eq!(a.kept_view_stats(), (0, 0));
    play(&a, &bob, "e5").await;
    assert_eq!(a.kept_view_stats(), (1, 0));
    let kept = a.kept_view(game).expect("a kept view");
    let since = kept.check.as_ref().expect("stamps").since_ms;
    assert_eq!(Some(kept), store.play_view(game, since).await.unwrap());

    // B moves twice; A's view (White to move after 1...e5) looks current
    // for 2.Nf3, but the commit's check finds the game changed: nothing is
    // written, and the fresh read finds it Black's turn.
    play(&b, &alice, "Nf3").await;
    play(&b, &bob, "Nc6").await;
    let refused = a
        .handle(
            &alice,
            Command::Move {
                text: "Nf3".into(),
                claim_draw: false,
            },
        )
        .await;
    assert!(
        refused.image.is_none() && refused.ephemeral,
        "{}",
        refused.text
    );
    assert_eq!(sans(store.clone()).await, ["e4", "e5", "Nf3", "Nc6"]);
    // The commit on the kept view was tried and refused by its check.
    assert_eq!(a.kept_view_stats(), (2, 1));

    // A takes the game up again (fresh read), then B switches the server to
    // Chinese: A's next move, on its kept view, is refused by the commit's
    // check and judged again, and the board speaks Chinese.
    play(&a, &alice, "Bb5").await;
    let admin = Actor {
        is_moderator: true,
        ..actor("admin", "elsewhere")
    };
    let changed = b
        .handle(
            &admin,
            Command::Settings {
                changes: vec![chessbot::service::Setting::Language("zh-CN".into())],
            },
        )
        .await;
    assert!(!changed.text.contains("Sorry"), "{}", changed.text);
    let reply = play(&a, &bob, "a6").await;
    let chinese = |text: &str| text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    assert!(chinese(&reply.text), "{}", reply.text);
    assert_eq!(a.kept_view_stats(), (3, 2));

    // B stores bob's answer to 4.Ba4 in advance; A's kept view knows of no
    // conditional moves, so its commit is refused and the fresh read plays
    // the answer.
    let added = b
        .handle(
            &bob,
            Command::Conditional {
                action: chessbot::service::ConditionalAction::Add {
                    line: "Ba4 Nf6".into(),
                },
            },
        )
        .await;
    assert!(!added.text.contains("Sorry"), "{}", added.text);
    play(&a, &alice, "Ba4").await;
    assert_eq!(
        sans(store.clone()).await,
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]
    );
    // Ba4: refused on the kept view, then committed on a fresh read; the
    // answer Nf6 on the view that commit kept.
    assert_eq!(a.kept_view_stats(), (5, 3));
    let moves = store.moves(game).await.unwrap();
    Game::replay(None, moves.iter().map(|m| (m.uci.as_str(), m.played_ms))).expect("replays");
    for s in [&a, &b] {
        s.store().close().await;
    }
}

/// A refusal on a kept view (PostgreSQL) is decided on it only once one
/// small statement has confirmed that nothing it was read from changed;
/// otherwise the attempt is judged again on a fresh read. Here bob's move
/// out of turn is refused on A's current view, naming the player to move;
/// then B plays White's move behind A's back, and the same kind of attempt
/// on A's now stale view is read again and played, not refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_on_a_kept_view_stands_only_if_the_view_is_current() {
    let Some(db) = TestDb::postgres("a_refusal_on_a_kept_view_stands_only_if_current").await else {
        return;
    };
    let ([a, b], game, alice, bob) = a_game_on_two_processes(&db.url, "kr").await;
    let store = a.store().clone();
    let attempt = |service: &Service, who: &Actor, san: &str| {
        let (service, who) = (service.clone(), who.clone());
        let command = Command::Move {
            text: san.to_owned(),
            claim_draw: false,
        };
        async move { service.handle(&who, command).await }
    };
    let state = |store: Store| async move {
        let record = store.game(game).await.unwrap().expect("the game");
        let sans: Vec<String> = store
            .moves(game)
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.san)
            .collect();
        (record.version, sans)
    };
    for (who, san) in [(&alice, "e4"), (&bob, "e5")] {
        let reply = attempt(&a, who, san).await;
        assert!(reply.image.is_some(), "{san}: {}", reply.text);
    }
    let before = state(store.clone()).await;

    // White to move on A's kept view, which is current: refused on it.
    let refused = attempt(&a, &bob, "Nc6").await;
    assert!(
        refused.ephemeral && refused.image.is_none(),
        "{}",
        refused.text
    );
    assert!(refused.text.contains("alice"), "{}", refused.text);
    assert_eq!(a.kept_views_confirmed(), 1);
    assert_eq!(state(store.clone()).await, before);
    assert!(a.kept_view(game).is_some(), "the view is still kept");

    // B plays 2.Nf3: A's view is stale, so bob's attempt is not refused on
    // it but read again, and it is his move.
    let played = attempt(&b, &alice, "Nf3").await;
    assert!(played.image.is_some(), "{}", played.text);
    let reply = attempt(&a, &bob, "Nc6").await;
    assert!(reply.image.is_some(), "{}", reply.text);
    assert_eq!(a.kept_views_confirmed(), 1);
    assert_eq!(state(store.clone()).await.1, ["e4", "e5", "Nf3", "Nc6"]);
    for s in [&a, &b] {
        s.store().close().await;
    }
}

/// With shards on PostgreSQL, a move handled by process A reaches a live
/// board page served by process B: A's commit is announced with `NOTIFY`,
/// B's listener hears it and B's page reads the new state from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_in_one_process_reaches_pages_of_the_other() {
    let Some(db) = TestDb::postgres("a_move_in_one_process_reaches_pages_of_the_other").await
    else {
        return;
    };
    let [a, b] = two_processes(&db.url).await;
    let links = chessbot::service::links::WebLinks::new("http://127.0.0.1", b"secret");
    let options = chessbot::platform::web::WebOptions {
        links,
        activity: None,
    };
    let (addr, _server) =
        chessbot::platform::web::start(b.clone(), "127.0.0.1:0".parse().unwrap(), options)
            .await
            .expect("process B serves the web board");
    let challenge = Command::challenge_as_white(UserRef {
        id: "bob".into(),
        name: "bob".into(),
    });
    a.handle(&actor("alice", "board"), challenge).await;
    let accepted = a
        .handle(&actor("bob", "board"), Command::Accept { challenge: None })
        .await;
    assert!(accepted.image.is_some(), "{}", accepted.text);
    let game = a.store().active_game_in("board").await.unwrap().unwrap().id;

    let (mut page, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/game/{game}/ws"))
        .await
        .expect("a spectator's socket on process B");
    assert_eq!(next_state(&mut page).await["ply"], 0);
    let moved = a
        .handle(
            &actor("alice", "board"),
            Command::Move {
                text: "e4".into(),
                claim_draw: false,
            },
        )
        .await;
    assert!(moved.image.is_some(), "{}", moved.text);
    let state = next_state(&mut page).await;
    assert_eq!(
        (state["ply"].clone(), state["moves"].clone()),
        (1.into(), serde_json::json!(["e4"]))
    );
}

/// The next `state` frame of a board socket.
async fn next_state(
    page: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
) -> serde_json::Value {
    use futures_util::StreamExt;
    loop {
        let frame = tokio::time::timeout(std::time::Duration::from_secs(10), page.next())
            .await
            .expect("a frame from process B in time")
            .expect("open")
            .expect("a frame");
        if let tokio_tungstenite::tungstenite::Message::Text(text) = frame {
            let state: serde_json::Value = serde_json::from_str(&text).unwrap();
            if state["t"] == "state" {
                return state;
            }
        }
    }
}
