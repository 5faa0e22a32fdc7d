//! Chess960: the rules core against published perft figures (move counts
//! to a given depth, which any error in castling, en passant or check
//! detection changes), from positions read with Chess960 castling, and the
//! start positions by number.

use chessbot::chess::chess960::{self, POSITIONS, STANDARD};
use shakmaty::{fen::Fen, perft, CastlingMode, Chess, Position};

/// Depth checked in `cargo test` (all of the file's figures run with
/// `CHESS960_PERFT_DEPTH=6`, in a release build).
const DEFAULT_DEPTH: u32 = 5;

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../fixtures/chess960/perft.txt");
    let mut cases: Vec<Case> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "id" => cases.push(Case {
                id: value.to_owned(),
                fen: String::new(),
                counts: Vec::new(),
            }),
            "epd" => cases.last_mut().expect("id first").fen = value.to_owned(),
            "perft" => {
                let (depth, nodes) = value.split_once(' ').expect("depth nodes");
                cases
                    .last_mut()
                    .expect("id first")
                    .counts
                    .push((depth.parse().unwrap(), nodes.parse().unwrap()));
            }
            other => panic!("unknown line {other}"),
        }
    }
    cases
}

#[test]
fn perft_matches_the_published_figures() {
    let depth: u32 = std::env::var("CHESS960_PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(DEFAULT_DEPTH);
    let cases = cases();
    assert!(cases.len() >= 15, "{} positions", cases.len());
    for case in cases {
        let fen: Fen = case.fen.parse().expect("a FEN");
        let position: Chess = fen
            .into_position(CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("position {}: {e}", case.id));
        for &(d, nodes) in case.counts.iter().filter(|(d, _)| *d <= depth) {
            assert_eq!(
                perft(&position, d),
                nodes,
                "position {} ({}) at depth {d}",
                case.id,
                case.fen
            );
        }
    }
}

#[test]
fn start_positions_play_as_chess960() {
    // The ordinary start, numbered as such, counts as standard chess does.
    let standard = chess960::start_position(STANDARD).unwrap();
    assert_eq!(perft(&standard, 3), 8_902);
    assert_eq!(
        standard.board(),
        Chess::default().board(),
        "518 is the ordinary start"
    );
    // Every start position reads back from its own FEN with the same
    // castling rights, and has 20 or more first moves.
    for n in 0..POSITIONS {
        let fen = chess960::start_fen(n).unwrap();
        let read: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        assert_eq!(chess960::number_of(&read), Some(n), "{fen}");
        assert!(read.legal_moves().len() >= 18, "{fen}");
    }
}
