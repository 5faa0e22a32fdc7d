//! The twelve piece images, rasterised once.
//!
//! The default set is built from the chess glyphs of DejaVu Sans (U+2654 ..
//! U+265F, shipped by the `dejavu` crate): each piece is the glyph's
//! silhouette filled in one colour with the glyph itself inked over it in
//! the other, so White is light with a dark outline and Black is dark with
//! light details, the classic look. Each role is scaled on its own so the
//! pawn and bishop keep a readable size.
//!
//! Operators can instead point `pieces_dir` at twelve SVG files
//! (`wK.svg` .. `bP.svg`, e.g. lichess's cburnett set); every file is read
//! and rasterised when the renderer is built, so a missing or broken file
//! is reported at start-up.
//!
//! Pieces are kept as one high-resolution premultiplied RGBA image each
//! ([`HI_PX`] square) and area-averaged down to each square size on demand,
//! which gives clean anti-aliasing at every size without re-running resvg.

use std::path::Path;

use resvg::tiny_skia::Transform;
use shakmaty::{Color, Piece, Role};

use super::{fonts, RenderError};

/// Side of the master piece images.
pub const HI_PX: u32 = 256;

/// Fill colour of light pieces and details of dark ones.
const LIGHT: [u8; 3] = [0xff, 0xff, 0xff];
/// Outline of light pieces and fill of dark ones.
const DARK: [u8; 3] = [0x10, 0x10, 0x10];

/// Extra outline thickness of light pieces, as a fraction of the square.
const WHITE_STROKE: f32 = 0.018;
/// Extra outline thickness of dark pieces (kept thin to keep the details).
const BLACK_STROKE: f32 = 0.006;

/// The twelve master images, indexed by [`piece_index`].
#[derive(Debug, Clone)]
pub struct PieceSet {
    images: Vec<Vec<u8>>,
}

/// Index 0..12 of a piece: White K Q R B N P, then Black.
pub fn piece_index(piece: Piece) -> usize {
    let role = match piece.role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    };
    role + if piece.color == Color::White { 0 } else { 6 }
}

/// All twelve pieces in [`piece_index`] order.
pub fn all_pieces() -> [Piece; 12] {
    let roles = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    std::array::from_fn(|i| Piece {
        color: if i < 6 { Color::White } else { Color::Black },
        role: roles[i % 6],
    })
}

/// File name of a piece in a `pieces_dir`: `wK.svg`, `bN.svg`, ...
pub fn file_name(piece: Piece) -> String {
    format!(
        "{}{}.svg",
        piece.color.char(),
        piece.role.char().to_ascii_uppercase()
    )
}

/// Height and maximum width of each role as a fraction of the square, and
/// the baseline (bottom of the piece) as a fraction from the top.
fn glyph_box(role: Role) -> (f32, f32, f32) {
    match role {
        Role::King => (0.84, 0.84, 0.92),
        Role::Queen => (0.80, 0.86, 0.91),
        Role::Rook => (0.72, 0.70, 0.90),
        Role::Bishop => (0.80, 0.80, 0.91),
        Role::Knight => (0.78, 0.80, 0.90),
        Role::Pawn => (0.66, 0.64, 0.89),
    }
}

/// Code point of the outlined ("white") glyph; the filled one is +6.
fn glyph(role: Role) -> u32 {
    match role {
        Role::King => 0x2654,
        Role::Queen => 0x2655,
        Role::Rook => 0x2656,
        Role::Bishop => 0x2657,
        Role::Knight => 0x2658,
        Role::Pawn => 0x2659,
    }
}

impl PieceSet {
    /// The built-in set drawn from DejaVu Sans glyphs.
    pub fn dejavu() -> Result<PieceSet, RenderError> {
        let images = all_pieces()
            .iter()
            .map(|&piece| glyph_piece(piece))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PieceSet { images })
    }

    /// Twelve SVG files from `dir` (`wK.svg` .. `bP.svg`).
    pub fn from_dir(dir: &Path) -> Result<PieceSet, RenderError> {
        let images = all_pieces()
            .iter()
            .map(|&piece| svg_piece(&dir.join(file_name(piece))))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PieceSet { images })
    }

    /// The master image of `piece` ([`HI_PX`] square, premultiplied RGBA).
    pub fn master(&self, piece: Piece) -> &[u8] {
        &self.images[piece_index(piece)]
    }

    /// `piece` area-averaged to `px`×`px` (premultiplied RGBA).
    pub fn scaled(&self, piece: Piece, px: u32) -> Vec<u8> {
        resample(self.master(piece), HI_PX, px)
    }
}

