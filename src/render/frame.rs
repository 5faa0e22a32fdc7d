//! What to draw: the plain input structs of the renderer.

use shakmaty::{Board, Color, Position, Square};

use super::{RenderError, Theme};

/// Smallest board side in pixels.
pub const MIN_BOARD_PX: u32 = 16;
/// Largest board side in pixels (caps the cost of one request).
pub const MAX_BOARD_PX: u32 = 2048;
/// Default square size: a 480 px board.
pub const DEFAULT_SQUARE_PX: u32 = 60;

/// An arrow from the centre of one square to the centre of another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Tail.
    pub from: Square,
    /// Head.
    pub to: Square,
}

/// One line of the players bar: a name and a short detail such as a clock
/// (`4:32`) or club points (`107.5`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerLine {
    /// Display name (long names are cut with an ellipsis).
    pub name: String,
    /// Right-aligned detail: clock, points, result.
    pub detail: String,
}

/// Names (and clocks or points) shown above and below the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayersBar {
    /// The player whose pieces are at the top of the image.
    pub top: PlayerLine,
    /// The player whose pieces are at the bottom of the image.
    pub bottom: PlayerLine,
}

/// What a variant shows beside one side of the board, in a strip between
/// the players bar and the board: Crazyhouse's pocket (the pieces in hand,
/// with their counts) and a short text (Three-check's checks given).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StripLine {
    /// The side's pieces in hand: its colour and how many pawns, knights,
    /// bishops, rooks and queens, in that order.
    pub pocket: Option<(Color, [u8; 5])>,
    /// Text after the pocket (empty: none).
    pub text: String,
}

/// The strips above and below the board (see [`StripLine`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strips {
    /// Beside the top of the image (the side playing down the board).
    pub top: StripLine,
    /// Beside the bottom of the image.
    pub bottom: StripLine,
}

/// One board image to render.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Pieces on the board.
    pub board: Board,
    /// The side shown at the bottom.
    pub orientation: Color,
    /// Both squares of the last move are highlighted.
    pub last_move: Option<(Square, Square)>,
    /// Square of a king in check: a red glow under it.
    pub check: Option<Square>,
    /// Arrows drawn over the pieces.
    pub arrows: Vec<Arrow>,
    /// Squares tinted with the theme's mark colour.
    pub marks: Vec<Square>,
    /// Optional names bar above and below the board.
    pub players: Option<PlayersBar>,
    /// Optional variant strips (pockets, checks) between bars and board.
    pub strips: Option<Strips>,
    /// Side of one square in pixels; the board is eight times that.
    pub square_px: u32,
    /// Colours.
    pub theme: Theme,
}

impl Frame {
    /// A frame of `position` seen from White, 480 px, default theme, with
    /// the king of the side to move glowing if it is in check.
    pub fn from_position<P: Position>(position: &P) -> Frame {
        Frame {
            board: position.board().clone(),
            orientation: Color::White,
            last_move: None,
            check: check_square(position),
            arrows: Vec::new(),
            marks: Vec::new(),
            players: None,
            strips: None,
            square_px: DEFAULT_SQUARE_PX,
            theme: Theme::default(),
        }
    }

    /// A frame of a bare board (no check glow), seen from White, 480 px.
    pub fn from_board(board: Board) -> Frame {
        Frame {
            board,
            orientation: Color::White,
            last_move: None,
            check: None,
            arrows: Vec::new(),
            marks: Vec::new(),
            players: None,
            strips: None,
            square_px: DEFAULT_SQUARE_PX,
            theme: Theme::default(),
        }
    }

    /// Side of the board in pixels.
    pub fn board_px(&self) -> u32 {
        self.square_px.saturating_mul(8)
    }

    /// Checks the size against [`MIN_BOARD_PX`]..=[`MAX_BOARD_PX`].
    pub fn validate(&self) -> Result<(), RenderError> {
        validate_square_px(self.square_px)
    }
}

/// Checks that `square_px` gives a board of [`MIN_BOARD_PX`]..=[`MAX_BOARD_PX`].
pub fn validate_square_px(square_px: u32) -> Result<(), RenderError> {
    let board = square_px.saturating_mul(8);
    if (MIN_BOARD_PX..=MAX_BOARD_PX).contains(&board) {
        Ok(())
    } else {
        Err(RenderError::Size {
            board_px: board,
            min: MIN_BOARD_PX,
            max: MAX_BOARD_PX,
        })
    }
}

/// The square of the side to move's king if it is in check.
pub fn check_square<P: Position>(position: &P) -> Option<Square> {
    if position.is_check() {
        position.board().king_of(position.turn())
    } else {
        None
    }
}

/// One ply of a replay.
#[derive(Debug, Clone)]
pub struct GifFrame {
    /// Pieces after the move.
    pub board: Board,
    /// The move that led here (none for the starting position).
    pub last_move: Option<(Square, Square)>,
    /// Square of a king in check.
    pub check: Option<Square>,
    /// How long this frame is shown; `None` takes the replay's default.
    pub delay_ms: Option<u32>,
    /// This frame's names bar (the move just played, the result), instead
    /// of the replay's.
    pub players: Option<PlayersBar>,
    /// Squares tinted with the theme's mark colour (King of the Hill's
    /// centre).
    pub marks: Vec<Square>,
    /// Variant strips (pockets, checks given) as of this frame.
    pub strips: Option<Strips>,
}

impl GifFrame {
    /// A replay frame of `position` reached by `last_move`.
    pub fn from_position<P: Position>(
        position: &P,
        last_move: Option<(Square, Square)>,
    ) -> GifFrame {
        GifFrame {
            board: position.board().clone(),
            last_move,
            check: check_square(position),
            delay_ms: None,
            players: None,
            marks: Vec::new(),
            strips: None,
        }
    }
}

/// Settings shared by all frames of a replay.
#[derive(Debug, Clone)]
pub struct GifOptions {
    /// The side shown at the bottom.
    pub orientation: Color,
    /// Side of one square in pixels.
    pub square_px: u32,
    /// Colours.
    pub theme: Theme,
    /// Optional names bar (the same on every frame).
    pub players: Option<PlayersBar>,
    /// Default time per frame.
    pub frame_delay_ms: u32,
    /// Time the last frame is held before the replay loops.
    pub last_frame_delay_ms: u32,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            orientation: Color::White,
            square_px: DEFAULT_SQUARE_PX,
            theme: Theme::default(),
            players: None,
            frame_delay_ms: 600,
            last_frame_delay_ms: 3000,
        }
    }
}
