//! Puzzles, as a pure core: is this position a puzzle, what is its
//! solution, what are its themes. No engine and no I/O here: the engine's
//! multi-PV evaluations come in as plain data ([`Candidate`]s), so every
//! rule is unit-tested on hand-made positions, and the engine-driving part
//! (`service/puzzle_mining.rs`) only feeds searches in and reads answers out.
//!
//! - [`criteria`]: the thresholds (when is a move the only winning one,
//!   which game positions are worth probing), written down with their
//!   source: lichess's own puzzle generator (`lichess-puzzler`).
//! - [`cook`]: the solution line, extended while the solver's move stays
//!   unique ([`Cook`], a step machine the engine driver runs).
//! - [`funnel`]: how many candidates each stage of the generator keeps.
//! - [`themes`]: themes found by rules (mate in 1/2/3+, promotion, material
//!   gain, endgame, fork, pin).

pub mod cook;
pub mod criteria;
pub mod daily;
pub mod funnel;
pub mod starter;
pub mod themes;

pub use cook::{Candidate, Cook, Reject, Request, Solution};
pub use criteria::{probe, Kind};
pub use funnel::Funnel;
pub use themes::{detect, Theme};

use shakmaty::{fen::Fen, uci::UciMove, CastlingMode, Chess, EnPassantMode, Move, Position, Role};

/// A puzzle as found: the position the solver sees, the solution line
/// (solver's moves at even indices, the bot's replies at odd ones, UCI),
/// and its themes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub fen: String,
    pub moves: Vec<String>,
    pub themes: Vec<Theme>,
}

impl Found {
    /// The puzzle of `solution`, found in `start`.
    pub fn new(start: &Chess, solution: &Solution) -> Found {
        Found {
            fen: fen_of(start),
            moves: solution.moves.iter().map(uci_of).collect(),
            themes: detect(start, &solution.moves),
        }
    }
}

/// A position's FEN as the bot writes it everywhere (en passant square only
/// when a capture is legal).
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// A move in UCI (`e7e8q`; castling as the king's two-square move).
pub fn uci_of(mv: &Move) -> String {
    UciMove::from_move(*mv, CastlingMode::Standard).to_string()
}

/// Pawn units of a piece, as lichess's puzzle tools count them (P 1, N 3,
/// B 3, R 5, Q 9; the king is not counted).
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// `side`'s material minus the other side's, in pawn units (lichess
/// `util.material_diff`).
pub fn material_diff(position: &Chess, side: shakmaty::Color) -> i32 {
    let board = position.board();
    board
        .iter()
        .map(|(_, piece)| {
            let v = value(piece.role);
            if piece.color == side {
                v
            } else {
                -v
            }
        })
        .sum()
}
