//! Text of the players bar, drawn from a cache of rasterised glyphs.
//!
//! Laying out a line through usvg (parse an SVG, shape, outline, fill) cost
//! about a millisecond per bar, more than the whole board. A bar is a short
//! line in one font at one size, so each glyph is outlined with skrifa and
//! filled with tiny-skia once, kept as a coverage mask with its advance, and
//! a line is then a few mask copies. Pen positions are rounded to whole
//! pixels and kerning is not applied; at bar sizes neither is visible.
//!
//! Characters the bundled DejaVu Sans lacks are taken from the CJK fallback
//! chain ([`super::fonts::cjk_chain`]) when a font of it has them (张伟, 1级, 无级别), at the
//! same pixel size; anything neither has (most emoji, scripts with no font
//! here) is drawn as DejaVu's missing-glyph box, a visible placeholder.

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
};

use resvg::tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Transform};
use skrifa::{
    instance::{LocationRef, Size},
    outline::{DrawSettings, OutlinePen},
    FontRef, GlyphId, MetadataProvider,
};

use super::RenderError;

/// Most distinct characters kept per font and size (names are free text;
/// this caps what a stream of unusual names can make the cache hold).
const MAX_GLYPHS: usize = 2048;

/// One rasterised glyph: coverage mask placed relative to the pen position
/// on the baseline.
#[derive(Debug)]
pub struct Glyph {
    /// Mask column 0 is this many pixels right of the pen.
    pub left: i32,
    /// Mask row 0 is this many pixels below the baseline (negative: above).
    pub top: i32,
    /// Mask width.
    pub width: u32,
    /// Mask height.
    pub height: u32,
    /// Coverage, row-major.
    pub alpha: Vec<u8>,
    /// Horizontal advance in pixels.
    pub advance: f32,
}

/// Glyphs of one face at one size, rasterised on first use.
pub struct GlyphCache {
    font: FontRef<'static>,
    /// Where characters `font` lacks are looked for, in order (the CJK
    /// chain of [`super::fonts::cjk_chain`]).
    fallbacks: Vec<FontRef<'static>>,
    size: f32,
    glyphs: RwLock<HashMap<char, Arc<Glyph>>>,
}

impl std::fmt::Debug for GlyphCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GlyphCache")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl GlyphCache {
    /// DejaVu Sans (bold or regular) at `size` pixels per em.
    pub fn dejavu(bold: bool, size: f32) -> Result<GlyphCache, RenderError> {
        let data = if bold {
            dejavu::sans::bold()
        } else {
            dejavu::sans::regular()
        };
        let font = FontRef::new(data).map_err(|e| RenderError::Internal(format!("font: {e}")))?;
        let fallbacks = super::fonts::cjk_chain()
            .iter()
            .filter_map(|f| FontRef::from_index(f.data, f.index).ok())
            .collect();
        Ok(GlyphCache {
            font,
            fallbacks,
            size,
            glyphs: RwLock::new(HashMap::new()),
        })
    }

    /// The glyph drawn for `c`.
    pub fn glyph(&self, c: char) -> Arc<Glyph> {
        if let Some(g) = self
            .glyphs
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&c)
        {
            return Arc::clone(g);
        }
        let glyph = Arc::new(self.rasterize(c));
        let mut cache = self.glyphs.write().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= MAX_GLYPHS {
            cache.clear();
        }
        Arc::clone(cache.entry(c).or_insert(glyph))
    }

    /// Width in pixels of `text` laid out on one line.
    pub fn measure(&self, text: &str) -> f32 {
        text.chars().map(|c| self.glyph(c).advance.round()).sum()
    }

    /// The face and glyph that draw `c`: the main font's, else the first
    /// fallback's that has it, else the main font's missing-glyph box.
    fn lookup(&self, c: char) -> (&FontRef<'static>, GlyphId) {
        std::iter::once(&self.font)
            .chain(&self.fallbacks)
            .find_map(|font| font.charmap().map(c).map(|id| (font, id)))
            .unwrap_or((&self.font, GlyphId::NOTDEF))
    }

    /// Whether `c` has a real glyph (not the missing-glyph box).
    pub fn has_glyph(&self, c: char) -> bool {
        self.lookup(c).1 != GlyphId::NOTDEF
    }

    fn rasterize(&self, c: char) -> Glyph {
        let (font, id) = self.lookup(c);
        let size = Size::new(self.size);
        let advance = font
            .glyph_metrics(size, LocationRef::default())
            .advance_width(id)
            .unwrap_or(0.0);
        let mut pen = Flipped(PathBuilder::new());
        if let Some(outline) = font.outline_glyphs().get(id) {
            // A malformed outline leaves an empty (blank) glyph.
            let _ = outline.draw(
                DrawSettings::unhinted(size, LocationRef::default()),
                &mut pen,
            );
        }
        let blank = Glyph {
            left: 0,
            top: 0,
            width: 0,
            height: 0,
            alpha: Vec::new(),
            advance,
        };
        let Some(path) = pen.0.finish() else {
            return blank;
        };
        let b = path.bounds();
        let (left, top) = (b.left().floor(), b.top().floor());
        let width = (b.right().ceil() - left) as u32 + 1;
        let height = (b.bottom().ceil() - top) as u32 + 1;
        let Some(mut pixmap) = Pixmap::new(width, height) else {
            return blank;
        };
        let mut paint = Paint::default();
        paint.set_color_rgba8(0, 0, 0, 255);
        paint.anti_alias = true;
        pixmap.fill_path(
            &path,
            &paint,
            FillRule::Winding,
            Transform::from_translate(-left, -top),
            None,
        );
        Glyph {
            left: left as i32,
            top: top as i32,
            width,
            height,
            alpha: pixmap.data().chunks_exact(4).map(|p| p[3]).collect(),
            advance,
        }
    }
}

