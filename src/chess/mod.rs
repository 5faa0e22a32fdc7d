//! The rules core: a [`Game`] over shakmaty, the move input forms people type,
//! every way a game ends, and PGN export/import. Pure: no I/O, no clocks of its
//! own (timestamps are supplied by the caller). [`opening`] names a game's
//! opening from its positions (lichess's data set, embedded); [`chess960`]
//! numbers the Chess960 start positions.

pub mod chess960;
pub mod conditional;
pub mod describe;
pub mod dests;
pub mod ending;
pub mod fen_input;
pub mod game;
pub mod input;
pub mod move_text;
pub mod notation;
pub mod opening;
pub mod pgn;
pub mod variant;

pub use ending::*;
pub use game::*;
pub use move_text::MoveText;
pub use notation::Notation;
pub use variant::Variant;
