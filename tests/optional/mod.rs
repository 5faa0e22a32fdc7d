//! System packages some tests need that a newcomer's machine may not have
//! (Stockfish from Debian, Python parsers from PyPI). Where one is missing,
//! the tests that need it pass without running and the suite says so once,
//! with the command that installs it; under CI (`CI` set, as `.ci/run`
//! runs) a missing package fails instead, so CI never skips silently.

#![allow(dead_code)] // each suite uses its own part of this module

use std::{
    collections::HashSet,
    io::Write,
    sync::{Mutex, OnceLock},
};

/// Whether `what` is here. When it is not: under CI, panics naming `how`
/// (the install command); elsewhere prints once per binary that the
/// `tests` were skipped and returns `false`.
pub fn require(what: &str, present: bool, tests: &str, how: &str) -> bool {
    if present {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{what} is required under CI for {tests}: {how}"
    );
    static SAID: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if said
        .get_or_insert_with(HashSet::new)
        .insert(what.to_owned())
    {
        // Straight to the process's stderr: the test harness captures
        // `eprintln!` of passing tests, and this must be seen.
        let _ = writeln!(
            std::io::stderr(),
            "\n*** {what} not found: {tests} were SKIPPED. To run them: {how} ***\n"
        );
    }
    false
}

/// Stockfish (`stockfish` on `PATH` or Debian's `/usr/games/stockfish`),
/// for the games against the computer and the analyses.
pub fn stockfish() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    let found = *FOUND.get_or_init(|| chessbot::engine::find_engine(None).is_some());
    require(
        "Stockfish",
        found,
        "the engine tests (play the computer, analysis)",
        "apt-get install stockfish",
    )
}

/// Fairy-Stockfish (`fairy-stockfish` on `PATH` or Debian's
/// `/usr/games/fairy-stockfish`), for lichess's variants against the
/// computer.
pub fn fairy_stockfish() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    let found = *FOUND.get_or_init(|| chessbot::engine::find_fairy_engine(None).is_some());
    require(
        "Fairy-Stockfish",
        found,
        "the variants-against-the-computer tests",
        "apt-get install fairy-stockfish",
    )
}

/// Whether `python3` can import `module`.
pub fn python_module(module: &str) -> bool {
    std::process::Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}