/// Receives a font outline (y up) as a tiny-skia path (y down).
struct Flipped(PathBuilder);

impl OutlinePen for Flipped {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, -y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, -y);
    }
    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.0.quad_to(cx0, -cy0, x, -y);
    }
    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.0.cubic_to(cx0, -cy0, cx1, -cy1, x, -y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

/// Calls `put(x, y, coverage)` for every inked pixel of `text` with its pen
/// starting at `x0` on baseline `baseline`; pixels outside
/// `0..width × 0..height` are skipped.
pub fn draw_line(
    cache: &GlyphCache,
    text: &str,
    x0: f32,
    baseline: i32,
    (width, height): (u32, u32),
    mut put: impl FnMut(u32, u32, u8),
) {
    let mut pen = x0.round() as i32;
    for c in text.chars() {
        let g = cache.glyph(c);
        for gy in 0..g.height {
            let y = baseline + g.top + gy as i32;
            if y < 0 || y >= height as i32 {
                continue;
            }
            for gx in 0..g.width {
                let x = pen + g.left + gx as i32;
                let a = g.alpha[(gy * g.width + gx) as usize];
                if a > 0 && x >= 0 && x < width as i32 {
                    put(x as u32, y as u32, a);
                }
            }
        }
        pen += g.advance.round() as i32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_have_ink_and_advances_and_space_is_blank() {
        let cache = GlyphCache::dejavu(false, 18.0).expect("font");
        let w = cache.glyph('W');
        assert!(w.alpha.iter().filter(|&&a| a > 128).count() > 20);
        assert!(w.top < 0, "capitals sit above the baseline");
        assert!(w.advance > cache.glyph('i').advance);
        let space = cache.glyph(' ');
        assert!(space.alpha.iter().all(|&a| a == 0));
        assert!(space.advance > 3.0);
    }

    #[test]
    fn measure_grows_with_text_and_bold_is_wider() {
        let regular = GlyphCache::dejavu(false, 18.0).expect("font");
        let bold = GlyphCache::dejavu(true, 18.0).expect("font");
        assert!(regular.measure("alice (1500)") > regular.measure("alice"));
        assert!(bold.measure("10:00") > regular.measure("10:00"));
    }

    /// The ink of `c`'s glyph, as a comparable mask.
    fn ink(cache: &GlyphCache, c: char) -> (u32, u32, Vec<u8>) {
        let g = cache.glyph(c);
        (g.width, g.height, g.alpha.clone())
    }

    #[test]
    fn cjk_characters_are_real_glyphs_not_the_missing_box() {
        // The bundled subset draws them on any machine.
        let cache = GlyphCache::dejavu(false, 18.0).expect("font");
        let notdef = ink(&cache, '\u{10FFFD}');
        for c in ['张', '伟', '级', '无', '别'] {
            assert!(cache.has_glyph(c), "{c}");
            let g = ink(&cache, c);
            assert_ne!(g, notdef, "{c} is not the missing-glyph box");
            assert!(g.2.iter().filter(|&&a| a > 128).count() > 20, "{c} has ink");
        }
        assert_ne!(ink(&cache, '张'), ink(&cache, '伟'));
        // Full-width characters are about one em wide.
        let advance = cache.glyph('张').advance;
        assert!((15.0..=21.0).contains(&advance), "{advance}");
    }

    #[test]
    fn the_bundled_subset_alone_draws_chinese_names() {
        // As on a machine with no CJK font installed: DejaVu, then only
        // the bundled subset.
        let mut cache = GlyphCache::dejavu(false, 18.0).expect("font");
        cache.fallbacks =
            vec![FontRef::new(super::super::fonts::BUNDLED_CJK).expect("bundled font")];
        let notdef = ink(&cache, '\u{10FFFD}');
        for c in "张伟李娜无级别特级大师，。：".chars() {
            assert!(cache.has_glyph(c), "{c}");
            assert_ne!(ink(&cache, c), notdef, "{c} is not the missing-glyph box");
        }
        assert_ne!(ink(&cache, '张'), ink(&cache, '李'));
        // Outside the 通用规范汉字表 (a traditional form): the box.
        assert!(!cache.has_glyph('龜'));
    }

    #[test]
    fn a_character_no_font_has_is_a_visible_box_not_a_panic() {
        let cache = GlyphCache::dejavu(false, 18.0).expect("font");
        assert!(!cache.has_glyph('\u{10FFFD}'));
        let g = cache.glyph('\u{10FFFD}');
        assert!(g.alpha.iter().filter(|&&a| a > 128).count() > 10);
        assert!(g.advance > 3.0);
    }

    #[test]
    fn draw_line_clips_to_the_area() {
        let cache = GlyphCache::dejavu(false, 18.0).expect("font");
        let mut inked = 0;
        draw_line(&cache, "Hello", -5.0, 14, (30, 20), |x, y, _| {
            assert!(x < 30 && y < 20);
            inked += 1;
        });
        assert!(inked > 10);
    }
}
