//! Drawing a [`Frame`] into a canvas of palette indices: tile copies, then
//! the few overlays (coordinates, arrows, players bar) that differ per image.

use resvg::tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Transform};
use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use super::{
    frame::{Arrow, PlayerLine, PlayersBar, StripLine, Strips},
    text,
    tiles::{Background, Ink, TileSet},
    Frame, RenderError,
};

/// An image of palette indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height` palette indices, row-major.
    pub pixels: Vec<u8>,
    /// The tiles the board was drawn from, if it was drawn by [`compose`]
    /// (lets the PNG writer paste rows it coded once, see [`super::png`]).
    pub layout: Option<TileLayout>,
}

/// Which tile of the [`TileSet`] was drawn on each square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileLayout {
    /// The board's first pixel row (below the top players bar).
    pub top: u32,
    /// Tile numbers ([`TileSet::tile_number`]) in drawing order: left to
    /// right, top to bottom, as the squares appear in the image.
    pub tiles: [u16; 64],
    /// Squares (bit `row * 8 + col`) that something was drawn over after
    /// their tile: only there can the pixels differ from the tile's.
    pub drawn_over: u64,
}

/// Height of one players bar for a square size.
pub fn bar_px(square_px: u32) -> u32 {
    (square_px * 3 / 5).max(12)
}

/// Everything that is drawn on the board itself, shared by PNG frames and
/// GIF frames.
pub struct BoardLayer<'a> {
    /// Pieces.
    pub board: &'a Board,
    /// Bottom side.
    pub orientation: Color,
    /// Highlighted squares.
    pub last_move: Option<(Square, Square)>,
    /// Glowing king.
    pub check: Option<Square>,
    /// Tinted squares.
    pub marks: &'a [Square],
    /// Arrows.
    pub arrows: &'a [Arrow],
    /// Variant strips (pockets, checks) above and below the board.
    pub strips: Option<&'a Strips>,
}

impl<'a> From<&'a Frame> for BoardLayer<'a> {
    fn from(f: &'a Frame) -> Self {
        BoardLayer {
            board: &f.board,
            orientation: f.orientation,
            last_move: f.last_move,
            check: f.check,
            marks: &f.marks,
            arrows: &f.arrows,
            strips: f.strips.as_ref(),
        }
    }
}

/// The square drawn at column `col`, row `row` (0, 0 = top left).
pub fn square_at(orientation: Color, col: u32, row: u32) -> Square {
    let (file, rank) = match orientation {
        Color::White => (col, 7 - row),
        Color::Black => (7 - col, row),
    };
    Square::from_coords(File::new(file), Rank::new(rank))
}

/// Top-left pixel of `square` on the board (without bars).
pub fn square_origin(orientation: Color, square: Square, square_px: u32) -> (u32, u32) {
    let (f, r) = (u32::from(square.file()), u32::from(square.rank()));
    let (col, row) = match orientation {
        Color::White => (f, 7 - r),
        Color::Black => (7 - f, r),
    };
    (col * square_px, row * square_px)
}

/// Draws a whole image: optional bars and the board.
pub fn compose(
    tiles: &TileSet,
    layer: &BoardLayer<'_>,
    players: Option<&PlayersBar>,
) -> Result<Canvas, RenderError> {
    let mut canvas = Canvas {
        width: 0,
        height: 0,
        pixels: Vec::new(),
        layout: None,
    };
    compose_into(tiles, layer, players, &mut canvas)?;
    Ok(canvas)
}

