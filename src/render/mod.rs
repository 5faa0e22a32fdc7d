//! Board images: position → PNG bytes in memory, and GIF replays.
//!
//! The pipeline follows lichess's lila-gif: do the expensive work once, then
//! each image is cheap.
//!
//! 1. [`Renderer::new`] rasterises the twelve pieces once (resvg), either the
//!    built-in set drawn from DejaVu Sans glyphs or an operator's folder of
//!    SVGs ([`pieces`]).
//! 2. For each theme and square size in use, every square background ×
//!    piece combination is blended once and mapped to a 255-colour palette
//!    ([`tiles`], [`palette`]), and every tile row is coded once for the
//!    PNG writer ([`deflate`]); the result is cached.
//! 3. A [`Frame`] is drawn as 64 tile copies plus small overlays
//!    (coordinates, arrows, names bar from cached glyphs, [`text`]) into a
//!    canvas of palette indices ([`compose`]) and encoded as an indexed PNG
//!    that mostly pastes the coded tile rows ([`png`]), or as GIF frames
//!    that only carry the changed rectangle ([`gif`]).
//!
//! Tournament crosstables ([`crosstable`]) reuse the glyph caches and the
//! indexed PNG writer with a fixed palette of their own.
//!
//! A 480 px board takes about 0.1 ms; larger boards and replays take
//! longer (a 60-ply GIF about 45 ms), so call those from
//! `tokio::task::spawn_blocking`. A [`Renderer`] is `Send + Sync` and meant
//! to be shared in an `Arc`.
//!
//! ```
//! use chessbot::render::{Frame, Renderer, RenderConfig};
//! use shakmaty::Chess;
//!
//! let renderer = Renderer::new(RenderConfig::default())?;
//! let png = renderer.render_png(&Frame::from_position(&Chess::default()))?;
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), chessbot::render::RenderError>(())
//! ```

pub mod advantage;
pub mod chart;
pub mod cli;
pub mod compose;
pub mod crosstable;
pub mod deflate;
mod fonts;
pub mod frame;
pub mod gif;
pub mod palette;
pub mod pieces;
pub mod png;
pub mod text;
pub mod theme;
pub mod tiles;

use std::{
    collections::HashMap,
    path::PathBuf,
    sync::{Arc, OnceLock, RwLock},
};

pub use crosstable::{crosstable_png, CellColour, CellOutcome, CrossCell, CrossRow, Crosstable};
pub use frame::{
    Arrow, Frame, GifFrame, GifOptions, PlayerLine, PlayersBar, StripLine, Strips,
    DEFAULT_SQUARE_PX, MAX_BOARD_PX, MIN_BOARD_PX,
};
pub use theme::{Rgb, Theme};

use self::{
    compose::{compose, BoardLayer},
    pieces::PieceSet,
    tiles::TileSet,
};

/// Why an image could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A piece file of `pieces_dir` is missing or unreadable.
    #[error("piece set: {path}: {reason}")]
    Pieces {
        /// The offending file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The requested board size is out of range.
    #[error("board size {board_px} px is out of range ({min}..={max} px)")]
    Size {
        /// Requested board side.
        board_px: u32,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// A replay needs at least one frame.
    #[error("a replay needs at least one position")]
    NoFrames,
    /// A replay longer than [`MAX_GIF_FRAMES`].
    #[error("a replay of {frames} positions is too long (at most {max})")]
    TooManyFrames {
        /// Requested frames.
        frames: usize,
        /// The cap.
        max: usize,
    },
    /// A table image (a tournament crosstable) with more rows or columns
    /// than one image may hold.
    #[error(
        "a table of {rows} rows and {columns} columns is too large \
         (at most {max_rows} rows and {max_columns} columns)"
    )]
    TableTooLarge {
        /// Rows asked for.
        rows: usize,
        /// Round and tie-break columns asked for.
        columns: usize,
        /// The row cap.
        max_rows: usize,
        /// The column cap.
        max_columns: usize,
    },
    /// A bug or resource problem (never caused by a position).
    #[error("render failure: {0}")]
    Internal(String),
}

/// How to build a [`Renderer`].
#[derive(Debug, Clone, Default)]
pub struct RenderConfig {
    /// A folder with `wK.svg` .. `bP.svg` to use instead of the built-in set.
    pub pieces_dir: Option<PathBuf>,
}

/// Most frames in one GIF replay (a 600-move game; caps the work of one
/// request).
pub const MAX_GIF_FRAMES: usize = 1201;
/// Most arrows drawn on one board (more are ignored).
pub const MAX_ARROWS: usize = 64;

/// Most (theme, size) tile sets kept at once.
const CACHE_LIMIT: usize = 24;

type TileKey = (Theme, u32);

/// Tile sets by theme and square size, built on first use.
type TileCache = Arc<RwLock<HashMap<TileKey, Arc<TileSet>>>>;

/// Makes board images. Build once, share via `Arc`, call from blocking
/// threads.
pub struct Renderer {
    pieces: Arc<PieceSet>,
    tiles: TileCache,
}

