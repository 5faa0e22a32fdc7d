//! The FIDE Dutch engine against an independent implementation: a sample
//! of random tournaments (bench/dutch_crosscheck.py, 30 tournaments of 6 to
//! 60 players, 3 to 11 rounds, draws, forfeits, requested byes,
//! withdrawals) paired round by round by `chessbot pairing --dutch -p`,
//! every round re-paired by the PyPI package caissify-pairings.
//!
//! The oracle is not the rules: it disagrees with us (and with the endorsed
//! engines) on some rounds, see docs/tournaments.md. This test fails when
//! our engine cannot pair a round the oracle pairs, or when agreement drops
//! below the level measured when the engine was written (a regression).
//! Skipped, with a notice, where python3 or caissify-pairings is missing.
//! The full 1,000-tournament run: see docs/tournaments.md.

use std::process::Command;

/// Rounds paired identically, in percent, below which the test fails.
/// Measured at 79.5% (seed 7: 30 tournaments, 219 rounds) when written.
const MIN_AGREEMENT: f64 = 75.0;

#[test]
fn random_tournaments_agree_with_the_oracle() {
    let has_oracle = Command::new("python3")
        .args(["-c", "import caissify_pairings"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !has_oracle {
        eprintln!(
            "SKIPPED: python3 with caissify-pairings not found (pip install caissify-pairings)"
        );
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/dutch_crosscheck.py");
    let out = Command::new("python3")
        .args([
            script,
            "--chessbot",
            env!("CARGO_BIN_EXE_chessbot"),
            "--tournaments",
            "30",
            "--seed",
            "7",
            "--max-players",
            "60",
        ])
        .output()
        .expect("run the cross-check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "cross-check failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // "30 tournaments, N rounds: M paired identically by the oracle (P%), …"
    let pct: f64 = stdout
        .split('(')
        .nth(1)
        .and_then(|s| s.split('%').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no summary in: {stdout}"));
    eprintln!("{stdout}");
    assert!(
        pct >= MIN_AGREEMENT,
        "agreement {pct}% < {MIN_AGREEMENT}%: {stdout}"
    );
}
