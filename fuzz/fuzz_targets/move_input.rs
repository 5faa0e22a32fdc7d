//! Fuzz target: move input never panics, whatever the text and position, and
//! its messages stay short.
#![no_main]

use chessbot::chess::input::{parse_move, suggest};
use libfuzzer_sys::fuzz_target;
use shakmaty::{fen::Fen, CastlingMode, Chess};

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1",
    "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1",
    "K7/2k5/8/8/4Q2Q/8/8/4r2Q w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let fen = FENS[usize::from(pick) % FENS.len()];
    let Some(pos) = fen
        .parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
    else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    if let Err(e) = parse_move(&pos, &text) {
        assert!(e.to_string().len() < 300);
    }
    assert!(suggest(&pos, &text, 25).len() <= 25);
});
