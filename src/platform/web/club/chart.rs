//! Charts drawn in the page as SVG (no script, no image request): a
//! player's points over time with each level as a band, and an analysed
//! game's advantage with a link on every position.

use std::fmt::Write;

use super::super::pages::escape;
use crate::{
    i18n::Lang,
    rating::{Level, Points},
    t,
};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 240.0;
/// Room on the left for the level names.
const LEFT: f64 = 64.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 8.0;

/// Points (hundredths) over time, `(unix ms, points)` in order: one line,
/// and behind it a band per level (100 points each) it crosses, named.
pub(super) fn points_svg(lang: Lang, series: &[(i64, i64)]) -> String {
    let low = series.iter().map(|p| p.1).min().unwrap_or(0);
    let high = series.iter().map(|p| p.1).max().unwrap_or(0);
    // Whole levels around the line: 100 points = 10,000 hundredths.
    let band = 10_000;
    let bottom = low.div_euclid(band) * band;
    let top = (high.div_euclid(band) + 1) * band;
    let span = (top - bottom) as f64;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let y = |p: i64| TOP + plot_h * (1.0 - (p - bottom) as f64 / span);
    let n = series.len().max(2) - 1;
    let x = |i: usize| LEFT + (WIDTH - LEFT - 4.0) * i as f64 / n as f64;
    let mut svg = format!(
        "<svg class=\"chart points\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{label}\">",
        label = escape(&t!(
            lang,
            "web-points-chart-label",
            first = Points::from_hundredths(series[0].1).to_string(),
            last = Points::from_hundredths(series[series.len() - 1].1).to_string(),
            count = series.len() - 1
        ))
    );
    let mut start = bottom;
    let mut shade = (bottom.div_euclid(band)) % 2 == 0;
    while start < top {
        let name = Level::from_points(Points::from_hundredths(start)).name(lang);
        let _ = write!(
            svg,
            "<rect class=\"band{odd}\" x=\"{LEFT}\" y=\"{y1:.1}\" width=\"{w:.1}\" height=\"{h:.1}\"/>\
<text class=\"band-name\" x=\"{tx:.1}\" y=\"{ty:.1}\">{name}</text>",
            odd = if shade { " odd" } else { "" },
            y1 = y(start + band),
            w = WIDTH - LEFT,
            h = y(start) - y(start + band),
            tx = LEFT - 6.0,
            ty = (y(start) + y(start + band)) / 2.0 + 4.0,
            name = escape(&name),
        );
        shade = !shade;
        start += band;
    }
    let points: Vec<String> = series
        .iter()
        .enumerate()
        .map(|(i, &(_, p))| format!("{:.1},{:.1}", x(i), y(p)))
        .collect();
    let _ = write!(
        svg,
        "<polyline class=\"line\" points=\"{}\"/>",
        points.join(" ")
    );
    svg.push_str("</svg>");
    svg
}

/// An analysed game's evaluation per position (White's view, pawns,
/// within ±10): the light area below the curve is White's share. Each position is a
/// link to the viewer at that position (`href(ply)`); `current` is marked.
pub(super) fn advantage_svg(
    lang: Lang,
    pawns: &[f64],
    marks: &[(usize, &'static str)],
    current: usize,
    href: impl Fn(usize) -> String,
) -> String {
    let left = 4.0;
    let plot_w = WIDTH - 2.0 * left;
    let mid = HEIGHT / 2.0;
    let n = pawns.len().max(2) - 1;
    let x = |i: usize| left + plot_w * i as f64 / n as f64;
    let y = |p: f64| mid - (p.clamp(-10.0, 10.0) / 10.0) * (mid - TOP);
    let mut svg = format!(
        "<svg class=\"chart advantage\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(&t!(lang, "web-advantage-label", count = pawns.len().saturating_sub(1)))
    );
    // White's share: from the bottom edge up to the curve (an even game
    // fills half the height), Black's the dark rest above it.
    let mut area = format!("M{:.1},{HEIGHT:.1}", x(0));
    for (i, &p) in pawns.iter().enumerate() {
        let _ = write!(area, " L{:.1},{:.1}", x(i), y(p));
    }
    let _ = write!(
        area,
        " L{:.1},{HEIGHT:.1} Z",
        x(pawns.len().saturating_sub(1))
    );
    let _ = write!(
        svg,
        "<rect class=\"black-side\" x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\"/>\
<path class=\"white-side\" d=\"{area}\"/><line class=\"mid\" x1=\"0\" y1=\"{mid}\" x2=\"{WIDTH}\" y2=\"{mid}\"/>"
    );
    for &(ply, nag) in marks {
        let class = match nag {
            "??" => "blunder",
            "?" => "mistake",
            _ => "inaccuracy",
        };
        if let Some(&p) = pawns.get(ply) {
            let _ = write!(
                svg,
                "<circle class=\"mark {class}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\"/>",
                x(ply),
                y(p)
            );
        }
    }
    // One link per position: a column as wide as a step, the whole height.
    let step = plot_w / n as f64;
    for (i, &p) in pawns.iter().enumerate() {
        let here = if i == current { " current" } else { "" };
        let _ = write!(
            svg,
            "<a href=\"{href}\" data-ply=\"{i}\"><title>{title}</title>\
<rect class=\"hit{here}\" x=\"{:.1}\" y=\"0\" width=\"{step:.1}\" height=\"{HEIGHT}\"/></a>",
            x(i) - step / 2.0,
            href = escape(&href(i)),
            title = escape(&format!("{p:+.1}")),
        );
    }
    svg.push_str("</svg>");
    svg
}
