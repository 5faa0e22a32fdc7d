//! The DejaVu Sans fonts (from the `dejavu` crate, MIT/Apache-2.0 packaging of
//! the DejaVu licence) loaded once into a font database for usvg, the CJK
//! fallback font, and a helper that turns an SVG string into premultiplied
//! RGBA pixels.
//!
//! DejaVu has no Chinese characters. Names such as 张伟 and levels such as
//! 1级 are drawn from a chain of CJK fonts, each character from the first
//! font of the chain that has it:
//! 1. the file named by `CHESSBOT_CJK_FONT` (a `.ttf`, `.otf` or `.ttc`);
//!    else the system's fonts (fontconfig's folders), by family:
//!    [`CJK_FAMILIES`], first found wins (Debian/Ubuntu: `fonts-noto-cjk`,
//!    which has far more characters than the font below);
//! 2. the bundled "Chessbot CJK SC" ([`BUNDLED_CJK`]), always present: a
//!    subset of Noto Sans CJK SC (SIL OFL 1.1, `assets/fonts/`) with the
//!    8,105 characters of the 通用规范汉字表, CJK punctuation and full-width
//!    forms, so that a machine with no CJK font still draws Chinese names.
//!
//! A character none of them has (a rare ideograph on a machine without
//! system CJK fonts, most emoji) is drawn as DejaVu's missing-glyph box: a
//! visible placeholder, never a panic.

use std::sync::{Arc, OnceLock};

use resvg::{
    tiny_skia::{Pixmap, Transform},
    usvg::{self, fontdb},
};

use super::RenderError;

/// Family name of the bundled font.
pub const FAMILY: &str = "DejaVu Sans";

/// CJK families looked for among the system's fonts, best first.
pub const CJK_FAMILIES: [&str; 8] = [
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "Noto Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
    "Noto Sans CJK JP",
];

/// Environment variable naming a CJK font file to use before system fonts.
pub const CJK_FONT_ENV: &str = "CHESSBOT_CJK_FONT";

/// The bundled CJK subset (made by `assets/fonts/subset.sh`; its licence is
/// `assets/fonts/OFL.txt`).
pub const BUNDLED_CJK: &[u8] = include_bytes!("../../assets/fonts/ChessbotCJKSC-Regular.otf");

/// Family name of [`BUNDLED_CJK`].
pub const BUNDLED_CJK_FAMILY: &str = "Chessbot CJK SC";

/// A CJK fallback font: its bytes (kept for the life of the process) and
/// the face index inside a collection (`.ttc`).
pub struct CjkFont {
    pub data: &'static [u8],
    pub index: u32,
    /// Where it came from, for the log.
    pub origin: String,
}

/// The CJK fallback chain, best first (see the module docs): the
/// configured or system font when there is one, then the bundled subset.
/// Never empty.
pub fn cjk_chain() -> &'static [CjkFont] {
    static CHAIN: OnceLock<Vec<CjkFont>> = OnceLock::new();
    CHAIN.get_or_init(|| {
        let mut chain: Vec<CjkFont> = find_cjk().into_iter().collect();
        chain.push(CjkFont {
            data: BUNDLED_CJK,
            index: 0,
            origin: format!("bundled {BUNDLED_CJK_FAMILY}"),
        });
        for font in &chain {
            tracing::debug!(origin = %font.origin, "CJK font");
        }
        chain
    })
}

/// The configured or system CJK font, if the machine has one (the bundled
/// subset is not looked for here).
fn find_cjk() -> Option<CjkFont> {
    let mut db = fontdb::Database::new();
    let origin = match std::env::var_os(CJK_FONT_ENV) {
        Some(path) if !path.is_empty() => {
            if let Err(e) = db.load_font_file(&path) {
                tracing::warn!(path = ?path, error = %e, "{CJK_FONT_ENV}: cannot load the font");
            }
            format!("{CJK_FONT_ENV}={}", path.to_string_lossy())
        }
        _ => {
            db.load_system_fonts();
            "system fonts".to_owned()
        }
    };
    let id = CJK_FAMILIES
        .iter()
        .find_map(|family| {
            db.query(&fontdb::Query {
                families: &[fontdb::Family::Name(family)],
                ..fontdb::Query::default()
            })
        })
        // A font file named explicitly is used whatever its family.
        .or_else(|| {
            (origin != "system fonts")
                .then(|| db.faces().next().map(|f| f.id))
                .flatten()
        })?;
    let family = db
        .face(id)
        .and_then(|f| f.families.first().map(|(name, _)| name.clone()))
        .unwrap_or_default();
    let (data, index) = db.with_face_data(id, |data, index| (data.to_vec(), index))?;
    // Loaded once per process and used until it exits: leaking it gives the
    // glyph caches a `'static` borrow without self-referential structs.
    let data: &'static [u8] = Box::leak(data.into_boxed_slice());
    // A file that is not a font leaves no CJK font rather than a broken one.
    skrifa::FontRef::from_index(data, index).ok()?;
    Some(CjkFont {
        data,
        index,
        origin: format!("{family} ({origin})"),
    })
}

/// usvg options with the bundled fonts and the CJK fallback chain (no other
/// system font, so output does not depend on what else is installed).
pub fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        // usvg falls back to any face of the database that has a
        // character, so CJK in a chart title finds this one.
        for cjk in cjk_chain() {
            db.load_font_source(fontdb::Source::Binary(Arc::new(cjk.data)));
        }
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
