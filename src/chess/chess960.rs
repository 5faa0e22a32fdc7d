//! Chess960 (Fischer random chess) start positions by their standard
//! numbers, 0 to 959 (Reinhard Scharnagl's numbering, the one FIDE's
//! Chess960 rules, lichess and the Chess960 perft tables use; 518 is the
//! ordinary start).
//!
//! A number says where White's back-rank pieces stand; Black mirrors them.
//! Read from the number's digits in mixed radix:
//!
//! 1. `n % 4` puts the light-squared bishop on b, d, f or h; `n / 4` goes on.
//! 2. Its `% 4` puts the dark-squared bishop on a, c, e or g.
//! 3. Then `% 6`: the queen on that one of the six squares left.
//! 4. What is left (0–9) places both knights on two of the five squares
//!    left, in the order `KNIGHTS` lists them.
//! 5. The last three squares take rook, king, rook, so the king always
//!    stands between its rooks.
//!
//! The rules of play stay shakmaty's: a start position is a [`Chess`] with
//! [`CastlingMode::Chess960`] (castling is king onto rook in UCI, and the
//! king and rook land on the g/f or c/d files as in standard chess).

use shakmaty::{
    fen::Fen, Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, Color, File, FromSetup, Piece,
    Position, Rank, Role, Square,
};

/// How many start positions there are.
pub const POSITIONS: u16 = 960;
/// The number of the ordinary start position (`RNBQKBNR`).
pub const STANDARD: u16 = 518;

