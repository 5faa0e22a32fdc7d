//! `chessbot render` end to end: files written, bad input refused with a
//! clear message and a non-zero exit.

use std::process::Command;

fn chessbot(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chessbot"))
        .arg("render")
        .args(args)
        .output()
        .expect("run chessbot");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const PGN: &str = r#"[Event "Opera Game"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8
13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;

#[test]
fn writes_png_and_gif() {
    let dir = tempfile::tempdir().expect("tempdir");
    let png = dir.path().join("board.png");
    let (ok, err) = chessbot(&[
        "--fen",
        "r1bqk2r/pppp1Bpp/2n2n2/2b1p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4",
        "--last-move",
        "c4f7",
        "--flip",
        "--size",
        "400",
        "--theme",
        "green",
        "-o",
        png.to_str().expect("utf-8 path"),
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&png).expect("png written");
    assert!(bytes.starts_with(b"\x89PNG"));

    let pgn = dir.path().join("game.pgn");
    std::fs::write(&pgn, PGN).expect("write pgn");
    let gif = dir.path().join("game.gif");
    let (ok, err) = chessbot(&[
        "--pgn",
        pgn.to_str().expect("utf-8"),
        "--gif",
        "-o",
        gif.to_str().expect("utf-8"),
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&gif).expect("gif written");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(&bytes[..])
        .expect("gif");
    let mut frames = 0;
    while decoder.read_next_frame().expect("frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 34, "start position + 33 plies");
}

#[test]
fn bad_input_is_refused_clearly() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "--fen",
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ],
            "bad FEN",
        ),
        (&["--fen", "hello"], "bad FEN"),
        (&["--last-move", "e2e9"], "bad move"),
        (&["--last-move", "e2"], "bad move"),
        (&["--size", "8"], "out of range"),
        (&["--size", "4096"], "out of range"),
        (&["--theme", "purple"], "unknown theme"),
        (&["--pieces-dir", "/nonexistent/pieces"], "wK.svg"),
        (&["--pgn", "/nonexistent/game.pgn"], "game.pgn"),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("x.png");
    for (args, message) in cases {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["-o", out.to_str().expect("utf-8")]);
        let (ok, err) = chessbot(&all);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    assert!(!out.exists(), "nothing written on error");
}

#[test]
fn illegal_pgn_move_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pgn = dir.path().join("bad.pgn");
    std::fs::write(&pgn, "1. e4 e5 2. Ke2 Nc6 3. Qxf7 *\n").expect("write");
    let (ok, err) = chessbot(&[
        "--pgn",
        pgn.to_str().expect("utf-8"),
        "--gif",
        "-o",
        dir.path().join("g.gif").to_str().expect("utf-8"),
    ]);
    assert!(!ok);
    assert!(err.contains("Qxf7"), "{err}");
}
