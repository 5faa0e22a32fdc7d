//! A puzzle's themes, found by rules on the position and the solution line
//! (never guessed): the rules follow lichess's puzzle tagger
//! (`github.com/ornicar/lichess-puzzler`, `tagger/cook.py`) where it has
//! one, simplified where said.
//!
//! - **Mate in 1, 2, 3+**: the line ends in checkmate; the count is the
//!   solver's moves.
//! - **Promotion**: a solver's move promotes (`cook.promotion`).
//! - **Material**: a line that does not mate wins more than one pawn unit
//!   (the generator's "material" puzzles).
//! - **Endgame**: at most six pieces other than kings and pawns on the
//!   board at the start (lila's game-phase divider, `Divider.scala`:
//!   `majorsAndMinors <= 6`).
//! - **Fork** (`cook.fork`): a solver's move, not the last and not a king
//!   move, not mating, after which the moved piece attacks at least two
//!   of the opponent's pieces that are not pawns and each of which is the
//!   king, worth more than the attacker, or undefended.
//! - **Pin** (simpler than `cook.pin`, which asks what the pinned piece
//!   can no longer do): a solver's move, not the last, after which the
//!   moved bishop, rook or queen holds an opponent's piece on a line
//!   in front of the opponent's king (absolute pin) or of a piece worth more
//!   than it (relative pin), with nothing else between them.

use shakmaty::{attacks, Bitboard, Chess, Color, Move, Piece, Position, Role, Square};

use super::{material_diff, value};

/// A theme. The keys ([`Theme::key`]) are stored: never change one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    MateIn1,
    MateIn2,
    MateIn3OrMore,
    Promotion,
    Material,
    Endgame,
    Fork,
    Pin,
}

impl Theme {
    pub const ALL: [Theme; 8] = [
        Theme::MateIn1,
        Theme::MateIn2,
        Theme::MateIn3OrMore,
        Theme::Promotion,
        Theme::Material,
        Theme::Endgame,
        Theme::Fork,
        Theme::Pin,
    ];