/// The knights' two files among the five squares left after the bishops
/// and the queen, for the number's last digit (0–9).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's back rank of start position `number`, a file to a role (`None`
/// past 959).
pub fn back_rank(number: u16) -> Option<[Role; 8]> {
    if number >= POSITIONS {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = usize::from(number);
    // Light squares of the first rank are b, d, f, h; dark ones a, c, e, g.
    rank[n % 4 * 2 + 1] = Some(Role::Bishop);
    n /= 4;
    rank[n % 4 * 2] = Some(Role::Bishop);
    n /= 4;
    place_on_free(&mut rank, n % 6, Role::Queen);
    n /= 6;
    let (first, second) = KNIGHTS[n];
    // The second knight first: placing the first would shift its index.
    place_on_free(&mut rank, second, Role::Knight);
    place_on_free(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_on_free(&mut rank, 0, role);
    }
    let mut roles = [Role::Pawn; 8];
    for (file, role) in rank.into_iter().enumerate() {
        roles[file] = role?;
    }
    Some(roles)
}

/// Puts `role` on the `index`th empty square of `rank`, counting from a.
fn place_on_free(rank: &mut [Option<Role>; 8], index: usize, role: Role) {
    if let Some(square) = rank.iter_mut().filter(|s| s.is_none()).nth(index) {
        *square = Some(role);
    }
}

/// Start position `number` (`None` past 959), ready to play, with
/// Chess960 castling.
pub fn start_position(number: u16) -> Option<Chess> {
    let roles = back_rank(number)?;
    let mut board = Board::empty();
    for (file, role) in roles.into_iter().enumerate() {
        let file = File::new(file as u32);
        for (color, back, pawns) in [
            (Color::White, Rank::First, Rank::Second),
            (Color::Black, Rank::Eighth, Rank::Seventh),
        ] {
            board.set_piece_at(Square::from_coords(file, back), Piece { color, role });
            board.set_piece_at(
                Square::from_coords(file, pawns),
                Piece {
                    color,
                    role: Role::Pawn,
                },
            );
        }
    }
    let rooks =
        board.rooks() & (Bitboard::from_rank(Rank::First) | Bitboard::from_rank(Rank::Eighth));
    let mut setup = shakmaty::Setup::empty();
    setup.board = board;
    setup.castling_rights = rooks;
    setup.turn = Color::White;
    setup.fullmoves = std::num::NonZeroU32::MIN;
    Chess::from_setup(setup, CastlingMode::Chess960).ok()
}

/// The FEN of start position `number`, castling rights as X-FEN writes
/// them (`KQkq`: each rook is the outermost on its side of the king).
pub fn start_fen(number: u16) -> Option<String> {
    let position = start_position(number)?;
    Some(Fen::from_position(&position, shakmaty::EnPassantMode::Legal).to_string())
}

/// The number of the start position `position` is, if it is one: every
/// piece on its first two ranks as some start position has them, White to
/// move, all four castlings available, no move made.
pub fn number_of(position: &Chess) -> Option<u16> {
    let board = position.board();
    let mut roles = [Role::Pawn; 8];
    for (file, role) in roles.iter_mut().enumerate() {
        let square = Square::from_coords(File::new(file as u32), Rank::First);
        *role = board.piece_at(square)?.role;
    }
    let number = (0..POSITIONS).find(|&n| back_rank(n) == Some(roles))?;
    let start = start_position(number)?;
    let same = start.board() == board
        && start.turn() == position.turn()
        && start.castles().castling_rights() == position.castles().castling_rights()
        && position.fullmoves() == start.fullmoves()
        && position.halfmoves() == 0;
    same.then_some(number)
}

/// Pieces each side starts with, the same in every start position (a
/// check the tests make on all 960).
pub fn start_material() -> ByColor<ByRole<u8>> {
    let side = ByRole {
        pawn: 8,
        knight: 2,
        bishop: 2,
        rook: 2,
        queen: 1,
        king: 1,
    };
    ByColor {
        white: side,
        black: side,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(number: u16) -> String {
        back_rank(number)
            .expect("a start position")
            .iter()
            .map(|r| r.upper_char())
            .collect()
    }

    #[test]
    fn the_numbers_every_table_agrees_on() {
        assert_eq!(letters(0), "BBQNNRKR");
        assert_eq!(letters(STANDARD), "RNBQKBNR");
        assert_eq!(letters(959), "RKRNNQBB");
        assert_eq!(back_rank(960), None);
        assert_eq!(
            start_fen(STANDARD).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
        assert_eq!(
            start_fen(0).as_deref(),
            Some("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1")
        );
    }

    #[test]
    fn all_960_are_different_legal_and_found_again() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..POSITIONS {
            let rank = back_rank(n).expect("a start position");
            assert!(seen.insert(rank), "{n} repeats another");
            let files =
                |role: Role| -> Vec<usize> { (0..8).filter(|&f| rank[f] == role).collect() };
            let bishops = files(Role::Bishop);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            let (rooks, king) = (files(Role::Rook), files(Role::King)[0]);
            assert!(
                rooks[0] < king && king < rooks[1],
                "{n}: king not between its rooks"
            );
            let position = start_position(n).expect("plays");
            assert_eq!(position.board().material(), start_material());
            assert_eq!(
                position.legal_moves().len(),
                count_first_moves(&rank),
                "{n}"
            );
            assert_eq!(number_of(&position), Some(n));
            assert_eq!(position.castles().castling_rights().count(), 4);
        }
    }

    /// Moves from a start position: 16 pawn moves; a knight's one or two
    /// to the third rank; and a castling only where king and rook stand on
    /// each other's landing squares (king f, rook g: O-O; king d, rook c:
    /// O-O-O), the one way castling needs no free square.
    fn count_first_moves(rank: &[Role; 8]) -> usize {
        let knight_moves: usize = (0..8)
            .filter(|&f| rank[f] == Role::Knight)
            .map(|f| usize::from(f > 0) + usize::from(f < 7))
            .sum();
        let swaps = usize::from(rank[5] == Role::King && rank[6] == Role::Rook)
            + usize::from(rank[3] == Role::King && rank[2] == Role::Rook);
        16 + knight_moves + swaps
    }

    #[test]
    fn a_moved_position_is_no_start() {
        let mut position = start_position(STANDARD).expect("plays");
        let mv = position.legal_moves()[0];
        position.play_unchecked(mv);
        assert_eq!(number_of(&position), None);
    }
}
