//! The advantage chart of an analysed game: the engine's evaluation after
//! every move (White's view, in pawns, clipped to ±10 — a mate counts as
//! the clip), White's advantage shaded above the middle line and Black's
//! below, with the inaccuracies, mistakes and blunders marked. Drawn as
//! SVG and rasterised like the profile chart ([`super::chart`]).

use std::fmt::Write as _;

use super::{chart::svg_to_png, fonts, RenderError};

pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 300;
/// Evaluations beyond this many pawns are drawn at the edge.
pub const CLIP_PAWNS: f64 = 10.0;

const LEFT: f64 = 40.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 30.0;

/// The fill of White's share of the chart (Black's is the dark background).
const WHITE_SHARE: &str = "#f4f4f4";

/// How bad a marked move was (colours follow lichess: yellow, orange, red).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    fn colour(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "#e6b800",
            Mark::Mistake => "#e67300",
            Mark::Blunder => "#d62828",
        }
    }
}

/// A PNG chart of `pawns` (one value per position: before the first move,
/// then after each; White's view) titled `title`, with `marks` at the
/// positions (indexes into `pawns`) reached by a bad move.
pub fn advantage_chart(
    pawns: &[f64],
    marks: &[(usize, Mark)],
    title: &str,
) -> Result<Vec<u8>, RenderError> {
    svg_to_png(&chart_svg(pawns, marks, title), WIDTH, HEIGHT)
}

fn chart_svg(pawns: &[f64], marks: &[(usize, Mark)], title: &str) -> String {
    let (w, h) = (f64::from(WIDTH), f64::from(HEIGHT));
    let (pw, ph) = (w - LEFT - RIGHT, h - TOP - BOTTOM);
    let font = fonts::FAMILY;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><rect width="{w}" height="{h}" fill="#ffffff"/><text x="{LEFT}" y="26" font-family="{font}" font-weight="bold" font-size="16" fill="#222222">{t}</text>"##,
        t = fonts::escape(title)
    );
    let n = pawns.len().max(2) - 1;
    let x_of = |i: usize| LEFT + i as f64 / n as f64 * pw;
    let y_of = |v: f64| {
        let v = if v.is_finite() { v } else { 0.0 };
        TOP + (CLIP_PAWNS - v.clamp(-CLIP_PAWNS, CLIP_PAWNS)) / (2.0 * CLIP_PAWNS) * ph
    };
    // White's share light, from the bottom edge up to the line, Black's the
    // dark rest above it (as lichess and the club pages' chart draw it): a
    // game White dominates is mostly light, an even one half and half.
    let _ = write!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="#3a3a3a"/>"##
    );
    let bottom = TOP + ph;
    if !pawns.is_empty() {
        let mut area = format!("M{:.1},{:.1}", x_of(0), bottom);
        for (i, v) in pawns.iter().enumerate() {
            let _ = write!(area, " L{:.1},{:.1}", x_of(i), y_of(*v));
        }
        if pawns.len() == 1 {
            let _ = write!(area, " L{:.1},{:.1}", x_of(n), y_of(pawns[0]));
        }
        let _ = write!(area, " L{:.1},{:.1} Z", x_of(n), bottom);
        let _ = write!(s, r##"<path d="{area}" fill="{WHITE_SHARE}"/>"##);
    }
    // Grid: the middle line and every 5 pawns, labelled.
    for v in [-10.0, -5.0, 0.0, 5.0, 10.0] {
        let y = y_of(v);
        let (stroke, width) = if v == 0.0 {
            ("#888888", 1.5)
        } else {
            ("#b0b0b0", 0.6)
        };
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{x2}" y2="{y:.1}" stroke="{stroke}" stroke-width="{width}"/><text x="{tx}" y="{ty:.1}" font-family="{font}" font-size="11" fill="#555555" text-anchor="end">{label}</text>"##,
            x2 = LEFT + pw,
            tx = LEFT - 6.0,
            ty = y + 4.0,
            label = if v > 0.0 {
                format!("+{v}")
            } else {
                format!("{v}")
            }
        );
    }
    // Move numbers along the bottom.
    let plies = pawns.len().saturating_sub(1);
    let step = (super::chart::nice_step(plies.max(1) as f64 / 2.0, 6.0).max(1.0) * 2.0) as usize;
    let mut ply = 0;
    while ply <= plies {
        let _ = write!(
            s,
            r##"<text x="{x:.1}" y="{y}" font-family="{font}" font-size="11" fill="#555555" text-anchor="middle">{m}</text>"##,
            x = x_of(ply),
            y = h - BOTTOM + 18.0,
            m = ply / 2 + 1
        );
        ply += step;
    }
    // The evaluation line.
    if pawns.len() > 1 {
        let line: Vec<String> = pawns
            .iter()
            .enumerate()
            .map(|(i, v)| format!("{:.1},{:.1}", x_of(i), y_of(*v)))
            .collect();
        let _ = write!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#2f6fbf" stroke-width="2" stroke-linejoin="round"/>"##,
            line.join(" ")
        );
    }
    for &(i, mark) in marks {
        let Some(v) = pawns.get(i) else { continue };
        let _ = write!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="4.5" fill="{}" stroke="#ffffff" stroke-width="1.5"/>"##,
            x_of(i),
            y_of(*v),
            mark.colour()
        );
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_a_png_with_marks() {
        let pawns = [0.2, 0.3, 0.1, 4.0, 3.8, 25.0, f64::NAN];
        let png = advantage_chart(&pawns, &[(3, Mark::Blunder), (9, Mark::Mistake)], "Game #1")
            .expect("chart");
        assert_eq!(&png[1..4], b"PNG");
        let svg = chart_svg(&pawns, &[(3, Mark::Blunder)], "t");
        assert!(svg.contains("#d62828"), "the blunder is marked");
    }

    #[test]
    fn clipped_to_ten_pawns() {
        let svg = chart_svg(&[0.0, 50.0, -50.0], &[], "t");
        // +50 is drawn at the top edge (y = TOP), −50 at the bottom.
        assert!(svg.contains(&format!(
            "{:.1},{:.1}",
            LEFT + (WIDTH as f64 - LEFT - RIGHT) / 2.0,
            TOP
        )));
    }

    #[test]
    fn whites_share_is_the_light_area_below_the_line() {
        let svg = chart_svg(&[0.0, 10.0], &[], "t");
        let bottom = HEIGHT as f64 - BOTTOM;
        let right = WIDTH as f64 - RIGHT;
        // From the bottom edge up to the line (at the middle, then the top
        // edge for +10) and back down: White's share, light.
        let area = format!(
            "<path d=\"M{LEFT:.1},{bottom:.1} L{LEFT:.1},{mid:.1} L{right:.1},{TOP:.1} L{right:.1},{bottom:.1} Z\" fill=\"{WHITE_SHARE}\"/>",
            mid = (TOP + bottom) / 2.0,
        );
        assert!(svg.contains(&area), "{svg}");
    }

    #[test]
    fn empty_and_single() {
        assert!(advantage_chart(&[], &[], "none").is_ok());
        assert!(advantage_chart(&[0.3], &[(0, Mark::Inaccuracy)], "one").is_ok());
    }
}
