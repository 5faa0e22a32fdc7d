//! Transcript tests: each `tests/transcripts/*.txt` holds console input lines
//! (`> alice: /challenge @bob`) and, after each, the exact output expected.
//! The runner replays the inputs against a fresh database and compares the
//! whole output. To update a transcript after an intended change, run with
//! `UPDATE_TRANSCRIPTS=1` and review the diff before committing it.

use std::{path::Path, sync::Arc};

use chessbot::{
    platform::console::{Console, ConsoleOptions},
    render::{RenderConfig, Renderer},
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
    })
    .await
    .expect("console starts");
    let mut out = Vec::new();
    for line in expected.lines().filter_map(|l| l.strip_prefix("> ")) {
        console.run_line(line, &mut out).await.expect("line runs");
    }
    (expected, String::from_utf8(out).expect("utf-8 output"))
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
