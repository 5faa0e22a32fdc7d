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
/// when the move is made). Crazyhouse drops have no square to start from:
/// they are [`legal_drops`].
pub fn legal_destinations(position: &impl Position) -> BTreeMap<String, Vec<String>> {
    let chess960 = position.castles().mode() == shakmaty::CastlingMode::Chess960;
    let mut dests: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for mv in position.legal_moves() {
        let (from, to) = match mv {
            Move::Put { .. } => continue,
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

/// Every legal drop of the side to move (Crazyhouse) as `piece → [square,
/// …]`, the piece as UCI writes it in a drop (`N` of `N@f3`). Empty in
/// every other variant.
pub fn legal_drops(position: &impl Position) -> BTreeMap<String, Vec<String>> {
    let mut drops: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for mv in position.legal_moves() {
        if let Move::Put { role, to } = mv {
            let piece = role.upper_char().to_string();
            drops.entry(piece).or_default().push(to.to_string());
        }
    }
    drops
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
    fn drops_are_by_piece_and_not_destinations() {
        use shakmaty::variant::Crazyhouse;
        // White holds a knight and a pawn; Black's king is on e8.
        let fen: Fen = "4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1".parse().expect("fen");
        let house: Crazyhouse = fen.into_position(CastlingMode::Standard).expect("legal");
        let drops = legal_drops(&house);
        // A knight goes on any of the 62 empty squares; a pawn not on the
        // first or last rank (48 squares).
        assert_eq!(drops["N"].len(), 62);
        assert_eq!(drops["P"].len(), 48);
        assert!(!drops["P"].contains(&"a8".to_owned()));
        // The king's own moves are the only destinations.
        let dests = legal_destinations(&house);
        assert_eq!(dests.keys().collect::<Vec<_>>(), ["e1"]);
    }

    #[test]
    fn standard_chess_has_no_drops() {
        assert!(legal_drops(&Chess::default()).is_empty());
    }

    #[test]
    fn checkmate_has_no_destinations() {
        let mated = position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert!(legal_destinations(&mated).is_empty());
    }
}
