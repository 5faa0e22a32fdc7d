//! Tournament crosstables as PNG images: place, name, level, one column per
//! round (opponent, colour, result), score and tie-breaks.
//!
//! `/tournament standings` answers with one of these. The caller has
//! already put everything in the reader's language ([`Crosstable`] is only
//! strings and outcomes); this module decides where things go and how they
//! look.
//!
//! A 50-player, 9-round table holds about 900 pieces of text. Laying text
//! out through usvg costs about a millisecond per line (see [`super::text`]),
//! so the table is not an SVG: text is drawn from the glyph caches of
//! [`super::text`] (DejaVu Sans, Chinese from the CJK fallback font),
//! rectangles are row fills, and the canvas holds palette indices that
//! [`super::png::encode`] writes as an indexed PNG, one byte a pixel.
//!
//! The palette is fixed and small: the table's flat colours, plus each text
//! colour over each background it is drawn on at 15 coverage steps, so
//! anti-aliased text maps to exact entries rather than nearest ones.
//!
//! The background is opaque and light, as for the charts: the image reads
//! the same in Discord's dark and light themes.

use std::{borrow::Cow, sync::OnceLock};

use super::{compose::Canvas, palette::Palette, text::GlyphCache, theme::Rgb, RenderError};

/// One cell of a round column: the opponent's rank or pairing number and
/// the result, e.g. "5" with colour White and outcome Win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossCell {
    /// Opponent label ("12", or a team name for team events); empty for a bye or absence.
    pub opponent: String,
    /// The player's colour in that game, if a game was paired.
    pub colour: Option<CellColour>,
    /// What to show as the result: "1", "½", "0", "+", "−", "bye", "…" (pending) — already in the reader's language.
    pub result: String,
    /// How the round went for this player: tints the cell.
    pub outcome: CellOutcome,
}

/// The colour a player had in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellColour {
    /// Played White.
    White,
    /// Played Black.
    Black,
}

/// How one round went for a player, as far as the cell's tint goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellOutcome {
    /// Won (over the board, by forfeit, or a full-point bye).
    Win,
    /// Drew (or a half-point bye).
    Draw,
    /// Lost.
    Loss,
    /// Paired, not finished yet.
    Pending,
    /// No game and nothing to colour (absence, zero-point bye).
    Unplayed,
}

/// One player's (or team's) line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossRow {
    /// "1", or "2–3" for a shared place.
    pub place: String,
    /// Display name; cut with "…" when too long.
    pub name: String,
    /// The club level ("3级", "Level 3", "无级别"), may be empty.
    pub level: String,
    /// One cell per round column, in order.
    pub cells: Vec<CrossCell>,
    /// Total score, formatted ("3½").
    pub score: String,
    /// One value per tie-break column, formatted.
    pub tiebreaks: Vec<String>,
    /// Withdrawn players are drawn dimmed.
    pub withdrawn: bool,
}

/// A whole crosstable, every string already in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    /// Tournament name and state, e.g. "Club Swiss — after round 3 of 4".
    pub title: String,
    /// Column headings in the reader's language: place, name, level, score.
    pub place_heading: String,
    /// Heading of the name column.
    pub name_heading: String,
    /// Heading of the level column.
    pub level_heading: String,
    /// Heading of the score column.
    pub score_heading: String,
    /// One heading per round column ("1", "2", … or "R1"…).
    pub round_headings: Vec<String>,
    /// One heading per tie-break column ("SB", "BH", "小分", "对手分").
    pub tiebreak_headings: Vec<String>,
    /// The players, best first.
    pub rows: Vec<CrossRow>,
    /// A line under the table (e.g. the tie-break order), may be empty.
    pub footer: String,
}

/// Most rows in one image (caps the work and the size of one request).
pub const MAX_ROWS: usize = 400;
/// Most round plus tie-break columns in one image.
pub const MAX_COLUMNS: usize = 64;

/// Renders the crosstable as a PNG.
///
/// There are as many round columns as the longer of `round_headings` and
/// the rows' `cells` (missing cells are blank), and likewise for
/// tie-breaks. A table with more than [`MAX_ROWS`] rows or
/// [`MAX_COLUMNS`] round and tie-break columns is refused.
pub fn crosstable_png(table: &Crosstable) -> Result<Vec<u8>, RenderError> {
    let canvas = draw(table)?;
    super::png::encode(&canvas, &colours().palette)
}

// Sizes in pixels. Body text at 15 px is the players bar's size on a
// 480 px board; Discord shows wide images scaled down until clicked, so
// smaller text would not survive the preview.
const BODY_PX: f32 = 15.0;
const TITLE_PX: f32 = 20.0;
const FOOTER_PX: f32 = 13.0;
const ROW_H: u32 = 28;
const HEAD_H: u32 = 32;
const MARGIN: u32 = 16;
/// From the top margin to the table, when there is a title.
const TITLE_H: u32 = 32;
/// From the table to the bottom margin, when there is a footer.
const FOOTER_H: u32 = 28;
/// Space between a column's edge and its text.
const PAD: u32 = 8;
/// Side of the colour marker square.
const MARKER: u32 = 9;
const MARKER_GAP: u32 = 4;
const RESULT_GAP: u32 = 6;
// Widest text per kind of column; longer text is cut with "…".
const NAME_MAX: f32 = 240.0;
const LEVEL_MAX: f32 = 110.0;
const OPPONENT_MAX: f32 = 130.0;
const RESULT_MAX: f32 = 70.0;
const HEADING_MAX: f32 = 160.0;
const VALUE_MAX: f32 = 100.0;
/// A title or footer may widen a narrow table's image up to this.
const TEXT_MIN_ROOM: f32 = 900.0;
/// Characters of one string looked at: none beyond this fits any column,
/// and it bounds the work a pathological string can cause.
const MAX_CHARS: usize = 400;
/// Where a line's baseline sits below the middle of its row, as a share of
/// the font size (half the height of DejaVu's digits and capitals).
const BASELINE_DROP: f32 = 0.36;