/// Renders one glyph so that its ink fills its role's box in a [`HI_PX`]
/// square, thickened by a stroke of `stroke` (fraction of the square).
/// Returns the coverage (alpha) per pixel.
fn glyph_alpha(code: u32, role: Role, stroke: f32) -> Result<Vec<u8>, RenderError> {
    let ch = char::from_u32(code).ok_or_else(|| RenderError::Internal("glyph".into()))?;
    let svg = |stroke_width: f32| {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><text x="100" y="800" font-family="{}" font-size="700" fill="#000" stroke="#000" stroke-width="{stroke_width}" stroke-linejoin="round">{ch}</text></svg>"##,
            fonts::FAMILY
        )
    };
    // The text's layout box includes line spacing, so measure the ink itself.
    let probe = fonts::rasterize(&fonts::parse(&svg(0.0))?, Transform::identity(), 1000, 1000)?;
    let (x0, y0, x1, y1) = ink_box(probe.data(), 1000)
        .ok_or_else(|| RenderError::Internal(format!("font has no glyph U+{code:04X}")))?;
    let (bw, bh) = ((x1 - x0) as f32, (y1 - y0) as f32);
    let hi = HI_PX as f32;
    let (h, w, base) = glyph_box(role);
    let s = (h * hi / bh).min(w * hi / bw);
    let tx = hi / 2.0 - s * (x0 as f32 + bw / 2.0);
    let ty = base * hi - s * y1 as f32;
    let tree = fonts::parse(&svg(stroke * hi / s))?;
    let pixmap = fonts::rasterize(
        &tree,
        Transform::from_row(s, 0.0, 0.0, s, tx, ty),
        HI_PX,
        HI_PX,
    )?;
    Ok(pixmap.data().chunks_exact(4).map(|p| p[3]).collect())
}

/// The bounding box `(x0, y0, x1, y1)` (exclusive ends) of the pixels with
/// any coverage in a square RGBA image of side `size`.
fn ink_box(rgba: &[u8], size: usize) -> Option<(usize, usize, usize, usize)> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (i, px) in rgba.chunks_exact(4).enumerate() {
        if px[3] > 0 {
            let (x, y) = (i % size, i / size);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x + 1);
            y1 = y1.max(y + 1);
        }
    }
    (x1 > x0).then_some((x0, y0, x1, y1))
}

/// Coverage of the whole shape: everything not reachable from the image
/// border without crossing ink is inside.
fn silhouette(alpha: &[u8], size: usize) -> Vec<u8> {
    const INK: u8 = 96;
    let mut outside = vec![false; alpha.len()];
    let mut stack = Vec::new();
    for i in 0..size {
        for idx in [i, (size - 1) * size + i, i * size, i * size + size - 1] {
            stack.push(idx);
        }
    }
    while let Some(idx) = stack.pop() {
        if outside[idx] || alpha[idx] >= INK {
            continue;
        }
        outside[idx] = true;
        let (x, y) = (idx % size, idx / size);
        if x > 0 {
            stack.push(idx - 1);
        }
        if x + 1 < size {
            stack.push(idx + 1);
        }
        if y > 0 {
            stack.push(idx - size);
        }
        if y + 1 < size {
            stack.push(idx + size);
        }
    }
    alpha
        .iter()
        .zip(&outside)
        .map(|(&a, &out)| if out { a } else { 255 })
        .collect()
}

