//! Transcript tests: each `tests/transcripts/*.txt` holds console input lines
//! (`> alice: /challenge @bob`) and, after each, the exact output expected.
//! The runner replays the inputs against a fresh database and compares the
//! whole output. A transcript whose file name starts with `zh-` runs with
//! `--locale zh-CN` (every user and the server speak Simplified Chinese).
//! Every reply is also held to Discord's limits (nothing may need cutting).
//! To update a transcript after an intended change, run with
//! `UPDATE_TRANSCRIPTS=1` and review the diff before committing it.

use std::{path::Path, sync::Arc};

use chessbot::{
    chess::{Game, Variant},
    platform::{
        console::{Console, ConsoleOptions, SERVER},
        discord::fit::overflows,
    },
    render::{RenderConfig, Renderer},
    store::Store,
};

async fn replay(path: &Path, renderer: Arc<Renderer>) -> (String, String) {
    let expected = std::fs::read_to_string(path).expect("transcript readable");
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("transcript.db");
    let mut console = Console::new(ConsoleOptions {
        database_url: format!("sqlite:{}", db.display()),
        out_dir: None,
        moderators: vec!["carol".to_owned()],
        echo: true,
        renderer,
        locale: path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("zh-"))
            .then(|| "zh-CN".to_owned()),
        seed: Some(2026),
        web: None,
    })
    .await
    .expect("console starts");
    console.keep_replies();
    let mut out = Vec::new();
    for line in expected.lines().filter_map(|l| l.strip_prefix("> ")) {
        console.run_line(line, &mut out).await.expect("line runs");
        // Nothing the bot says may need cutting to go to Discord.
        for reply in console.take_replies() {
            let overflows = overflows(&reply);
            assert!(
                overflows.is_empty(),
                "{}: after {line:?}, a reply Discord would cut: {overflows:?}\n{}",
                path.display(),
                reply.text
            );
        }
    }
    check_store(console.service().store(), path).await;
    (expected, String::from_utf8(out).expect("utf-8 output"))
}

/// Every stored game replays legally from its moves, ply numbers run 1..n
/// without gaps, and the server's points still sum to exactly zero.
async fn check_store(store: &Store, path: &Path) {
    for id in store.all_game_ids().await.expect("game ids") {
        let record = store.game(id).await.expect("game").expect("game exists");
        let moves = store.moves(id).await.expect("moves");
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(
                m.ply,
                i as i64 + 1,
                "{}: game {id} ply numbering",
                path.display()
            );
        }
        Game::replay_in(
            record.game.variant,
            record.game.initial_fen.as_deref(),
            moves.iter().map(|m| (m.uci.as_str(), m.played_ms)),
        )
        .unwrap_or_else(|e| panic!("{}: game {id} does not replay: {e}", path.display()));
    }
    for variant in Variant::ALL {
        assert_eq!(
            store.points_total_in(SERVER, variant).await.expect("total"),
            0,
            "{}: {variant}",
            path.display()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transcripts_replay_exactly() {
    let renderer = Arc::new(Renderer::new(RenderConfig::default()).expect("renderer"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("transcripts folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 10,
        "expected the full transcript suite, found {}",
        paths.len()
    );
    let update = std::env::var_os("UPDATE_TRANSCRIPTS").is_some();
    let mut failures = Vec::new();
    for path in &paths {
        let (expected, actual) = replay(path, renderer.clone()).await;
        if update {
            std::fs::write(path, &actual).expect("write transcript");
        } else if expected != actual {
            let first_diff = expected
                .lines()
                .zip(actual.lines())
                .position(|(e, a)| e != a)
                .unwrap_or(expected.lines().count().min(actual.lines().count()));
            failures.push(format!(
                "{}: differs at line {}\n  expected: {:?}\n  actual:   {:?}",
                path.display(),
                first_diff + 1,
                expected.lines().nth(first_diff),
                actual.lines().nth(first_diff)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