/// The faces used, rasterised on first use and kept for the process.
struct Fonts {
    body: GlyphCache,
    bold: GlyphCache,
    title: GlyphCache,
    /// The title's size, regular (see [`Fonts::strong`]).
    title_regular: GlyphCache,
    small: GlyphCache,
}

impl Fonts {
    /// The bold face for `text`, or the regular one when `text` has
    /// Chinese (or other CJK) characters: the CJK fallback has one weight,
    /// and "第1轮" with a bold "1" between regular characters looks like a
    /// mistake.
    fn strong<'f>(&'f self, text: &str, title: bool) -> &'f GlyphCache {
        match (title, text.chars().any(is_cjk)) {
            (false, false) => &self.bold,
            (false, true) => &self.body,
            (true, false) => &self.title,
            (true, true) => &self.title_regular,
        }
    }
}

/// Whether `c` is drawn from the CJK fallback font (ideographs, kana,
/// hangul, CJK punctuation and full-width forms; DejaVu has none of them).
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{2E80}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FFEF}'
        | '\u{20000}'..='\u{3FFFF}')
}

fn fonts() -> Result<&'static Fonts, RenderError> {
    static FONTS: OnceLock<Result<Fonts, String>> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let load = |bold, size| GlyphCache::dejavu(bold, size).map_err(|e| e.to_string());
        Ok(Fonts {
            body: load(false, BODY_PX)?,
            bold: load(true, BODY_PX)?,
            title: load(true, TITLE_PX)?,
            title_regular: load(false, TITLE_PX)?,
            small: load(false, FOOTER_PX)?,
        })
    });
    fonts.as_ref().map_err(|e| RenderError::Internal(e.clone()))
}

// Backgrounds and flat colours.
const PAGE: Rgb = Rgb(0xff, 0xff, 0xff);
const ZEBRA: Rgb = Rgb(0xf2, 0xf4, 0xf7);
const HEADER: Rgb = Rgb(0xe2, 0xe7, 0xed);
const WIN_BG: Rgb = Rgb(0xda, 0xef, 0xdd);
const DRAW_BG: Rgb = Rgb(0xf2, 0xec, 0xd4);
const LOSS_BG: Rgb = Rgb(0xf7, 0xdf, 0xdf);
const GRID: Rgb = Rgb(0xdf, 0xe4, 0xea);
const RULE: Rgb = Rgb(0xaf, 0xb8, 0xc3);
const MARKER_EDGE: Rgb = Rgb(0x4a, 0x52, 0x5c);
const MARKER_BLACK: Rgb = Rgb(0x2a, 0x2e, 0x35);

/// A text colour; the discriminant indexes [`INK_RGB`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ink {
    /// Names, opponents, scores.
    Text = 0,
    /// Secondary text: levels, the footer, pending and unplayed results.
    Soft = 1,
    /// Everything on a withdrawn player's row.
    Dim = 2,
    /// Column headings.
    Head = 3,
    Win = 4,
    Draw = 5,
    Loss = 6,
}

const INK_RGB: [Rgb; 7] = [
    Rgb(0x1f, 0x23, 0x28),
    Rgb(0x5c, 0x65, 0x70),
    Rgb(0x9c, 0xa3, 0xac),
    Rgb(0x33, 0x3c, 0x47),
    Rgb(0x1b, 0x6a, 0x33),
    Rgb(0x7d, 0x5c, 0x08),
    Rgb(0xa9, 0x2b, 0x2b),
];
const INKS: usize = INK_RGB.len();
/// Coverage steps of anti-aliased text (0 = none, 15 = full ink).
const LEVELS: usize = 16;

/// Which inks are drawn over which background: these blends get exact
/// palette entries (16 pairs × 14 partial steps fit in the 255 entries).
const COMBOS: [(Rgb, &[Ink]); 6] = [
    (PAGE, &[Ink::Text, Ink::Soft, Ink::Dim]),
    (ZEBRA, &[Ink::Text, Ink::Soft, Ink::Dim]),
    (HEADER, &[Ink::Head]),
    (WIN_BG, &[Ink::Text, Ink::Dim, Ink::Win]),
    (DRAW_BG, &[Ink::Text, Ink::Dim, Ink::Draw]),
    (LOSS_BG, &[Ink::Text, Ink::Dim, Ink::Loss]),
];

/// The palette and the indices drawing needs.
struct Colours {
    palette: Palette,
    page: u8,
    zebra: u8,
    header: u8,
    win: u8,
    draw: u8,
    loss: u8,
    grid: u8,
    rule: u8,
    marker_edge: u8,
    marker_black: u8,
    /// `blend[(under * INKS + ink) * LEVELS + level]`: the entry for `ink`
    /// at coverage `level` over entry `under`.
    blend: Vec<u8>,
}