/// The built-in pieces and their tile sets, made by the first renderer
/// that draws them and shared by every later one in the process: both
/// depend on the pieces alone. A bot makes one renderer, but the console
/// tools, the benchmarks and the test suites make many, each of which
/// rasterised the twelve glyphs and built the default tile set again.
static BUILT_IN: OnceLock<(Arc<PieceSet>, TileCache)> = OnceLock::new();

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer").finish_non_exhaustive()
    }
}

impl Renderer {
    /// Rasterises the pieces and prepares the default 480 px board.
    ///
    /// Every file of `config.pieces_dir` is read and rendered here, so a
    /// missing or broken SVG is a start-up error.
    ///
    /// Renderers with the built-in pieces share them and their tile sets
    /// (made by the first one in the process); [`Renderer::standalone`]
    /// makes its own.
    pub fn new(config: RenderConfig) -> Result<Renderer, RenderError> {
        if config.pieces_dir.is_some() {
            return Renderer::standalone(config);
        }
        let (pieces, tiles) = match BUILT_IN.get() {
            Some(shared) => shared,
            None => {
                let made = Renderer::standalone(config)?;
                BUILT_IN.get_or_init(|| (made.pieces, made.tiles))
            }
        };
        let renderer = Renderer {
            pieces: Arc::clone(pieces),
            tiles: Arc::clone(tiles),
        };
        renderer.tiles(Theme::default(), DEFAULT_SQUARE_PX)?;
        Ok(renderer)
    }

    /// [`Renderer::new`] with pieces and tile sets of its own, shared with
    /// no other renderer (what start-up costs, as the benchmarks measure).
    pub fn standalone(config: RenderConfig) -> Result<Renderer, RenderError> {
        let pieces = match &config.pieces_dir {
            Some(dir) => PieceSet::from_dir(dir)?,
            None => PieceSet::dejavu()?,
        };
        let renderer = Renderer {
            pieces: Arc::new(pieces),
            tiles: TileCache::default(),
        };
        renderer.tiles(Theme::default(), DEFAULT_SQUARE_PX)?;
        Ok(renderer)
    }

    /// The tile set of `theme` at `square_px`, built on first use.
    pub fn tiles(&self, theme: Theme, square_px: u32) -> Result<Arc<TileSet>, RenderError> {
        frame::validate_square_px(square_px)?;
        let key = (theme, square_px);
        {
            let cache = self.tiles.read().unwrap_or_else(|e| e.into_inner());
            if let Some(t) = cache.get(&key) {
                return Ok(Arc::clone(t));
            }
        }
        // Built outside the lock: two threads may both build it once.
        let built = Arc::new(TileSet::build(theme, square_px, &self.pieces)?);
        let mut cache = self.tiles.write().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        Ok(Arc::clone(cache.entry(key).or_insert(built)))
    }

    /// Draws `frame` into palette indices (for tests and tools that want
    /// pixels rather than a file).
    pub fn render_canvas(
        &self,
        frame: &Frame,
    ) -> Result<(compose::Canvas, Arc<TileSet>), RenderError> {
        frame.validate()?;
        let tiles = self.tiles(frame.theme, frame.square_px)?;
        let canvas = compose(&tiles, &BoardLayer::from(frame), frame.players.as_ref())?;
        Ok((canvas, tiles))
    }

    /// Renders `frame` as PNG bytes.
    pub fn render_png(&self, frame: &Frame) -> Result<Vec<u8>, RenderError> {
        let (canvas, tiles) = self.render_canvas(frame)?;
        png::encode_board(&canvas, &tiles)
    }

    /// Renders a replay: one GIF frame per entry of `frames`, the last one
    /// held for `options.last_frame_delay_ms`.
    pub fn render_gif(
        &self,
        options: &GifOptions,
        frames: &[GifFrame],
    ) -> Result<Vec<u8>, RenderError> {
        frame::validate_square_px(options.square_px)?;
        if frames.len() > MAX_GIF_FRAMES {
            return Err(RenderError::TooManyFrames {
                frames: frames.len(),
                max: MAX_GIF_FRAMES,
            });
        }
        let tiles = self.tiles(options.theme, options.square_px)?;
        let mut writer: Option<gif::GifWriter> = None;
        let mut canvas = compose::Canvas {
            width: 0,
            height: 0,
            pixels: Vec::new(),
            layout: None,
        };
        for (i, f) in frames.iter().enumerate() {
            let layer = BoardLayer {
                board: &f.board,
                orientation: options.orientation,
                last_move: f.last_move,
                check: f.check,
                marks: &f.marks,
                arrows: &[],
                strips: f.strips.as_ref(),
            };
            let players = f.players.as_ref().or(options.players.as_ref());
            compose::compose_into(&tiles, &layer, players, &mut canvas)?;
            let w = match &mut writer {
                Some(w) => w,
                None => writer.insert(gif::GifWriter::new(
                    canvas.width,
                    canvas.height,
                    &tiles.palette,
                )?),
            };
            let mut delay = f.delay_ms.unwrap_or(options.frame_delay_ms);
            if i + 1 == frames.len() {
                delay = delay.max(options.last_frame_delay_ms);
            }
            w.push(&canvas, delay)?;
        }
        writer.ok_or(RenderError::NoFrames)?.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renderer_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Renderer>();
    }
}
