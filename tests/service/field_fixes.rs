//! Regression tests for issue 16 ("from the field") that need more than a
//! transcript: the console reading bytes that are not UTF-8, a PGN too long
//! for one message, the `migrate` command's words and its log lines when
//! they go to a file, and what durability a store opens with.

use std::{process::Command as Process, sync::Arc};

use chessbot::{
    clock::{Clock, ManualClock},
    platform::console::{Console, ConsoleOptions},
    render::{RenderConfig, Renderer},
    service::{Actor, ColorChoice, Command, Service, Setting, UserRef},
    store::{Durability, Store},
};
use shakmaty::{san::San, Chess, Position};

fn renderer() -> Arc<Renderer> {
    Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"))
}

/// A line that is not UTF-8 gets an answer, and the session goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_answers_a_line_that_is_not_utf8_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut console = Console::new(ConsoleOptions {
        database_url: format!("sqlite:{}", dir.path().join("c.db").display()),
        out_dir: None,
        moderators: vec![],
        echo: false,
        renderer: renderer(),
        locale: None,
        seed: None,
        web: None,
    })
    .await
    .unwrap();
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"alice: /move e\xff4\n");
    input.extend_from_slice(b"\xfe\xfd\n");
    input.extend_from_slice(b"alice: /notify dm\n");
    let mut out = Vec::new();
    console.run(&input[..], &mut out).await.unwrap();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // The move is read (with U+FFFD for the bad byte) and refused as usual.
    assert!(lines[0].contains("alice (only you)"), "{out}");
    assert!(lines[1].contains("[console]"), "{out}");
    // `/notify` is a console command too.
    assert!(lines[2].contains("by direct message"), "{out}");
}

fn actor(user: &str, channel: &str) -> Actor {
    Actor {
        server: "s".to_owned(),
        channel: channel.to_owned(),
        user: user.to_owned(),
        name: user.to_owned(),
        locale: None,
        is_moderator: user == "carol",
        server_locale: None,
    }
}

/// A long live game's PGN (clock comments on every move) goes as a `.pgn`
/// file; the message does not carry a cut PGN.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_pgn_is_sent_as_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&format!("sqlite:{}", dir.path().join("p.db").display()))
        .await
        .unwrap();
    let clock = ManualClock::new(1_767_268_800_000);
    let shared: Arc<dyn Clock> = Arc::new(clock.clone());
    let service = Service::new(store, renderer(), shared);
    let run = |user: &'static str, command: Command| {
        let service = service.clone();
        async move { service.handle(&actor(user, "g"), command).await }
    };
    run(
        "carol",
        Command::Settings {
            changes: vec![Setting::Threads(false)],
        },
    )
    .await;
    let posted = run(
        "alice",
        Command::Challenge {
            opponent: Some(UserRef {
                id: "bob".into(),
                name: "bob".into(),
            }),
            color: ColorChoice::White,
            rated: Some(false),
            time: Some("180+0".into()),
            fen: None,
            variant: None,
            position: None,
        },
    )
    .await;
    run(
        "bob",
        Command::Button {
            id: posted.buttons[0].id.clone(),
        },
    )
    .await;
    // Deterministic legal moves that avoid ending the game early.
    let mut position = Chess::default();
    let mut plies = 0;
    while plies < 90 {
        let moves = position.legal_moves();
        let Some(mv) = moves
            .iter()
            .filter(|m| {
                let mut next = position.clone();
                next.play_unchecked(**m);
                !next.is_game_over() && !next.is_insufficient_material()
            })
            .nth(plies * 7 % moves.len().max(1))
            .or_else(|| moves.first())
            .cloned()
        else {
            break;
        };
        let san = San::from_move(&position, mv).to_string();
        let user = if plies % 2 == 0 { "alice" } else { "bob" };
        clock.advance(std::time::Duration::from_secs(3));
        let reply = run(
            user,
            Command::Move {
                text: san.clone(),
                claim_draw: false,
            },
        )
        .await;
        assert!(!reply.ephemeral, "{san}: {}", reply.text);
        position.play_unchecked(mv);
        plies += 1;
        if reply.buttons.is_empty() {
            break; // the game ended after all
        }
    }
    assert!(plies >= 60, "only {plies} plies");
    let reply = run("alice", Command::Pgn { game: None }).await;
    let file = reply.files.first().cloned().expect("a .pgn file");
    assert_eq!(file.file_name, "game-1.pgn");
    let pgn = String::from_utf8(file.bytes).unwrap();
    assert!(pgn.len() > 2_000, "{} characters", pgn.len());
    assert!(pgn.contains("[%clk"), "{pgn}");
    assert!(pgn.contains(" 30. "), "{pgn}");
    assert!(reply.text.chars().count() < 200, "{}", reply.text);
    assert!(reply.text.contains("attached"), "{}", reply.text);
    assert!(!reply.text.contains("```"));
}

/// `migrate` says what it did: a fresh database is created, a second run
/// finds nothing to do. Its log lines, written to a pipe, carry no colour
/// codes.
#[test]
fn migrate_says_what_it_did_and_logs_without_colours() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("m.db").display());
    let run = || {
        Process::new(env!("CARGO_BIN_EXE_chessbot"))
            .args(["migrate", "--database-url", &url])
            .env_remove("NO_COLOR")
            .env("RUST_LOG", "info")
            .output()
            .expect("chessbot runs")
    };
    let first = run();
    assert!(first.status.success(), "{first:?}");
    let said = String::from_utf8_lossy(&first.stdout);
    assert!(said.contains("created"), "{said}");
    assert!(!said.contains("up to date"), "{said}");
    let logs = String::from_utf8_lossy(&first.stderr);
    assert!(logs.contains("running migrations"), "{logs}");
    assert!(
        !logs.contains('\u{1b}'),
        "colour codes in a redirected log: {logs:?}"
    );
    let second = run();
    let said = String::from_utf8_lossy(&second.stdout);
    assert!(said.contains("already up to date"), "{said}");
}

/// An answered move survives a power loss by default: the store opens
/// SQLite with `synchronous = FULL` unless told otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_durability_syncs_every_commit() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("d.db").display());
    for (store, expected) in [
        (Store::open(&url).await.unwrap(), 2),
        (Store::open_with(&url, Durability::Normal).await.unwrap(), 1),
        (Store::open_with(&url, Durability::Full).await.unwrap(), 2),
    ] {
        // Every pooled connection, not just the first.
        let mut seen = Vec::new();
        let mut held = Vec::new();
        for _ in 0..4 {
            let mut conn = store.pool().acquire().await.unwrap();
            let level: i64 = sqlx::query_scalar("PRAGMA synchronous")
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            seen.push(level);
            held.push(conn);
        }
        drop(held);
        assert_eq!(seen, vec![expected; 4]);
        store.close().await;
    }
}