fn colours() -> &'static Colours {
    static COLOURS: OnceLock<Colours> = OnceLock::new();
    COLOURS.get_or_init(Colours::build)
}

fn coverage(level: usize) -> f32 {
    level as f32 / (LEVELS - 1) as f32
}

/// Every colour the table is meant to use, flat colours first.
fn planned_colours() -> Vec<Rgb> {
    let mut planned = vec![
        PAGE,
        ZEBRA,
        HEADER,
        WIN_BG,
        DRAW_BG,
        LOSS_BG,
        GRID,
        RULE,
        MARKER_EDGE,
        MARKER_BLACK,
    ];
    planned.extend(INK_RGB);
    for (bg, inks) in COMBOS {
        for &ink in inks {
            for level in 1..LEVELS - 1 {
                planned.push(bg.blend(INK_RGB[ink as usize], coverage(level)));
            }
        }
    }
    planned
}

impl Colours {
    fn build() -> Colours {
        let palette = Palette::build(&planned_colours(), &[]);
        // Any entry may lie under text (even text, where glyphs touch), so
        // the table covers them all; planned pairs land on exact entries.
        let mut blend = vec![0; 256 * INKS * LEVELS];
        for under in 0..palette.len() {
            let base = palette.color(under as u8);
            for (ink, &rgb) in INK_RGB.iter().enumerate() {
                let at = (under * INKS + ink) * LEVELS;
                blend[at] = under as u8;
                for level in 1..LEVELS {
                    blend[at + level] = palette.nearest_exact(base.blend(rgb, coverage(level)));
                }
            }
        }
        let index = |c| palette.nearest_exact(c);
        Colours {
            page: index(PAGE),
            zebra: index(ZEBRA),
            header: index(HEADER),
            win: index(WIN_BG),
            draw: index(DRAW_BG),
            loss: index(LOSS_BG),
            grid: index(GRID),
            rule: index(RULE),
            marker_edge: index(MARKER_EDGE),
            marker_black: index(MARKER_BLACK),
            blend,
            palette,
        }
    }

    /// The tint of a result cell and the ink of its result.
    fn outcome(&self, outcome: CellOutcome) -> Option<(u8, Ink)> {
        match outcome {
            CellOutcome::Win => Some((self.win, Ink::Win)),
            CellOutcome::Draw => Some((self.draw, Ink::Draw)),
            CellOutcome::Loss => Some((self.loss, Ink::Loss)),
            CellOutcome::Pending | CellOutcome::Unplayed => None,
        }
    }
}

/// A column: left edge and width, text inset by [`PAD`] on both sides.
#[derive(Clone, Copy, Debug)]
struct Column {
    x: u32,
    w: u32,
}

impl Column {
    fn room(self) -> f32 {
        self.w.saturating_sub(2 * PAD) as f32
    }
}

#[derive(Clone, Copy, Debug)]
enum Align {
    Left,
    Centre,
    Right,
}

/// Where everything goes, from measured text.
#[derive(Debug)]
struct Layout {
    width: u32,
    height: u32,
    /// Title baseline, if there is a title.
    title: Option<i32>,
    /// Footer baseline, if there is a footer.
    footer: Option<i32>,
    /// Top of the heading row.
    table_y: u32,
    table_x: u32,
    table_w: u32,
    place: Column,
    name: Column,
    /// Absent when no row has a level and the heading is empty.
    level: Option<Column>,
    rounds: Vec<Column>,
    score: Column,
    tiebreaks: Vec<Column>,
    /// Inside every round cell, the content is a marker (with its gap; 0
    /// when no game has a colour), the opponent right-aligned in
    /// `opponent_w`, and the result centred in `result_w`.
    marker_w: u32,
    opponent_w: u32,
    result_w: u32,
}

/// The widest of `texts` in `font`, each counted at most `max`.
fn widest<'a>(font: &GlyphCache, texts: impl IntoIterator<Item = &'a str>, max: f32) -> f32 {
    texts
        .into_iter()
        .map(|t| font.measure(head(t)).min(max))
        .fold(0.0, f32::max)
}