/// [`compose`] reusing the allocation of `canvas` (replays draw many
/// frames of one size).
pub fn compose_into(
    tiles: &TileSet,
    layer: &BoardLayer<'_>,
    players: Option<&PlayersBar>,
    canvas: &mut Canvas,
) -> Result<(), RenderError> {
    let sq = tiles.square_px;
    let bar = if players.is_some() { bar_px(sq) } else { 0 };
    // A strip is one square high: a pocket's pieces are drawn full size.
    let strip = if layer.strips.is_some() { sq } else { 0 };
    canvas.width = sq * 8;
    canvas.height = sq * 8 + 2 * bar + 2 * strip;
    // Every pixel is overwritten below, so the old contents may stay. A
    // fresh canvas takes zeroed memory from the allocator at once: `resize`
    // writes the zeros one by one in unoptimised builds (the tests'), where
    // it was a tenth of a long rules test's time.
    let len = (canvas.width * canvas.height) as usize;
    if canvas.pixels.is_empty() {
        canvas.pixels = vec![0; len];
    } else {
        canvas.pixels.resize(len, 0);
    }
    let top = bar + strip;
    let mut layout = draw_board(tiles, layer, canvas, top);
    if sq >= 16 {
        draw_coordinates(tiles, layer.orientation, canvas, top);
        // Files along the bottom row, ranks down the right column.
        layout.drawn_over |= 0xff << 56 | 0x8080_8080_8080_8080;
    }
    if !layer.arrows.is_empty() {
        draw_arrows(tiles, layer, canvas, top)?;
        layout.drawn_over = u64::MAX;
    }
    canvas.layout = Some(layout);
    if let Some(s) = layer.strips {
        draw_strip(tiles, &s.top, canvas, bar, strip);
        draw_strip(tiles, &s.bottom, canvas, top + 8 * sq, strip);
    }
    if let Some(p) = players {
        draw_bar(tiles, &p.top, canvas, 0, bar);
        draw_bar(tiles, &p.bottom, canvas, top + 8 * sq + strip, bar);
    }
    Ok(())
}

/// One variant strip: the pocket's pieces (each on a light square, its
/// count after it in the bar's bold type), then the text.
fn draw_strip(tiles: &TileSet, line: &StripLine, canvas: &mut Canvas, y0: u32, height: u32) {
    let width = canvas.width;
    let sq = tiles.square_px;
    let start = (y0 * width) as usize;
    let area = &mut canvas.pixels[start..start + (width * height) as usize];
    area.fill(tiles.bar_background());
    let font = bar_px(sq) as f32 * 0.5;
    let pad = (sq as f32 * 0.12).max(1.0);
    let baseline = (height as f32 * 0.5 + font * 0.36).round() as i32;
    let mut x = 0u32;
    if let Some((color, counts)) = line.pocket {
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ];
        for (role, &count) in roles.into_iter().zip(counts.iter()) {
            let count_text = count.to_string();
            let count_w = tiles.bar_detail.measure(&count_text).ceil() as u32;
            if count == 0 || x + sq + count_w + 2 * pad as u32 > width {
                continue;
            }
            let number = tiles.tile_number(true, Background::Plain, Some(Piece { color, role }));
            for (y, src) in tiles
                .tile_pixels(number)
                .chunks_exact(sq as usize)
                .enumerate()
            {
                let at = y * width as usize + x as usize;
                area[at..at + sq as usize].copy_from_slice(src);
            }
            x += sq;
            let mut put = |px: u32, py: u32, a: u8| {
                let idx = (py * width + px) as usize;
                area[idx] = tiles.blend(area[idx], Ink::BarText, a);
            };
            text::draw_line(
                &tiles.bar_detail,
                &count_text,
                x as f32 + pad,
                baseline,
                (width, height),
                &mut put,
            );
            x += count_w + 2 * pad as u32;
        }
    }
    if !line.text.is_empty() {
        let room = width as f32 - x as f32 - 2.0 * pad;
        let text = fit(&tiles.bar_detail, &line.text, room);
        let mut put = |px: u32, py: u32, a: u8| {
            let idx = (py * width + px) as usize;
            area[idx] = tiles.blend(area[idx], Ink::BarText, a);
        };
        text::draw_line(
            &tiles.bar_detail,
            &text,
            x as f32 + pad,
            baseline,
            (width, height),
            &mut put,
        );
    }
}

