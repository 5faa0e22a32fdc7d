//! Pre-blended, palette-indexed square tiles for one theme and square size.
//!
//! Every combination of square background (light/dark × plain, last move,
//! check glow, mark) and content (empty or one of twelve pieces) is blended
//! once in RGBA and stored as palette indices, so drawing a board is 64 tile
//! copies. Coordinate labels are kept as small alpha masks.

use std::sync::atomic::{AtomicU16, Ordering};

use shakmaty::Piece;

use super::{
    deflate::{PreparedRow, RowCoder},
    fonts,
    palette::{Mapper, Palette},
    pieces::{all_pieces, piece_index, PieceSet},
    text::GlyphCache,
    theme::{Rgb, Theme},
    RenderError,
};

/// What lies under a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Background {
    /// The plain square.
    Plain = 0,
    /// One of the two squares of the last move.
    LastMove = 1,
    /// A king in check stands here.
    Check = 2,
    /// A marked square.
    Mark = 3,
}

const BACKGROUNDS: usize = 4;
/// Empty + 12 pieces.
const CONTENTS: usize = 13;

/// A colour laid over the board per request, with a cached blend table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ink {
    /// Coordinates on dark squares (drawn in the light square colour).
    OnDark = 0,
    /// Coordinates on light squares (drawn in the dark square colour).
    OnLight = 1,
    /// Arrows.
    Arrow = 2,
    /// Text of the players bar.
    BarText = 3,
}

const INKS: usize = 4;
/// Coverage levels kept apart in the blend table.
const ALPHA_LEVELS: usize = 32;
/// Marks a blend-table entry not computed yet.
const UNKNOWN: u16 = u16::MAX;

/// An anti-aliased label (coverage per pixel).
#[derive(Debug, Clone)]
pub struct Label {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Coverage, `width * height` bytes.
    pub alpha: Vec<u8>,
}

/// All tiles of one theme at one square size.
#[derive(Debug)]
pub struct TileSet {
    /// Side of a square.
    pub square_px: u32,
    /// Colours.
    pub theme: Theme,
    /// The palette every index refers to.
    pub palette: Palette,
    tiles: Vec<u8>,
    /// Every tile row coded once for the PNG writer, `[tile][row]`.
    prepared: Vec<PreparedRow>,
    /// The code tables of this size's image rows.
    coder: RowCoder,
    /// Labels `a`..`h`.
    pub files: Vec<Label>,
    /// Labels `1`..`8`.
    pub ranks: Vec<Label>,
    /// `[ink][under][alpha level]` → palette index, filled on first use.
    /// Concurrent fills race benignly: every thread computes the same value.
    blends: Vec<AtomicU16>,
    bar_bg: u8,
    /// Names in the players bar.
    pub bar_name: GlyphCache,
    /// Points or clocks in the players bar.
    pub bar_detail: GlyphCache,
}