/// `text` up to [`MAX_CHARS`] characters.
fn head(text: &str) -> &str {
    match text.char_indices().nth(MAX_CHARS) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// A column holding `content` pixels of text.
fn column_w(content: f32) -> u32 {
    content.ceil() as u32 + 2 * PAD
}

fn layout(table: &Crosstable, f: &Fonts) -> Result<Layout, RenderError> {
    let rows = &table.rows;
    let n_rounds = rows
        .iter()
        .map(|r| r.cells.len())
        .fold(table.round_headings.len(), usize::max);
    let n_tiebreaks = rows
        .iter()
        .map(|r| r.tiebreaks.len())
        .fold(table.tiebreak_headings.len(), usize::max);
    if rows.len() > MAX_ROWS || n_rounds + n_tiebreaks > MAX_COLUMNS {
        return Err(RenderError::TableTooLarge {
            rows: rows.len(),
            columns: n_rounds + n_tiebreaks,
            max_rows: MAX_ROWS,
            max_columns: MAX_COLUMNS,
        });
    }
    let heading = |text: &str| f.strong(text, false).measure(head(text)).min(HEADING_MAX);

    let place = heading(&table.place_heading).max(widest(
        &f.body,
        rows.iter().map(|r| r.place.as_str()),
        VALUE_MAX,
    ));
    let name = heading(&table.name_heading).max(widest(
        &f.body,
        rows.iter().map(|r| r.name.as_str()),
        NAME_MAX,
    ));
    let has_level = !table.level_heading.is_empty() || rows.iter().any(|r| !r.level.is_empty());
    let level = heading(&table.level_heading).max(widest(
        &f.body,
        rows.iter().map(|r| r.level.as_str()),
        LEVEL_MAX,
    ));

    // All round columns get one width and one inner layout, so opponents
    // and results line up across the whole table.
    let cells = || rows.iter().flat_map(|r| r.cells.iter());
    let marker_w = if cells().any(|c| c.colour.is_some()) {
        MARKER + MARKER_GAP
    } else {
        0
    };
    let opponent_w = widest(
        &f.body,
        cells().filter(|c| paired(c)).map(|c| c.opponent.as_str()),
        OPPONENT_MAX,
    )
    .ceil() as u32;
    let result_w = cells()
        .filter(|c| paired(c))
        .map(|c| heading(&c.result).min(RESULT_MAX))
        .fold(0.0, f32::max)
        .ceil() as u32;
    let composite = if cells().any(paired) {
        marker_w + opponent_w + if opponent_w > 0 { RESULT_GAP } else { 0 } + result_w
    } else {
        0
    };
    let lone = widest(
        &f.body,
        cells().filter(|c| !paired(c)).map(|c| c.result.as_str()),
        RESULT_MAX,
    );
    let round = table
        .round_headings
        .iter()
        .map(|h| heading(h))
        .fold(lone, f32::max)
        .max(composite as f32);

    let score = rows
        .iter()
        .map(|r| heading(&r.score).min(VALUE_MAX))
        .fold(heading(&table.score_heading), f32::max);
    let tiebreaks: Vec<f32> = (0..n_tiebreaks)
        .map(|i| {
            let h = table.tiebreak_headings.get(i).map_or(0.0, |h| heading(h));
            h.max(widest(
                &f.body,
                rows.iter()
                    .filter_map(|r| r.tiebreaks.get(i).map(String::as_str)),
                VALUE_MAX,
            ))
        })
        .collect();

    let mut widths: Vec<u32> = vec![column_w(place), column_w(name)];
    if has_level {
        widths.push(column_w(level));
    }
    widths.extend(std::iter::repeat_n(column_w(round), n_rounds));
    widths.push(column_w(score));
    widths.extend(tiebreaks.iter().map(|&w| column_w(w)));
    let table_w: u32 = widths.iter().sum();

    // A title or footer wider than the table widens the image (up to a
    // point, then it is cut); the name column takes the extra room so the
    // table still spans the image.
    let title_w = f
        .strong(&table.title, true)
        .measure(head(&table.title))
        .ceil() as u32;
    let footer_w = f.small.measure(head(&table.footer)).ceil() as u32;
    let limit = table_w.max(TEXT_MIN_ROOM as u32);
    let content_w = table_w.max(title_w.min(limit)).max(footer_w.min(limit));
    widths[1] += content_w - table_w;

    let mut x = MARGIN;
    let mut columns = widths.into_iter().map(|w| {
        let c = Column { x, w };
        x += w;
        c
    });
    let mut next = || columns.next().unwrap_or(Column { x: 0, w: 0 });
    let place = next();
    let name = next();
    let level = has_level.then(&mut next);
    let rounds = (0..n_rounds).map(|_| next()).collect();
    let score = next();
    let tiebreaks = (0..n_tiebreaks).map(|_| next()).collect();

    let mut y = MARGIN;
    let title = (!table.title.is_empty()).then(|| {
        y += TITLE_H;
        (MARGIN as f32 + TITLE_PX * 0.9).round() as i32
    });
    let table_y = y;
    y += HEAD_H + ROW_H * rows.len() as u32;
    let footer = (!table.footer.is_empty()).then(|| {
        let baseline = y as i32 + 20;
        y += FOOTER_H;
        baseline
    });
    Ok(Layout {
        width: content_w + 2 * MARGIN,
        height: y + MARGIN,
        title,
        footer,
        table_y,
        table_x: MARGIN,
        table_w: content_w,
        place,
        name,
        level,
        rounds,
        score,
        tiebreaks,
        marker_w,
        opponent_w,
        result_w,
    })
}

/// Whether a game (or at least an opponent) stands in the cell, as
/// opposed to a bye or absence shown by its result alone.
fn paired(cell: &CrossCell) -> bool {
    !cell.opponent.is_empty() || cell.colour.is_some()
}

/// `text` cut with "…" to fit `room` pixels in `font`.
fn fit<'s>(font: &GlyphCache, text: &'s str, room: f32) -> Cow<'s, str> {
    let text = head(text);
    if font.measure(text) <= room {
        return Cow::Borrowed(text);
    }
    let ellipsis = font.measure("…");
    let mut out = String::new();
    let mut used = 0.0;
    for c in text.chars() {
        let w = font.glyph(c).advance.round();
        if used + w + ellipsis > room {
            break;
        }
        used += w;
        out.push(c);
    }
    // "Anna Lee…", not "Anna …".
    out.truncate(out.trim_end().len());
    out.push('…');
    Cow::Owned(out)
}