    /// The stored key (lichess's names where it has one).
    pub const fn key(self) -> &'static str {
        match self {
            Theme::MateIn1 => "mateIn1",
            Theme::MateIn2 => "mateIn2",
            Theme::MateIn3OrMore => "mateIn3plus",
            Theme::Promotion => "promotion",
            Theme::Material => "material",
            Theme::Endgame => "endgame",
            Theme::Fork => "fork",
            Theme::Pin => "pin",
        }
    }

    pub fn from_key(key: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// The themes of the line `moves` from `start` (the solver moves first),
/// in [`Theme::ALL`]'s order. An illegal move ends the look at the line.
pub fn detect(start: &Chess, moves: &[Move]) -> Vec<Theme> {
    let solver = start.turn();
    let mut positions = vec![start.clone()];
    for mv in moves {
        let Some(last) = positions.last() else { break };
        if !last.is_legal(*mv) {
            break;
        }
        let mut next = last.clone();
        next.play_unchecked(*mv);
        positions.push(next);
    }
    let played = &moves[..positions.len() - 1];
    let end = &positions[positions.len() - 1];
    let mut themes = Vec::new();
    let mated = end.is_checkmate() && end.turn() != solver;
    if mated {
        themes.push(match played.len().div_ceil(2) {
            1 => Theme::MateIn1,
            2 => Theme::MateIn2,
            _ => Theme::MateIn3OrMore,
        });
    }
    let solver_moves: Vec<(usize, &Move)> = played.iter().enumerate().step_by(2).collect();
    if solver_moves.iter().any(|(_, m)| m.is_promotion()) {
        themes.push(Theme::Promotion);
    }
    if !mated && material_diff(end, solver) - material_diff(start, solver) > 1 {
        themes.push(Theme::Material);
    }
    let pieces = start.board().occupied() & !start.board().pawns() & !start.board().kings();
    if pieces.count() <= 6 {
        themes.push(Theme::Endgame);
    }
    // Solver moves but the last, each with the position after it.
    let not_last = &solver_moves[..solver_moves.len().saturating_sub(1)];
    if not_last
        .iter()
        .any(|(i, m)| is_fork(&positions[i + 1], m.to(), solver))
    {
        themes.push(Theme::Fork);
    }
    if not_last
        .iter()
        .any(|(i, m)| pins(&positions[i + 1], m.to(), solver))
    {
        themes.push(Theme::Pin);
    }
    themes
}

/// Whether the piece `solver` just moved to `to` forks (see the module).
fn is_fork(after: &Chess, to: Square, solver: Color) -> bool {
    let board = after.board();
    let Some(moved) = board.piece_at(to) else {
        return false;
    };
    if moved.role == Role::King || after.is_checkmate() {
        return false;
    }
    let targets = board.attacks_from(to) & board.by_color(!solver);
    let forked = targets
        .into_iter()
        .filter(|&sq| {
            let Some(piece) = board.piece_at(sq) else {
                return false;
            };
            piece.role != Role::Pawn
                && (piece.role == Role::King
                    || value(piece.role) > value(moved.role)
                    || board
                        .attacks_to(sq, piece.color, board.occupied())
                        .is_empty())
        })
        .count();
    forked >= 2
}

/// Whether the slider `solver` just moved to `to` pins an opponent's piece
/// (see the module).
fn pins(after: &Chess, to: Square, solver: Color) -> bool {
    let board = after.board();
    let Some(pinner) = board.piece_at(to) else {
        return false;
    };
    if !matches!(pinner.role, Role::Bishop | Role::Rook | Role::Queen) || after.is_checkmate() {
        return false;
    }
    // Every square the pinner reaches on an empty board, along its lines.
    let lines = attacks::attacks(to, pinner, Bitboard::EMPTY);
    let them = board.by_color(!solver);
    // The first opponent's piece on each line is what it attacks now.
    let front = board.attacks_from(to) & them;
    front.into_iter().any(|pinned_sq| {
        let Some(pinned) = board.piece_at(pinned_sq) else {
            return false;
        };
        if pinned.role == Role::King {
            return false;
        }
        // The piece behind: the first one past `pinned_sq` on the same line.
        (lines & them).into_iter().any(|behind_sq| {
            if behind_sq == pinned_sq
                || !attacks::aligned(to, pinned_sq, behind_sq)
                || !attacks::between(to, behind_sq).contains(pinned_sq)
            {
                return false;
            }
            let between = attacks::between(to, behind_sq) & board.occupied();
            if between != Bitboard::from(pinned_sq) {
                return false;
            }
            match board.piece_at(behind_sq) {
                Some(Piece {
                    role: Role::King, ..
                }) => true,
                Some(behind) => value(behind.role) > value(pinned.role),
                None => false,
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::{fen::Fen, uci::UciMove, CastlingMode};

    use super::*;

    fn line(fen: &str, ucis: &[&str]) -> Vec<Theme> {
        let start: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for uci in ucis {
            let mv = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&pos)
                .expect("legal move");
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        detect(&start, &moves)
    }

    #[test]
    fn mate_in_one_two_and_three() {
        assert_eq!(
            line("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", &["a1a8"]),
            vec![Theme::MateIn1, Theme::Endgame]
        );
        assert_eq!(
            line("k7/8/2K5/8/8/8/8/7R w - - 0 1", &["c6b6", "a8b8", "h1h8"]),
            vec![Theme::MateIn2, Theme::Endgame]
        );
        assert_eq!(
            line(
                "k7/8/3K4/8/8/8/8/7R w - - 0 1",
                &["d6c6", "a8a7", "c6c7", "a7a8", "h1a1"]
            ),
            vec![Theme::MateIn3OrMore, Theme::Endgame]
        );
    }

    #[test]
    fn promotion_and_material() {
        // a8=Q wins a queen's worth: promotion and material.
        assert_eq!(
            line("8/P7/8/8/8/8/k7/4K3 w - - 0 1", &["a7a8q"]),
            vec![Theme::Promotion, Theme::Material, Theme::Endgame]
        );
        // A pawn won is not "material" (gain must be more than one).
        assert_eq!(
            line("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &["e4d5"]),
            vec![Theme::Endgame]
        );
    }

    #[test]
    fn the_endgame_counts_pieces_at_the_start() {
        // The opening position: 14 pieces other than kings and pawns.
        let themes = line(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &["e2e4"],
        );
        assert!(!themes.contains(&Theme::Endgame));
    }

    #[test]
    fn a_knight_fork() {
        // Nc7+ forks king and rook; Nxa8 collects.
        assert_eq!(
            line(
                "r3k3/8/8/1N6/8/8/6PP/6K1 w - - 0 1",
                &["b5c7", "e8d7", "c7a8"]
            ),
            vec![Theme::Material, Theme::Endgame, Theme::Fork]
        );
        // The same knight move as the line's last move is not tagged (the
        // fork must be followed up inside the line).
        assert!(!line("r3k3/8/8/1N6/8/8/6PP/6K1 w - - 0 1", &["b5c7"]).contains(&Theme::Fork));
        // Attacking a pawn and a defended bishop of its own worth is no
        // fork.
        assert!(!line(
            "4k3/3p4/2b1p3/8/8/5N2/6PP/6K1 w - - 0 1",
            &["f3d4", "e8e7", "d4c6"]
        )
        .contains(&Theme::Fork));
    }

    #[test]
    fn a_pin_to_the_king_and_a_relative_pin() {
        // Bb5 pins the knight on c6 to the king on e8, then takes it.
        assert_eq!(
            line(
                "4k3/8/2n5/8/8/8/5PPP/4KB2 w - - 0 1",
                &["f1b5", "e8e7", "b5c6"]
            ),
            vec![Theme::Material, Theme::Endgame, Theme::Pin]
        );
        // Rd1 pins the bishop on d5 to the queen on d8.
        assert!(line(
            "3qk3/8/8/3b4/8/8/5PPP/R5K1 w - - 0 1",
            &["a1d1", "e8e7", "d1d5"]
        )
        .contains(&Theme::Pin));
        // A bishop on the same line as a king, with two pieces between, pins
        // nothing.
        assert!(!line(
            "4k3/3p4/2n5/8/8/8/5PPP/4KB2 w - - 0 1",
            &["f1b5", "e8e7", "b5c6"]
        )
        .contains(&Theme::Pin));
    }

    #[test]
    fn keys_round_trip() {
        for theme in Theme::ALL {
            assert_eq!(Theme::from_key(theme.key()), Some(theme));
        }
        assert_eq!(Theme::from_key("nonsense"), None);
    }
}