fn draw_board(
    tiles: &TileSet,
    layer: &BoardLayer<'_>,
    canvas: &mut Canvas,
    top: u32,
) -> TileLayout {
    let sq = tiles.square_px as usize;
    let width = canvas.width as usize;
    let mut layout = TileLayout {
        top,
        tiles: [0; 64],
        drawn_over: 0,
    };
    for row in 0..8u32 {
        for col in 0..8u32 {
            let square = square_at(layer.orientation, col, row);
            let bg = if layer.check == Some(square) {
                Background::Check
            } else if layer
                .last_move
                .is_some_and(|(a, b)| a == square || b == square)
            {
                Background::LastMove
            } else if layer.marks.contains(&square) {
                Background::Mark
            } else {
                Background::Plain
            };
            let number = tiles.tile_number(square.is_light(), bg, layer.board.piece_at(square));
            layout.tiles[(row * 8 + col) as usize] = number;
            let tile = tiles.tile_pixels(number);
            let x0 = col as usize * sq;
            let y0 = top as usize + row as usize * sq;
            for (y, src) in tile.chunks_exact(sq).enumerate() {
                let start = (y0 + y) * width + x0;
                canvas.pixels[start..start + sq].copy_from_slice(src);
            }
        }
    }
    layout
}

/// Lays `ink` with coverage `alpha` over the canvas pixel at `idx`.
fn blend_px(canvas: &mut Canvas, idx: usize, ink: Ink, alpha: u8, tiles: &TileSet) {
    if alpha > 0 {
        canvas.pixels[idx] = tiles.blend(canvas.pixels[idx], ink, alpha);
    }
}

/// Files along the bottom edge (bottom-left of each square), ranks along the
/// right edge (top-right of each square), in the other square's colour.
fn draw_coordinates(tiles: &TileSet, orientation: Color, canvas: &mut Canvas, top: u32) {
    let sq = tiles.square_px;
    let pad = (sq / 20).max(1);
    let width = canvas.width as usize;
    for i in 0..8u32 {
        // File label in the bottom row, column i.
        let square = square_at(orientation, i, 7);
        let label = &tiles.files[usize::from(square.file())];
        let ink = if square.is_light() {
            Ink::OnLight
        } else {
            Ink::OnDark
        };
        let x0 = i * sq + pad;
        let y0 = top + 8 * sq - pad - label.height;
        for y in 0..label.height {
            for x in 0..label.width {
                let a = label.alpha[(y * label.width + x) as usize];
                let idx = (y0 + y) as usize * width + (x0 + x) as usize;
                blend_px(canvas, idx, ink, a, tiles);
            }
        }
        // Rank label in the right column, row i.
        let square = square_at(orientation, 7, i);
        let label = &tiles.ranks[usize::from(square.rank())];
        let ink = if square.is_light() {
            Ink::OnLight
        } else {
            Ink::OnDark
        };
        let x0 = 8 * sq - pad - label.width;
        let y0 = top + i * sq + pad;
        for y in 0..label.height {
            for x in 0..label.width {
                let a = label.alpha[(y * label.width + x) as usize];
                let idx = (y0 + y) as usize * width + (x0 + x) as usize;
                blend_px(canvas, idx, ink, a, tiles);
            }
        }
    }
}