impl TileSet {
    /// Blends every tile of `theme` with `pieces` at `square_px`.
    pub fn build(theme: Theme, square_px: u32, pieces: &PieceSet) -> Result<TileSet, RenderError> {
        let sq = square_px as usize;
        let area = sq * sq;
        let piece_px: Vec<Vec<u8>> = all_pieces()
            .iter()
            .map(|&p| pieces.scaled(p, square_px))
            .collect();

        // RGB of every tile, in [light][background][content] order.
        let mut rgb: Vec<Rgb> = Vec::with_capacity(2 * BACKGROUNDS * CONTENTS * area);
        for light in [false, true] {
            for bg in 0..BACKGROUNDS {
                let base = background(&theme, light, bg, sq);
                rgb.extend_from_slice(&base);
                for piece in &piece_px {
                    rgb.extend(
                        base.iter()
                            .zip(piece.chunks_exact(4))
                            .map(|(&b, p)| over(b, p)),
                    );
                }
            }
        }

        let mut reserved = vec![
            theme.light,
            theme.dark,
            theme.bar_bg,
            theme.bar_fg,
            Rgb(0xff, 0xff, 0xff),
            Rgb(0x10, 0x10, 0x10),
        ];
        for light in [false, true] {
            let sqc = theme.square(light);
            reserved.push(sqc.blend(theme.last_move.color, theme.last_move.alpha()));
            reserved.push(sqc.blend(theme.mark.color, theme.mark.alpha()));
            reserved.push(sqc.blend(theme.arrow.color, theme.arrow.alpha()));
            // Coordinate edges: the other square colour over this one.
            for k in 1..6 {
                reserved.push(sqc.blend(theme.square(!light), k as f32 / 6.0));
            }
        }
        for k in 1..6 {
            reserved.push(theme.bar_bg.blend(theme.bar_fg, k as f32 / 6.0));
        }
        let palette = Palette::build(&reserved, &rgb);
        let mut mapper = Mapper::new(&palette);
        let tiles: Vec<u8> = rgb.iter().map(|&c| mapper.index(c)).collect();

        let label_px = (square_px as f32 * 0.22).max(8.0);
        let files = "abcdefgh"
            .chars()
            .map(|c| label(c, label_px))
            .collect::<Result<Vec<_>, _>>()?;
        let ranks = "12345678"
            .chars()
            .map(|c| label(c, label_px))
            .collect::<Result<Vec<_>, _>>()?;
        let bar_bg = palette.nearest_exact(theme.bar_bg);
        // Rows of a board image: a filter byte and eight squares.
        let coder = RowCoder::new(8 * sq + 1);
        let prepared = tiles
            .chunks_exact(area)
            .flat_map(|tile| {
                let rows: Vec<&[u8]> = tile.chunks_exact(sq).collect();
                let coder = &coder;
                (0..sq).map(move |y| coder.prepare(rows[y], y.checked_sub(1).map(|a| rows[a])))
            })
            .collect();
        Ok(TileSet {
            square_px,
            theme,
            palette,
            tiles,
            prepared,
            coder,
            files,
            ranks,
            blends: (0..INKS * 256 * ALPHA_LEVELS)
                .map(|_| AtomicU16::new(UNKNOWN))
                .collect(),
            bar_bg,
            bar_name: GlyphCache::dejavu(false, bar_font_px(square_px))?,
            bar_detail: GlyphCache::dejavu(true, bar_font_px(square_px))?,
        })
    }

    /// The index showing `ink` with coverage `alpha` over index `under`.
    pub fn blend(&self, under: u8, ink: Ink, alpha: u8) -> u8 {
        let level = usize::from(alpha) * ALPHA_LEVELS / 256;
        let slot = &self.blends[(ink as usize * 256 + usize::from(under)) * ALPHA_LEVELS + level];
        let cached = slot.load(Ordering::Relaxed);
        if cached != UNKNOWN {
            return cached as u8;
        }
        let (color, opacity) = match ink {
            Ink::OnDark => (self.theme.light, 1.0),
            Ink::OnLight => (self.theme.dark, 1.0),
            Ink::Arrow => (self.theme.arrow.color, self.theme.arrow.alpha()),
            Ink::BarText => (self.theme.bar_fg, 1.0),
        };
        // The middle of the coverage level, full at the top level.
        let a = if level + 1 == ALPHA_LEVELS {
            1.0
        } else {
            (level as f32 + 0.5) / ALPHA_LEVELS as f32
        };
        let idx = self
            .palette
            .nearest_exact(self.palette.color(under).blend(color, a * opacity));
        slot.store(u16::from(idx), Ordering::Relaxed);
        idx
    }

    /// The index of the players bar's background.
    pub fn bar_background(&self) -> u8 {
        self.bar_bg
    }

    /// Palette indices (`square_px`² bytes, row-major) of one tile.
    pub fn tile(&self, light: bool, bg: Background, piece: Option<Piece>) -> &[u8] {
        self.tile_pixels(self.tile_number(light, bg, piece))
    }

    /// The number of one tile, for [`Self::tile_pixels`] and the PNG writer.
    pub fn tile_number(&self, light: bool, bg: Background, piece: Option<Piece>) -> u16 {
        let content = piece.map_or(0, |p| piece_index(p) + 1);
        ((usize::from(light) * BACKGROUNDS + bg as usize) * CONTENTS + content) as u16
    }

    /// Palette indices of tile number `n` (`square_px`² bytes, row-major).
    pub fn tile_pixels(&self, n: u16) -> &[u8] {
        let area = (self.square_px * self.square_px) as usize;
        &self.tiles[usize::from(n) * area..][..area]
    }

    /// Row `y` of tile number `n`.
    pub fn tile_row(&self, n: u16, y: usize) -> &[u8] {
        let sq = self.square_px as usize;
        &self.tile_pixels(n)[y * sq..][..sq]
    }

