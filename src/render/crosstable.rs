//! The crosstable of a tournament as a PNG (placeholder drawing until the
//! full renderer lands: a plain SVG table).

use std::fmt::Write as _;

use super::{chart::svg_to_png, fonts::escape, RenderError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossCell {
    pub opponent: String,
    pub colour: Option<CellColour>,
    pub result: String,
    pub outcome: CellOutcome,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellColour {
    White,
    Black,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellOutcome {
    Win,
    Draw,
    Loss,
    Pending,
    Unplayed,
}
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossRow {
    pub place: String,
    pub name: String,
    pub level: String,
    pub cells: Vec<CrossCell>,
    pub score: String,
    pub tiebreaks: Vec<String>,
    pub withdrawn: bool,
}
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    pub title: String,
    pub place_heading: String,
    pub name_heading: String,
    pub level_heading: String,
    pub score_heading: String,
    pub round_headings: Vec<String>,
    pub tiebreak_headings: Vec<String>,
    pub rows: Vec<CrossRow>,
    pub footer: String,
}

/// Renders the crosstable as a PNG.
pub fn crosstable_png(table: &Crosstable) -> Result<Vec<u8>, RenderError> {
    let cols = 4 + table.round_headings.len() + table.tiebreak_headings.len();
    let width = (cols as u32 * 60 + 160).min(4000);
    let height = (table.rows.len() as u32 + 3) * 24;
    let mut svg = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}'>\
         <rect width='100%' height='100%' fill='#fff'/>"
    );
    let mut line = |y: u32, cells: Vec<String>| {
        let mut x = 8;
        for (i, c) in cells.iter().enumerate() {
            let _ = write!(
                svg,
                "<text x='{x}' y='{y}' font-family='DejaVu Sans' font-size='13'>{}</text>",
                escape(c)
            );
            x += if i == 1 { 220 } else { 60 };
        }
    };
    line(20, vec![table.title.clone()]);
    let mut head = vec![
        table.place_heading.clone(),
        table.name_heading.clone(),
        table.level_heading.clone(),
    ];
    head.extend(table.round_headings.iter().cloned());
    head.push(table.score_heading.clone());
    head.extend(table.tiebreak_headings.iter().cloned());
    line(44, head);
    for (i, r) in table.rows.iter().enumerate() {
        let mut cells = vec![r.place.clone(), r.name.clone(), r.level.clone()];
        cells.extend(
            r.cells
                .iter()
                .map(|c| format!("{}{}", c.opponent, c.result)),
        );
        cells.push(r.score.clone());
        cells.extend(r.tiebreaks.iter().cloned());
        line(68 + i as u32 * 24, cells);
    }
    svg.push_str("</svg>");
    svg_to_png(&svg, width, height)
}