fn draw_arrows(
    tiles: &TileSet,
    layer: &BoardLayer<'_>,
    canvas: &mut Canvas,
    top: u32,
) -> Result<(), RenderError> {
    let sq = tiles.square_px as f32;
    let side = tiles.square_px * 8;
    let mut mask =
        Pixmap::new(side, side).ok_or_else(|| RenderError::Internal("arrow pixmap".into()))?;
    let mut paint = Paint::default();
    paint.set_color_rgba8(0, 0, 0, 255);
    paint.anti_alias = true;
    let centre = |s: Square| {
        let (x, y) = square_origin(layer.orientation, s, tiles.square_px);
        (x as f32 + sq / 2.0, y as f32 + sq / 2.0)
    };
    let arrows = &layer.arrows[..layer.arrows.len().min(super::MAX_ARROWS)];
    for arrow in arrows.iter().filter(|a| a.from != a.to) {
        let (x0, y0) = centre(arrow.from);
        let (x1, y1) = centre(arrow.to);
        let len = (x1 - x0).hypot(y1 - y0);
        let (ux, uy) = ((x1 - x0) / len, (y1 - y0) / len);
        let (nx, ny) = (-uy, ux);
        let shaft = sq * 0.09;
        let head_w = sq * 0.24;
        let head_l = sq * 0.36;
        // Stop the tip a little before the centre, as lichess does.
        let (tx, ty) = (x1 - ux * sq * 0.12, y1 - uy * sq * 0.12);
        let (bx, by) = (tx - ux * head_l, ty - uy * head_l);
        let (sx, sy) = (x0 + ux * sq * 0.15, y0 + uy * sq * 0.15);
        let mut pb = PathBuilder::new();
        pb.move_to(sx + nx * shaft, sy + ny * shaft);
        pb.line_to(bx + nx * shaft, by + ny * shaft);
        pb.line_to(bx + nx * head_w, by + ny * head_w);
        pb.line_to(tx, ty);
        pb.line_to(bx - nx * head_w, by - ny * head_w);
        pb.line_to(bx - nx * shaft, by - ny * shaft);
        pb.line_to(sx - nx * shaft, sy - ny * shaft);
        pb.close();
        if let Some(path) = pb.finish() {
            mask.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    let width = canvas.width as usize;
    for (i, px) in mask.data().chunks_exact(4).enumerate() {
        if px[3] > 0 {
            let idx = (top as usize + i / side as usize) * width + i % side as usize;
            blend_px(canvas, idx, Ink::Arrow, px[3], tiles);
        }
    }
    Ok(())
}

/// Cuts `text` to at most `max` characters, with an ellipsis.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// One players bar: the name on the left, the detail (points or clock) in
/// bold on the right, the name shortened with an ellipsis to leave room.
fn draw_bar(tiles: &TileSet, line: &PlayerLine, canvas: &mut Canvas, y0: u32, height: u32) {
    let width = canvas.width;
    let start = (y0 * width) as usize;
    let area = &mut canvas.pixels[start..start + (width * height) as usize];
    area.fill(tiles.bar_background());
    let font = height as f32 * 0.5;
    let pad = height as f32 * 0.35;
    let baseline = (height as f32 * 0.5 + font * 0.36).round() as i32;
    let detail = shorten(&line.detail, 16);
    let detail_w = tiles.bar_detail.measure(&detail);
    let room = width as f32 - detail_w - 3.0 * pad;
    let name = fit(&tiles.bar_name, &line.name, room);
    let mut put = |x: u32, y: u32, a: u8| {
        let idx = (y * width + x) as usize;
        area[idx] = tiles.blend(area[idx], Ink::BarText, a);
    };
    text::draw_line(
        &tiles.bar_name,
        &name,
        pad,
        baseline,
        (width, height),
        &mut put,
    );
    let right = width as f32 - pad - detail_w;
    text::draw_line(
        &tiles.bar_detail,
        &detail,
        right,
        baseline,
        (width, height),
        &mut put,
    );
}

/// `text` cut (with an ellipsis) to fit `room` pixels.
fn fit(cache: &text::GlyphCache, text: &str, room: f32) -> String {
    if cache.measure(text) <= room {
        return text.to_owned();
    }
    let ellipsis = cache.measure("…");
    let mut out = String::new();
    let mut used = 0.0;
    for c in text.chars() {
        let w = cache.glyph(c).advance.round();
        if used + w + ellipsis > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}