/// A piece from DejaVu glyphs: silhouette in the body colour, the glyph
/// inked over it.
fn glyph_piece(piece: Piece) -> Result<Vec<u8>, RenderError> {
    let code = match piece.color {
        Color::White => glyph(piece.role),
        Color::Black => glyph(piece.role) + 6,
    };
    let stroke = match piece.color {
        Color::White => WHITE_STROKE,
        Color::Black => BLACK_STROKE,
    };
    let ink = glyph_alpha(code, piece.role, stroke)?;
    let body = silhouette(&ink, HI_PX as usize);
    // Both colours use a light body under dark ink: the white glyph is an
    // outline (light piece), the black glyph is solid with light cut-outs.
    let (body_rgb, ink_rgb) = (LIGHT, DARK);
    let mut out = Vec::with_capacity(ink.len() * 4);
    for (&a_ink, &a_body) in ink.iter().zip(&body) {
        // `ink` over `body`, premultiplied.
        let ai = f32::from(a_ink) / 255.0;
        let ab = f32::from(a_body) / 255.0 * (1.0 - ai);
        for c in 0..3 {
            let v = f32::from(ink_rgb[c]) * ai + f32::from(body_rgb[c]) * ab;
            out.push(v.round() as u8);
        }
        out.push(((ai + ab) * 255.0).round() as u8);
    }
    Ok(out)
}

/// A piece from an operator's SVG file, fitted (centred, aspect kept) into
/// the square.
fn svg_piece(path: &Path) -> Result<Vec<u8>, RenderError> {
    let data = std::fs::read(path).map_err(|e| RenderError::Pieces {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    let tree =
        resvg::usvg::Tree::from_data(&data, fonts::options()).map_err(|e| RenderError::Pieces {
            path: path.to_owned(),
            reason: format!("not a valid SVG: {e}"),
        })?;
    let size = tree.size();
    let hi = HI_PX as f32;
    let s = hi / size.width().max(size.height());
    let tx = (hi - s * size.width()) / 2.0;
    let ty = (hi - s * size.height()) / 2.0;
    let pixmap = fonts::rasterize(
        &tree,
        Transform::from_row(s, 0.0, 0.0, s, tx, ty),
        HI_PX,
        HI_PX,
    )?;
    if pixmap.data().chunks_exact(4).all(|p| p[3] == 0) {
        return Err(RenderError::Pieces {
            path: path.to_owned(),
            reason: "the SVG draws nothing".into(),
        });
    }
    Ok(pixmap.take())
}

/// Area-averaging resample of a square premultiplied RGBA image from
/// `src_px` to `dst_px` (either direction).
pub fn resample(src: &[u8], src_px: u32, dst_px: u32) -> Vec<u8> {
    if src_px == dst_px {
        // Each pixel would be averaged with itself alone, weight 1.
        return src.to_vec();
    }
    let (sp, dp) = (src_px as usize, dst_px as usize);
    let weights = axis_weights(sp, dp);
    // Horizontal pass: sp rows × dp columns, f32 RGBA.
    let mut tmp = vec![0f32; sp * dp * 4];
    for y in 0..sp {
        for (x, ws) in weights.iter().enumerate() {
            let out = &mut tmp[(y * dp + x) * 4..][..4];
            for &(i, w) in ws {
                let p = &src[(y * sp + i) * 4..][..4];
                for c in 0..4 {
                    out[c] += f32::from(p[c]) * w;
                }
            }
        }
    }
    // Vertical pass.
    let mut dst = vec![0u8; dp * dp * 4];
    for (y, ws) in weights.iter().enumerate() {
        for x in 0..dp {
            let mut acc = [0f32; 4];
            for &(i, w) in ws {
                let p = &tmp[(i * dp + x) * 4..][..4];
                for c in 0..4 {
                    acc[c] += p[c] * w;
                }
            }
            let out = &mut dst[(y * dp + x) * 4..][..4];
            for c in 0..4 {
                out[c] = acc[c].round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    dst
}

/// For each destination pixel, the source pixels it covers and their
/// weights (summing to 1).
fn axis_weights(src: usize, dst: usize) -> Vec<Vec<(usize, f32)>> {
    let ratio = src as f32 / dst as f32;
    (0..dst)
        .map(|d| {
            if ratio <= 1.0 {
                // Upscaling: nearest source pixel.
                let i = ((d as f32 + 0.5) * ratio) as usize;
                return vec![(i.min(src - 1), 1.0)];
            }
            let (lo, hi) = (d as f32 * ratio, (d + 1) as f32 * ratio);
            let mut ws = Vec::new();
            let mut i = lo.floor() as usize;
            while (i as f32) < hi && i < src {
                let w = (hi.min(i as f32 + 1.0) - lo.max(i as f32)) / ratio;
                if w > 0.0 {
                    ws.push((i, w));
                }
                i += 1;
            }
            ws
        })
        .collect()
}
