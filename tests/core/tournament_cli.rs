//! `chessbot pairing` and `chessbot standings` end to end: a tournament is
//! paired round by round through TRF files, checked with `-c`, ranked; bad
//! input gets a message naming the line, exit status 2, and no output file.

use std::{path::Path, process::Command};

fn chessbot(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessbot"))
        .args(args)
        .output()
        .expect("run chessbot");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn player(pno: u32, name: &str, rounds: &[(u32, char, char)]) -> String {
    let mut s = format!(
        "001 {pno:>4}      {name:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
        2000 - pno,
        "",
        "",
        "",
        "0.0",
        pno
    );
    for &(o, c, r) in rounds {
        s.push_str(&format!("  {o:04} {c} {r}"));
    }
    s
}

fn write(dir: &Path, name: &str, lines: &[String]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn pairs_round_one_in_the_javafo_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut lines = vec!["012 Club".to_string(), "XXR 3".into(), "XXC white1".into()];
    for p in 1..=5 {
        lines.push(player(p, &format!("P{p}"), &[]));
    }
    let file = write(dir.path(), "r1.trf", &lines);
    let (code, out, err) = chessbot(&["pairing", "--dutch", &file, "-p"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "3\n1 3\n4 2\n5 0\n");

    // The same to a file.
    let out_file = dir.path().join("pairs.txt");
    let (code, _, err) = chessbot(&[
        "pairing",
        "--dutch",
        &file,
        "-p",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&out_file).unwrap(),
        "3\n1 3\n4 2\n5 0\n"
    );
}

#[test]
fn pairs_the_next_round_respecting_entered_absences_and_checks_history() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Round 1 as the engine paired it; player 4 asked for a half-point bye
    // in round 2 (entered ahead of the pairing).
    let lines = vec![
        "XXR 3".to_string(),
        player(1, "P1", &[(3, 'w', '1')]),
        player(2, "P2", &[(4, 'b', '=')]),
        player(3, "P3", &[(1, 'b', '0')]),
        player(4, "P4", &[(2, 'w', '='), (0, '-', 'H')]),
        player(5, "P5", &[(0, '-', 'U')]),
    ];
    let file = write(dir.path(), "r2.trf", &lines);
    let (code, out, err) = chessbot(&["pairing", "--dutch", &file, "-p"]);
    assert_eq!(code, 0, "{err}");
    let pairs: Vec<&str> = out.lines().collect();
    assert_eq!(pairs[0], "2", "{out}");
    assert!(
        !out.lines().skip(1).any(|l| l.split(' ').any(|x| x == "4")),
        "{out}"
    );
    // 1 and 5 (1 point) meet, 1 taking Black after his White (E.1); 2 (½)
    // floats down to 3 (0); both had Black, so the higher ranked 2 gets
    // his White (E.4).
    assert_eq!(out, "2\n5 1\n2 3\n");

    let (code, out, err) = chessbot(&["pairing", "--dutch", &file, "-c"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("round 1: same pairing"), "{out}");
    assert!(out.contains("0 of 1 rounds differ"), "{out}");
}

#[test]
fn check_lists_a_round_paired_differently() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Round 1 paired 1-2 and 3-4: the Dutch pairing is 1-3 and 4-2.
    let lines = vec![
        player(1, "P1", &[(2, 'w', '1')]),
        player(2, "P2", &[(1, 'b', '0')]),
        player(3, "P3", &[(4, 'w', '=')]),
        player(4, "P4", &[(3, 'b', '=')]),
    ];
    let file = write(dir.path(), "bad.trf", &lines);
    let (code, out, _) = chessbot(&["pairing", "--dutch", &file, "-c"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("round 1: differs"), "{out}");
    assert!(out.contains("engine pairs 1-3 4-2"), "{out}");
}

#[test]
fn malformed_input_names_the_line_and_exits_2_without_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lines = vec![
        "012 Club".to_string(),
        player(1, "P1", &[(2, 'w', '1')]),
        player(2, "P2", &[(1, 'x', '0')]),
    ];
    let file = write(dir.path(), "bad.trf", &lines);
    let out_file = dir.path().join("pairs.txt");
    let (code, out, err) = chessbot(&[
        "pairing",
        "--dutch",
        &file,
        "-p",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("line 3") && err.contains("colour \"x\""),
        "{err}"
    );
    assert!(!out_file.exists(), "nothing written on bad input");

    // A round that cannot be paired: two players who already met.
    let lines = vec![
        player(1, "P1", &[(2, 'w', '1')]),
        player(2, "P2", &[(1, 'b', '0')]),
    ];
    let file = write(dir.path(), "stuck.trf", &lines);
    let (code, _, err) = chessbot(&["pairing", "--dutch", &file, "-p"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("round 2") && err.contains("cannot be paired"),
        "{err}"
    );

    let (code, _, err) = chessbot(&["pairing", "--dutch", "/nonexistent/x.trf", "-p"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = chessbot(&["standings", &file, "--tiebreak", "sb,nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown tie-break \"nope\""), "{err}");
}

#[test]
fn berger_table_and_standings() {
    let (code, out, _) = chessbot(&["pairing", "--berger", "4"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "Round  1: 1-4  2-3\nRound  2: 4-3  1-2\nRound  3: 2-4  3-1\n"
    );
    let (_, out, _) = chessbot(&["pairing", "--berger", "3", "--double"]);
    assert_eq!(out.lines().count(), 6);
    assert!(out.contains("1-bye"), "{out}");

    let dir = tempfile::tempdir().expect("tempdir");
    let lines = vec![
        player(1, "Alpha", &[(3, 'w', '1'), (2, 'b', '=')]),
        player(2, "Bravo", &[(4, 'b', '1'), (1, 'w', '=')]),
        player(3, "Charlie", &[(1, 'b', '0'), (4, 'w', '1')]),
        player(4, "Delta", &[(2, 'w', '0'), (3, 'b', '0')]),
    ];
    let file = write(dir.path(), "s.trf", &lines);
    let (code, out, err) = chessbot(&["standings", &file, "--tiebreak", "buchholz,sb"]);
    assert_eq!(code, 0, "{err}");
    // Alpha and Bravo 1.5 each; BH(Alpha) = C 1 + B 1.5 = 2.5, BH(Bravo) =
    // D 0 + A 1.5 = 1.5: Alpha ahead.
    let rows: Vec<&str> = out.lines().collect();
    assert!(rows[0].contains("BH") && rows[0].contains("SB"), "{out}");
    assert!(
        rows[1].contains("Alpha") && rows[1].trim_start().starts_with('1'),
        "{out}"
    );
    assert!(
        rows[2].contains("Bravo") && rows[2].trim_start().starts_with('2'),
        "{out}"
    );
    let (_, out, _) = chessbot(&["standings", &file]);
    let rows: Vec<&str> = out.lines().collect();
    assert!(
        rows[2].trim_start().starts_with('1'),
        "shared place without tie-breaks: {out}"
    );
}

/// Tournaments paired round by round by bbpPairings (FIDE-endorsed), kept
/// as files: `-c` re-pairs every round and must find no difference. They
/// cover odd fields (PAB), forfeits, requested byes and absences in round 1
/// (E.5 counts only the players taking part), unplayed games (they float no
/// one) and last rounds with topscorers.
#[test]
fn endorsed_engine_tournaments_are_paired_identically() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dutch");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    for file in files {
        let path = file.to_str().expect("utf-8 path");
        let (code, out, err) = chessbot(&["pairing", "--dutch", path, "-c"]);
        assert_eq!(code, 0, "{path}: {out}{err}");
        assert!(out.lines().any(|l| l.starts_with("0 of ")), "{path}: {out}");
    }
}

/// TRF files as other programs write them (`tests/fixtures/trf/`): CR
/// alone (bbpPairings), CRLF, Latin-1, and no `XXC` line (the top seed's
/// colour in round 1 gives the initial colour: in `bbp-t8-black1-*`, a
/// bbpPairings tournament with every colour swapped, that is Black). Each
/// is read whole: `-c` checks every round and agrees with the engine.
#[test]
fn trf_files_from_other_programs_are_read_whole() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/trf");
    for (name, rounds) in [
        ("bbp-t8-black1-no-xxc-cr.trf", 4),
        ("bbp-t8-black1-xxc.trf", 4),
        ("bbp-t8-crlf.trf", 4),
        ("bbp-t15-latin1.trf", 3),
    ] {
        let path = format!("{dir}/{name}");
        let (code, out, err) = chessbot(&["pairing", "--dutch", &path, "-c"]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert!(
            out.contains(&format!("0 of {rounds} rounds differ")),
            "{name}: {out}"
        );
        let (code, out, err) = chessbot(&["standings", &path]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            out.lines().count() > 10,
            "{name}: every player ranked: {out}"
        );
    }
    let (_, out, _) = chessbot(&["standings", &format!("{dir}/bbp-t15-latin1.trf")]);
    assert!(
        out.contains("Jürgen Müller") && out.contains("Françoise Lefèvre"),
        "Latin-1 names: {out}"
    );
    // Without its XXC line the swapped file would be paired as if White
    // began: the file's own XXC white1 line makes the difference visible.
    let text = std::fs::read(format!("{dir}/bbp-t8-black1-no-xxc-cr.trf")).expect("fixture");
    let tmp = tempfile::tempdir().expect("tempdir");
    let white1 = tmp.path().join("white1.trf");
    let mut forced = b"XXC white1\r".to_vec();
    forced.extend(text);
    std::fs::write(&white1, forced).expect("write");
    let (code, out, _) = chessbot(&["pairing", "--dutch", white1.to_str().unwrap(), "-c"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("0 of 4 rounds differ"), "{out}");
}

/// Nothing read is never agreement: a file without player lines, or with
/// players but no round paired, or with a round that records no pairing,
/// is an error naming the problem (exit 2), for `-c`, `-p` and standings.
#[test]
fn trf_files_with_nothing_to_check_are_errors() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/trf");
    let empty = format!("{dir}/no-players.trf");
    for args in [
        vec!["pairing", "--dutch", &empty, "-c"],
        vec!["pairing", "--dutch", &empty, "-p"],
        vec!["standings", &empty],
    ] {
        let (code, out, err) = chessbot(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("no player lines"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    let unpaired = format!("{dir}/no-rounds.trf");
    let (code, out, err) = chessbot(&["pairing", "--dutch", &unpaired, "-c"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("nothing to check"), "{err}");
    // Round 1 can still be paired from it.
    let (code, _, err) = chessbot(&["pairing", "--dutch", &unpaired, "-p"]);
    assert_eq!(code, 0, "{err}");

    // Round 1 with every player absent, round 2 played: round 1 records no
    // pairing to compare.
    let tmp = tempfile::tempdir().expect("tempdir");
    let lines = vec![
        "XXR 2".to_string(),
        player(1, "A", &[(0, '-', 'Z'), (2, 'w', '1')]),
        player(2, "B", &[(0, '-', 'Z'), (1, 'b', '0')]),
    ];
    let file = write(tmp.path(), "absent.trf", &lines);
    let (code, out, err) = chessbot(&["pairing", "--dutch", &file, "-c"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("round 1") && err.contains("no pairing"),
        "{err}"
    );
}
