//! Legal destinations of a position, square by square, as a live board
//! shows them (the web board's move dots): the browser runs no rules, the
//! server sends these with every position.

use std::collections::BTreeMap;

use shakmaty::{Move, Position, Square};

/// Every legal move of the side to move as `from → [to, …]`, squares in
/// lower-case algebraic (`e2`). A castling move is the king's two-square
/// step (`e1 → g1`), the form UCI and the board widget use; in Chess960 it
/// is the king onto its rook (`f1 → h1`), the one form that cannot be an
/// ordinary king move; a promotion is one destination (the piece is chosen
/// when the move is made).
pub fn legal_destinations(position: &impl Position) -> BTreeMap<String, Vec<String>> {
    let chess960 = position.castles().mode() == shakmaty::CastlingMode::Chess960;
    let mut dests: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for mv in position.legal_moves() {
        let (from, to) = match mv {
            Move::Castle { king, rook } if chess960 => (king, rook),
            _ => move_squares(&mv),
        };
        let targets = dests.entry(from.to_string()).or_default();
        let to = to.to_string();
        if !targets.contains(&to) {
            targets.push(to);
        }
    }
    dests
}

/// The two squares of a move as a board shows it (highlighted, or moved by
/// a board widget): castling is the king's step to the g- or c-file.
pub fn move_squares(mv: &Move) -> (Square, Square) {
    match *mv {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                shakmaty::File::G
            } else {
                shakmaty::File::C
            };
            (king, Square::from_coords(file, king.rank()))
        }
        _ => (mv.from().unwrap_or(mv.to()), mv.to()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode, Chess};

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("fen");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    #[test]
    fn the_start_has_twenty_moves_from_ten_squares() {
        let dests = legal_destinations(&Chess::default());
        assert_eq!(dests.len(), 10);
        assert_eq!(dests.values().map(Vec::len).sum::<usize>(), 20);
        assert_eq!(dests["e2"], ["e3", "e4"]);
        assert_eq!(dests["g1"], ["f3", "h3"]);
    }

    #[test]
    fn castling_is_the_kings_step_and_promotion_one_square() {
        let dests = legal_destinations(&position("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"));
        let king = &dests["e1"];
        assert!(king.contains(&"g1".to_owned()) && king.contains(&"c1".to_owned()));
        assert!(!king.contains(&"h1".to_owned()), "{king:?}");
        // Four promotions to b8, one destination.
        assert_eq!(dests["b7"], ["b8"]);
    }

    #[test]
    fn checkmate_has_no_destinations() {
        let mated = position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert!(legal_destinations(&mated).is_empty());
    }
}