/// A canvas of palette indices with the few drawing operations a table
/// needs.
struct Painter {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    colours: &'static Colours,
}

impl Painter {
    fn fill(&mut self, x: u32, y: u32, w: u32, h: u32, index: u8) {
        let x1 = (x + w).min(self.width);
        for row in y..(y + h).min(self.height) {
            let start = (row * self.width) as usize;
            self.pixels[start + x as usize..start + x1 as usize].fill(index);
        }
    }

    /// `text` with its pen starting at `x` on `baseline`.
    fn text(&mut self, font: &GlyphCache, text: &str, x: f32, baseline: i32, ink: Ink) {
        let (width, blend, pixels) = (self.width, &self.colours.blend, &mut self.pixels);
        super::text::draw_line(font, text, x, baseline, (width, self.height), |x, y, a| {
            let level = (usize::from(a) * (LEVELS - 1) + 127) / 255;
            let i = (y * width + x) as usize;
            pixels[i] = blend[(usize::from(pixels[i]) * INKS + ink as usize) * LEVELS + level];
        });
    }

    /// `text` cut to `column`'s room and aligned in it.
    fn cell_text(
        &mut self,
        font: &GlyphCache,
        text: &str,
        column: Column,
        align: Align,
        (baseline, ink): (i32, Ink),
    ) {
        let x = (column.x + PAD) as f32;
        self.text_in(font, text, (x, column.room()), align, (baseline, ink));
    }

    /// `text` cut to `room` pixels and aligned in the span from `x`.
    fn text_in(
        &mut self,
        font: &GlyphCache,
        text: &str,
        (x, room): (f32, f32),
        align: Align,
        (baseline, ink): (i32, Ink),
    ) {
        if text.is_empty() {
            return;
        }
        let text = fit(font, text, room);
        let w = font.measure(&text);
        let x = match align {
            Align::Left => x,
            Align::Centre => x + ((room - w) / 2.0).round(),
            Align::Right => x + room - w,
        };
        self.text(font, &text, x, baseline, ink);
    }

    /// The small square that says which colour a player had.
    fn marker(&mut self, x: u32, middle: i32, colour: CellColour) {
        let y = (middle - MARKER as i32 / 2).max(0) as u32;
        let (edge, fill) = match colour {
            CellColour::White => (self.colours.marker_edge, self.colours.page),
            CellColour::Black => (self.colours.marker_edge, self.colours.marker_black),
        };
        self.fill(x, y, MARKER, MARKER, edge);
        self.fill(x + 1, y + 1, MARKER - 2, MARKER - 2, fill);
    }
}