    /// Row `y` of tile number `n`, coded for pasting into a board image
    /// below the same tile's row `y - 1`.
    pub fn prepared_row(&self, n: u16, y: usize) -> &PreparedRow {
        &self.prepared[usize::from(n) * self.square_px as usize + y]
    }

    /// The code tables of board images of this size.
    pub fn row_coder(&self) -> &RowCoder {
        &self.coder
    }
}

/// `piece` (premultiplied RGBA) over the opaque `base`.
fn over(base: Rgb, p: &[u8]) -> Rgb {
    let inv = 255 - u32::from(p[3]);
    let ch = |b: u8, c: u8| (u32::from(c) + (u32::from(b) * inv + 127) / 255).min(255) as u8;
    Rgb(ch(base.0, p[0]), ch(base.1, p[1]), ch(base.2, p[2]))
}

/// The square background `bg` of one colour, `sq`² pixels.
fn background(theme: &Theme, light: bool, bg: usize, sq: usize) -> Vec<Rgb> {
    let base = theme.square(light);
    match bg {
        1 => vec![base.blend(theme.last_move.color, theme.last_move.alpha()); sq * sq],
        3 => vec![base.blend(theme.mark.color, theme.mark.alpha()); sq * sq],
        2 => {
            // lichess's check glow: radial-gradient(ellipse at center,
            // red 0%, #e70000 25%, rgba(169,0,0,0) 89%, rgba(158,0,0,0) 100%).
            let stops: [(f32, [f32; 3], f32); 4] = [
                (0.0, [255.0, 0.0, 0.0], 1.0),
                (0.25, [231.0, 0.0, 0.0], 1.0),
                (0.89, [169.0, 0.0, 0.0], 0.0),
                (1.0, [158.0, 0.0, 0.0], 0.0),
            ];
            let red = theme.check;
            let radius = sq as f32 / std::f32::consts::SQRT_2;
            let c = sq as f32 / 2.0;
            let mut out = Vec::with_capacity(sq * sq);
            for y in 0..sq {
                for x in 0..sq {
                    let d = ((x as f32 + 0.5 - c).hypot(y as f32 + 0.5 - c) / radius).min(1.0);
                    let (i, j) = match stops.iter().position(|s| s.0 >= d) {
                        Some(0) | None => (0, 0),
                        Some(j) => (j - 1, j),
                    };
                    let t = if i == j {
                        0.0
                    } else {
                        (d - stops[i].0) / (stops[j].0 - stops[i].0)
                    };
                    let alpha = stops[i].2 + (stops[j].2 - stops[i].2) * t;
                    let k = (stops[i].1[0] + (stops[j].1[0] - stops[i].1[0]) * t) / 255.0;
                    let glow = Rgb(
                        (f32::from(red.0) * k) as u8,
                        (f32::from(red.1) * k) as u8,
                        (f32::from(red.2) * k) as u8,
                    );
                    out.push(base.blend(glow, alpha));
                }
            }
            out
        }
        _ => vec![base; sq * sq],
    }
}

/// Renders one coordinate character at `px` font size (bold).
fn label(c: char, px: f32) -> Result<Label, RenderError> {
    let w = (px * 1.2).ceil() as u32;
    let h = (px * 1.3).ceil() as u32;
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><text x="{x}" y="{y}" font-family="{f}" font-weight="bold" font-size="{px}" text-anchor="middle">{c}</text></svg>"#,
        x = w as f32 / 2.0,
        y = px * 0.95,
        f = fonts::FAMILY,
    );
    let tree = fonts::parse(&svg)?;
    let pixmap = fonts::rasterize(&tree, resvg::tiny_skia::Transform::identity(), w, h)?;
    let alpha: Vec<u8> = pixmap.data().chunks_exact(4).map(|p| p[3]).collect();
    // Trim to the ink so labels can be placed by their visible edges.
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if alpha[(y * w + x) as usize] > 0 {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x + 1);
                y1 = y1.max(y + 1);
            }
        }
    }
    if x1 <= x0 || y1 <= y0 {
        return Err(RenderError::Internal(format!("empty label {c}")));
    }
    let mut trimmed = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
    for y in y0..y1 {
        trimmed.extend_from_slice(&alpha[(y * w + x0) as usize..(y * w + x1) as usize]);
    }
    Ok(Label {
        width: x1 - x0,
        height: y1 - y0,
        alpha: trimmed,
    })
}

/// Font size of the players bar for a square size.
fn bar_font_px(square_px: u32) -> f32 {
    super::compose::bar_px(square_px) as f32 * 0.5
}
