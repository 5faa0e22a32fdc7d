//! The DejaVu Sans fonts (from the `dejavu` crate, MIT/Apache-2.0 packaging of
//! the DejaVu licence) loaded once into a font database for usvg, plus a
//! helper that turns an SVG string into premultiplied RGBA pixels.

use std::sync::{Arc, OnceLock};

use resvg::{
    tiny_skia::{Pixmap, Transform},
    usvg::{self, fontdb},
};

use super::RenderError;

/// Family name of the bundled font.
pub const FAMILY: &str = "DejaVu Sans";

/// usvg options with only the bundled fonts (deterministic output, no
/// system font scan).
pub fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        usvg::Options {
            fontdb: Arc::new(db),
            font_family: FAMILY.to_owned(),
            ..usvg::Options::default()
        }
    })
}

/// Parses an SVG document built by this module (text is turned into paths
/// with the bundled fonts).
pub fn parse(svg: &str) -> Result<usvg::Tree, RenderError> {
    usvg::Tree::from_str(svg, options()).map_err(|e| RenderError::Internal(format!("svg: {e}")))
}

/// Renders `tree` with `transform` into a new `width`×`height` pixmap.
pub fn rasterize(
    tree: &usvg::Tree,
    transform: Transform,
    width: u32,
    height: u32,
) -> Result<Pixmap, RenderError> {
    let mut pixmap = Pixmap::new(width, height)
        .ok_or_else(|| RenderError::Internal(format!("pixmap {width}x{height}")))?;
    resvg::render(tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Escapes text for an SVG text node or attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}