/// Draws `table` into palette indices of [`colours`]'s palette.
fn draw(table: &Crosstable) -> Result<Canvas, RenderError> {
    let f = fonts()?;
    let l = layout(table, f)?;
    let c = colours();
    let mut p = Painter {
        width: l.width,
        height: l.height,
        pixels: vec![c.page; l.width as usize * l.height as usize],
        colours: c,
    };
    let baseline =
        |top: u32, h: u32| (top as f32 + h as f32 / 2.0 + BODY_PX * BASELINE_DROP).round() as i32;
    let (x0, w) = (l.table_x, l.table_w);
    let body_y = l.table_y + HEAD_H;
    let table_bottom = body_y + ROW_H * table.rows.len() as u32;

    // Backgrounds: heading row, zebra rows, result tints.
    p.fill(x0, l.table_y, w, HEAD_H, c.header);
    for (i, row) in table.rows.iter().enumerate() {
        let y = body_y + ROW_H * i as u32;
        if i % 2 == 1 {
            p.fill(x0, y, w, ROW_H, c.zebra);
        }
        for (cell, col) in row.cells.iter().zip(&l.rounds) {
            if let Some((tint, _)) = c.outcome(cell.outcome) {
                p.fill(col.x, y, col.w, ROW_H, tint);
            }
        }
    }

    // Rules: light between columns, darker around the table, under the
    // headings and around the round columns, which group the games.
    let mut edges: Vec<(u32, u8)> = vec![(l.name.x, c.grid)];
    edges.extend(l.level.iter().map(|col| (col.x, c.grid)));
    edges.extend(l.rounds.iter().map(|col| (col.x, c.grid)));
    edges.push((l.score.x, c.grid));
    edges.extend(l.tiebreaks.iter().map(|col| (col.x, c.grid)));
    if let Some(first) = l.rounds.first() {
        edges.push((first.x, c.rule));
        edges.push((l.score.x, c.rule));
    }
    edges.push((x0, c.rule));
    edges.push((x0 + w - 1, c.rule));
    for (x, index) in edges {
        p.fill(x, l.table_y, 1, table_bottom - l.table_y, index);
    }
    p.fill(x0, l.table_y, w, 1, c.rule);
    p.fill(x0, body_y - 1, w, 1, c.rule);
    p.fill(x0, table_bottom - 1, w, 1, c.rule);

    // Text.
    if let Some(b) = l.title {
        let face = f.strong(&table.title, true);
        let title = fit(face, &table.title, w as f32);
        p.text(face, &title, x0 as f32, b, Ink::Text);
    }
    let hb = baseline(l.table_y, HEAD_H);
    let headings = [
        (&table.place_heading, l.place, Align::Centre),
        (&table.name_heading, l.name, Align::Left),
        (&table.score_heading, l.score, Align::Right),
    ];
    for (text, col, align) in headings {
        p.cell_text(f.strong(text, false), text, col, align, (hb, Ink::Head));
    }
    if let Some(col) = l.level {
        let text = &table.level_heading;
        p.cell_text(
            f.strong(text, false),
            text,
            col,
            Align::Left,
            (hb, Ink::Head),
        );
    }
    for (text, &col) in table.round_headings.iter().zip(&l.rounds) {
        p.cell_text(
            f.strong(text, false),
            text,
            col,
            Align::Centre,
            (hb, Ink::Head),
        );
    }
    for (text, &col) in table.tiebreak_headings.iter().zip(&l.tiebreaks) {
        p.cell_text(
            f.strong(text, false),
            text,
            col,
            Align::Right,
            (hb, Ink::Head),
        );
    }

    let gap = if l.opponent_w > 0 { RESULT_GAP } else { 0 };
    let composite = l.marker_w + l.opponent_w + gap + l.result_w;
    for (i, row) in table.rows.iter().enumerate() {
        let y = body_y + ROW_H * i as u32;
        let b = baseline(y, ROW_H);
        let (ink, soft) = if row.withdrawn {
            (Ink::Dim, Ink::Dim)
        } else {
            (Ink::Text, Ink::Soft)
        };
        p.cell_text(&f.body, &row.place, l.place, Align::Centre, (b, ink));
        p.cell_text(&f.body, &row.name, l.name, Align::Left, (b, ink));
        if let Some(col) = l.level {
            p.cell_text(&f.body, &row.level, col, Align::Left, (b, soft));
        }
        for (cell, &col) in row.cells.iter().zip(&l.rounds) {
            let result_ink = match (row.withdrawn, c.outcome(cell.outcome)) {
                (true, _) => Ink::Dim,
                (false, Some((_, ink))) => ink,
                (false, None) => Ink::Soft,
            };
            if !paired(cell) {
                p.cell_text(&f.body, &cell.result, col, Align::Centre, (b, result_ink));
                continue;
            }
            // Marker, opponent (right-aligned), result (centred): the same
            // places in every cell, the group centred in the column.
            let start = col.x + (col.w - composite) / 2;
            if let Some(colour) = cell.colour {
                let middle = b - (BODY_PX * BASELINE_DROP).round() as i32;
                p.marker(start, middle, colour);
            }
            let opponent_x = start + l.marker_w;
            let span = (opponent_x as f32, l.opponent_w as f32);
            p.text_in(&f.body, &cell.opponent, span, Align::Right, (b, ink));
            let span = ((opponent_x + l.opponent_w + gap) as f32, l.result_w as f32);
            let face = f.strong(&cell.result, false);
            p.text_in(face, &cell.result, span, Align::Centre, (b, result_ink));
        }
        p.cell_text(
            f.strong(&row.score, false),
            &row.score,
            l.score,
            Align::Right,
            (b, ink),
        );
        for (text, &col) in row.tiebreaks.iter().zip(&l.tiebreaks) {
            p.cell_text(&f.body, text, col, Align::Right, (b, ink));
        }
    }
    if let Some(b) = l.footer {
        let footer = fit(&f.small, &table.footer, w as f32);
        p.text(&f.small, &footer, x0 as f32, b, Ink::Soft);
    }

    Ok(Canvas {
        width: p.width,
        height: p.height,
        pixels: p.pixels,
        layout: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decoded image, RGB.
    struct Image {
        width: u32,
        height: u32,
        rgb: Vec<u8>,
    }

    impl Image {
        fn decode(bytes: &[u8]) -> Image {
            let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
            decoder.set_transformations(::png::Transformations::EXPAND);
            let mut reader = decoder.read_info().expect("png header");
            let mut buf = vec![0; reader.output_buffer_size().expect("a decodable size")];
            let info = reader.next_frame(&mut buf).expect("png data");
            assert_eq!(info.color_type, ::png::ColorType::Rgb);
            buf.truncate(info.buffer_size());
            Image {
                width: info.width,
                height: info.height,
                rgb: buf,
            }
        }

        /// Pixels of `x0..x1 × y0..y1` darker than mid-grey.
        fn dark(&self, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> usize {
            let mut n = 0;
            for y in y0..y1.min(self.height) {
                for x in x0..x1.min(self.width) {
                    let i = ((y * self.width + x) * 3) as usize;
                    let p = &self.rgb[i..i + 3];
                    if p.iter().map(|&v| u32::from(v)).sum::<u32>() < 3 * 110 {
                        n += 1;
                    }
                }
            }
            n
        }

        /// The pixels of a region, to compare two images' regions.
        fn region(&self, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> Vec<u8> {
            let mut out = Vec::new();
            for y in y0..y1 {
                let i = ((y * self.width + x0) * 3) as usize;
                out.extend_from_slice(&self.rgb[i..i + 3 * (x1 - x0) as usize]);
            }
            out
        }
    }

    fn cell(opponent: usize, colour: CellColour, outcome: CellOutcome) -> CrossCell {
        let result = match outcome {
            CellOutcome::Win => "1",
            CellOutcome::Draw => "½",
            CellOutcome::Loss => "0",
            CellOutcome::Pending => "…",
            CellOutcome::Unplayed => "−",
        };
        CrossCell {
            opponent: opponent.to_string(),
            colour: Some(colour),
            result: result.into(),
            outcome,
        }
    }

    /// `players` rows of `rounds` games each, with made-up but plausible
    /// results, in English.
    fn table(players: usize, rounds: usize) -> Crosstable {
        let outcomes = [CellOutcome::Win, CellOutcome::Draw, CellOutcome::Loss];
        let rows = (0..players)
            .map(|i| CrossRow {
                place: (i + 1).to_string(),
                name: format!("Player {}", i + 1),
                level: format!("Level {}", 30 - i % 30),
                cells: (0..rounds)
                    .map(|r| {
                        let colour = if (i + r) % 2 == 0 {
                            CellColour::White
                        } else {
                            CellColour::Black
                        };
                        cell((i + r + 1) % players + 1, colour, outcomes[(i + r) % 3])
                    })
                    .collect(),
                score: format!("{}½", rounds / 2),
                tiebreaks: vec!["12½".into(), "30".into(), "4".into()],
                withdrawn: false,
            })
            .collect();
        Crosstable {
            title: "Club Swiss".into(),
            place_heading: "#".into(),
            name_heading: "Name".into(),
            level_heading: "Level".into(),
            score_heading: "Pts".into(),
            round_headings: (1..=rounds).map(|r| r.to_string()).collect(),
            tiebreak_headings: vec!["SB".into(), "BH".into(), "W".into()],
            rows,
            footer: String::new(),
        }
    }

    #[test]
    fn planned_colours_are_exact_palette_entries() {
        let planned = planned_colours();
        let c = colours();
        let mut distinct = planned.clone();
        distinct.sort_by_key(|c| (c.0, c.1, c.2));
        distinct.dedup();
        assert!(distinct.len() <= super::super::palette::COLORS);
        assert_eq!(c.palette.len(), distinct.len());
        for rgb in planned {
            assert_eq!(c.palette.color(c.palette.nearest_exact(rgb)), rgb);
        }
        // Text over its backgrounds lands on the planned blend exactly.
        for (bg, inks) in COMBOS {
            let under = usize::from(c.palette.nearest_exact(bg));
            for &ink in inks {
                for level in 0..LEVELS {
                    let got = c.blend[(under * INKS + ink as usize) * LEVELS + level];
                    let want = bg.blend(INK_RGB[ink as usize], coverage(level));
                    assert_eq!(c.palette.color(got), want, "{bg:?} {ink:?} {level}");
                }
            }
        }
    }

    #[test]
    fn the_png_decodes_and_grows_with_the_rounds() {
        let five = Image::decode(&crosstable_png(&table(8, 5)).expect("png"));
        let nine = Image::decode(&crosstable_png(&table(8, 9)).expect("png"));
        assert_eq!(five.height, nine.height);
        // Round columns share one width: four more rounds, four more of it.
        let grown = nine.width - five.width;
        assert!(grown >= 4 * 40 && grown.is_multiple_of(4), "{grown}");
        let l = layout(&table(8, 5), fonts().expect("fonts")).expect("layout");
        assert_eq!((l.width, l.height), (five.width, five.height));
        assert_eq!(l.rounds.len(), 5);
        assert_eq!(l.tiebreaks.len(), 3);
        // Eight rows: a row's ink is in its name cell.
        let y = l.table_y + HEAD_H + 7 * ROW_H;
        let name = (l.name.x, l.name.x + l.name.w);
        assert!(five.dark(name, (y, y + ROW_H)) > 30);
        assert_eq!(five.dark(name, (y + ROW_H, l.height)), 0, "nothing below");
    }

    #[test]
    fn result_cells_are_tinted_by_outcome() {
        let mut t = table(2, 3);
        t.rows[0].cells = vec![
            cell(2, CellColour::White, CellOutcome::Win),
            cell(2, CellColour::Black, CellOutcome::Draw),
            cell(2, CellColour::White, CellOutcome::Loss),
        ];
        let canvas = draw(&t).expect("canvas");
        let l = layout(&t, fonts().expect("fonts")).expect("layout");
        let c = colours();
        let y = l.table_y + HEAD_H + 2;
        for (col, tint) in l.rounds.iter().zip([c.win, c.draw, c.loss]) {
            let i = (y * canvas.width + col.x + 3) as usize;
            assert_eq!(canvas.pixels[i], tint);
        }
    }

    #[test]
    fn an_empty_table_still_shows_its_headings() {
        let mut t = table(0, 4);
        t.footer = "Tie-breaks: SB, BH, W".into();
        let png = crosstable_png(&t).expect("png");
        let img = Image::decode(&png);
        let l = layout(&t, fonts().expect("fonts")).expect("layout");
        assert_eq!(l.rounds.len(), 4);
        assert!(img.height > l.table_y + HEAD_H);
        let heading_row = (l.table_y, l.table_y + HEAD_H);
        assert!(img.dark((l.name.x, l.name.x + l.name.w), heading_row) > 20);
        for col in &l.rounds {
            assert!(img.dark((col.x, col.x + col.w), heading_row) > 5);
        }
        // Without title or footer or even headings, still an image.
        let bare = Crosstable {
            title: String::new(),
            place_heading: String::new(),
            name_heading: String::new(),
            level_heading: String::new(),
            score_heading: String::new(),
            round_headings: Vec::new(),
            tiebreak_headings: Vec::new(),
            rows: Vec::new(),
            footer: String::new(),
        };
        let img = Image::decode(&crosstable_png(&bare).expect("png"));
        assert!(img.width > 2 * MARGIN && img.height > 2 * MARGIN);
    }

    fn chinese(name: &str) -> Crosstable {
        let mut t = table(3, 3);
        t.title = "俱乐部积分编排赛 — 第3轮后".into();
        t.place_heading = "名次".into();
        t.name_heading = "姓名".into();
        t.level_heading = "级别".into();
        t.score_heading = "积分".into();
        t.round_headings = (1..=3).map(|r| format!("第{r}轮")).collect();
        t.tiebreak_headings = vec!["小分".into(), "对手分".into(), "胜局".into()];
        t.rows[0].name = name.into();
        t.rows[0].level = "3级".into();
        t.rows[1].name = "李娜".into();
        t.rows[1].level = "无级别".into();
        t
    }

    #[test]
    fn chinese_text_is_drawn_with_real_glyphs() {
        let t = chinese("张伟");
        let img = Image::decode(&crosstable_png(&t).expect("png"));
        let l = layout(&t, fonts().expect("fonts")).expect("layout");
        let f = fonts().expect("fonts");
        for c in "张伟李娜级无别小分对手第轮".chars() {
            assert!(f.body.has_glyph(c) && f.bold.has_glyph(c), "{c}");
        }
        let name = (l.name.x, l.name.x + l.name.w);
        let first = (l.table_y + HEAD_H, l.table_y + HEAD_H + ROW_H);
        assert!(img.dark(name, first) > 40, "the name cell is inked");
        // Different characters, different ink (missing-glyph boxes would
        // all look alike).
        let other = Image::decode(&crosstable_png(&chinese("王芳")).expect("png"));
        assert_eq!((other.width, other.height), (img.width, img.height));
        assert_ne!(img.region(name, first), other.region(name, first));
        // "对手分" is wider than the values under it: the heading sized
        // its column.
        let heading = f.strong("对手分", false).measure("对手分");
        assert!(l.tiebreaks[1].room() >= heading);
        // Headings with Chinese are set in one weight, not bold digits
        // between regular characters.
        assert!(std::ptr::eq(f.strong("第1轮", false), &f.body));
        assert!(std::ptr::eq(f.strong("R1", false), &f.bold));
        assert!(std::ptr::eq(f.strong(&t.title, true), &f.title_regular));
    }

    #[test]
    fn long_names_are_cut_with_an_ellipsis() {
        let f = fonts().expect("fonts");
        let long = "Bartholomew Maximilian Featherstonehaugh-Cholmondeley the Third";
        let cut = fit(&f.body, long, NAME_MAX);
        assert!(cut.ends_with('…') && cut.len() < long.len(), "{cut}");
        assert!(f.body.measure(&cut) <= NAME_MAX);
        assert_eq!(fit(&f.body, "Anna", NAME_MAX), "Anna");
        // The name column stops growing at its cap, whatever the name.
        let mut a = table(4, 3);
        a.rows[2].name = long.into();
        let mut b = a.clone();
        b.rows[2].name = long.repeat(50);
        let (la, lb) = (layout(&a, f).expect("a"), layout(&b, f).expect("b"));
        assert_eq!(la.name.w, column_w(NAME_MAX));
        assert_eq!(la.width, lb.width);
        let img = Image::decode(&crosstable_png(&b).expect("png"));
        assert_eq!(img.width, lb.width);
        // A long title is cut to the image, not widening it without end.
        let mut c = table(4, 3);
        c.title = long.repeat(20);
        let lc = layout(&c, f).expect("c");
        assert!(lc.width <= TEXT_MIN_ROOM as u32 + 2 * MARGIN);
        crosstable_png(&c).expect("png");
    }

    #[test]
    fn ragged_rows_and_byes_render() {
        let mut t = table(4, 3);
        t.rows[0].cells.truncate(1);
        t.rows[1].cells.push(CrossCell {
            opponent: String::new(),
            colour: None,
            result: "bye".into(),
            outcome: CellOutcome::Win,
        });
        t.rows[2].tiebreaks.clear();
        t.rows[3].withdrawn = true;
        let l = layout(&t, fonts().expect("fonts")).expect("layout");
        assert_eq!(l.rounds.len(), 4, "the longest row adds a column");
        Image::decode(&crosstable_png(&t).expect("png"));
    }

    #[test]
    fn oversized_tables_are_refused() {
        let too_long = table(MAX_ROWS + 1, 1);
        assert!(matches!(
            crosstable_png(&too_long),
            Err(RenderError::TableTooLarge { rows, .. }) if rows == MAX_ROWS + 1
        ));
        let too_wide = table(2, MAX_COLUMNS);
        assert!(matches!(
            crosstable_png(&too_wide),
            Err(RenderError::TableTooLarge { columns, .. }) if columns == MAX_COLUMNS + 3
        ));
    }
}
