//! A points-over-time line chart for player profiles, drawn as SVG and
//! rasterised with resvg and the bundled DejaVu Sans font.

use std::fmt::Write as _;

use resvg::tiny_skia::Transform;

use super::{fonts, RenderError};
use crate::{i18n::Lang, t};

/// Chart width in pixels.
pub const WIDTH: u32 = 640;
/// Chart height in pixels.
pub const HEIGHT: u32 = 320;

const LEFT: f64 = 64.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 36.0;
/// Room between the plot's frame and its first and last points.
const INSET: f64 = 12.0;

/// A PNG line chart of `points` — `(unix time in ms, points in hundredths)`,
/// in any order — titled `title`. Bands of 100 points (one club level) are
/// shaded alternately and named in `lang` (`Level 30` / `30级`). With no
/// data it says so.
pub fn points_chart(
    points: &[(i64, i64)],
    title: &str,
    lang: Lang,
) -> Result<Vec<u8>, RenderError> {
    let svg = chart_svg(points, title, lang);
    svg_to_png(&svg, WIDTH, HEIGHT)
}

/// Rasterises a chart's SVG (opaque background) and encodes it as PNG.
pub(super) fn svg_to_png(svg: &str, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
    let tree = fonts::parse(svg)?;
    let pixmap = fonts::rasterize(&tree, Transform::identity(), width, height)?;
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| RenderError::Internal(format!("png: {e}")))?;
        // The chart background is opaque, so premultiplied equals straight.
        writer
            .write_image_data(pixmap.data())
            .map_err(|e| RenderError::Internal(format!("png: {e}")))?;
        writer
            .finish()
            .map_err(|e| RenderError::Internal(format!("png: {e}")))?;
    }
    Ok(out)
}

/// A "nice" tick step (1, 2 or 5 × 10^k) giving about `ticks` ticks over `span`.
pub(super) fn nice_step(span: f64, ticks: f64) -> f64 {
    let raw = (span / ticks).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// The level bands over `lo..hi` points: `(from, to, name, shaded)`, each
/// clipped to the range, lowest first; levels alternate shading.
fn level_bands(lo: f64, hi: f64, lang: Lang) -> Vec<(f64, f64, String, bool)> {
    use crate::rating::{Level, Points};
    let mut out = Vec::new();
    // Boundaries: 100, 200, …, 3000.
    let mut from = lo;
    let mut boundary = 100.0_f64.max((lo / 100.0).floor() * 100.0 + 100.0);
    loop {
        let to = if boundary <= 3000.0 {
            boundary.min(hi)
        } else {
            hi
        };
        let level = Level::from_points(Points::from_hundredths((from * 100.0) as i64));
        let shaded = match level.number() {
            None => false,
            Some(n) => n % 2 == 0,
        };
        if to > from {
            out.push((from, to, level.name(lang), shaded));
        }
        if to >= hi || boundary > 3000.0 {
            break;
        }
        from = to;
        boundary += 100.0;
    }
    out
}

/// `YYYY-MM-DD` of a unix time in ms (proleptic Gregorian, UTC).
fn date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Points (hundredths) as text: `107.5`, `2.08`, `150`, `-10`.
fn show_points(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_owned()
    }
}

fn chart_svg(points: &[(i64, i64)], title: &str, lang: Lang) -> String {
    let (w, h) = (f64::from(WIDTH), f64::from(HEIGHT));
    let (pw, ph) = (w - LEFT - RIGHT, h - TOP - BOTTOM);
    let font = fonts::FAMILY;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><rect width="{w}" height="{h}" fill="#ffffff"/><text x="{LEFT}" y="26" font-family="{font}" font-weight="bold" font-size="17" fill="#222222">{t}</text>"##,
        t = fonts::escape(title)
    );
    let mut pts: Vec<(i64, i64)> = points.to_vec();
    pts.sort_by_key(|p| p.0);
    if pts.is_empty() {
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}" font-family="{font}" font-size="15" fill="#777777" text-anchor="middle">{empty}</text></svg>"##,
            x = w / 2.0,
            y = h / 2.0,
            empty = fonts::escape(&t!(lang, "chart-no-games"))
        );
        return s;
    }

    // Value range in points, padded and widened to whole steps.
    let vals: Vec<f64> = pts.iter().map(|p| p.1 as f64 / 100.0).collect();
    let (mut lo, mut hi) = vals
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    if hi - lo < 20.0 {
        let mid = (hi + lo) / 2.0;
        lo = mid - 10.0;
        hi = mid + 10.0;
    }
    let step = nice_step(hi - lo, 5.0);
    lo = (lo / step).floor() * step;
    hi = (hi / step).ceil() * step;
    let (t0, mut t1) = (pts[0].0, pts[pts.len() - 1].0);
    if t1 == t0 {
        t1 = t0.saturating_add(86_400_000);
    }
    // In f64: any i64 timestamps, no overflow.
    let span = t1 as f64 - t0 as f64;
    // Points keep clear of the frame: the first and last sit `INSET` inside
    // it, so the last one (the current value) is never cut at the edge.
    let x_of = |t: i64| LEFT + INSET + (t as f64 - t0 as f64) / span * (pw - 2.0 * INSET);
    let y_of = |v: f64| TOP + (hi - v) / (hi - lo) * ph;

    // Level bands (每100分一级): each level's range shaded alternately and
    // named at the right, its lower boundary drawn dashed. Everything below
    // 100 is one band (Unranked); 3000 and up is Level 1.
    if hi - lo <= 4000.0 {
        for (b0, b1, name, shaded) in level_bands(lo, hi, lang) {
            let (y0, y1) = (y_of(b0), y_of(b1));
            if shaded {
                let _ = write!(
                    s,
                    r##"<rect x="{LEFT}" y="{y1}" width="{pw}" height="{bh}" fill="#eef2f7"/>"##,
                    bh = y0 - y1
                );
            }
            if b0 > lo {
                let _ = write!(
                    s,
                    r##"<line x1="{LEFT}" y1="{y0}" x2="{x2}" y2="{y0}" stroke="#9fb3c8" stroke-width="1" stroke-dasharray="4 3"/>"##,
                    x2 = LEFT + pw
                );
            }
            // A name only where the band is tall enough to hold it.
            if y0 - y1 >= 14.0 {
                let _ = write!(
                    s,
                    r##"<text x="{x}" y="{y}" font-family="{font}" font-size="10" fill="#8496a9" text-anchor="end">{name}</text>"##,
                    x = LEFT + pw - 4.0,
                    y = y0 - 4.0
                );
            }
        }
    }
    // Horizontal grid and value labels.
    let mut v = lo;
    while v <= hi + step / 2.0 {
        let y = y_of(v);
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" y1="{y}" x2="{x2}" y2="{y}" stroke="#dde2e8" stroke-width="1"/><text x="{tx}" y="{ty}" font-family="{font}" font-size="12" fill="#555555" text-anchor="end">{label}</text>"##,
            x2 = LEFT + pw,
            tx = LEFT - 8.0,
            ty = y + 4.0,
            label = show_points(v)
        );
        v += step;
    }
    // Date labels: first, last and up to three between, each date once
    // (games a few hours apart would otherwise repeat the same day).
    let n_ticks = 4;
    let mut shown: Vec<String> = Vec::new();
    for i in 0..=n_ticks {
        let t = (t0 as f64 + span * i as f64 / n_ticks as f64) as i64;
        let d = date(t);
        if shown.contains(&d) {
            continue;
        }
        shown.push(d.clone());
        let anchor = match i {
            0 => "start",
            i if i == n_ticks => "end",
            _ => "middle",
        };
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}" font-family="{font}" font-size="12" fill="#555555" text-anchor="{anchor}">{d}</text>"##,
            x = x_of(t),
            y = h - BOTTOM + 20.0,
        );
    }
    // Axes.
    let _ = write!(
        s,
        r##"<path d="M{LEFT} {TOP} V{yb} H{xr}" fill="none" stroke="#888888" stroke-width="1"/>"##,
        yb = TOP + ph,
        xr = LEFT + pw
    );
    // The line (a step at each game would be exact, a line reads better).
    let coords: Vec<String> = pts
        .iter()
        .map(|&(t, p)| format!("{:.1},{:.1}", x_of(t), y_of(p as f64 / 100.0)))
        .collect();
    let line = if coords.len() == 1 {
        // One game: a flat line across.
        format!(
            "{LEFT:.1},{y:.1} {x:.1},{y:.1}",
            y = y_of(vals[0]),
            x = LEFT + pw
        )
    } else {
        coords.join(" ")
    };
    let _ = write!(
        s,
        r##"<polyline points="{line}" fill="none" stroke="#2f6fbf" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"/>"##
    );
    if pts.len() <= 40 {
        for &(t, p) in &pts {
            let _ = write!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="3.2" fill="#2f6fbf" stroke="#ffffff" stroke-width="1.2"/>"##,
                x_of(t),
                y_of(p as f64 / 100.0)
            );
        }
    }
    // Current value, top right.
    let last = vals[vals.len() - 1];
    let _ = write!(
        s,
        r##"<text x="{x}" y="26" font-family="{font}" font-weight="bold" font-size="15" fill="#2f6fbf" text-anchor="end">{v}</text></svg>"##,
        x = w - RIGHT,
        v = show_points(last)
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(1_700_000_000_000), "2023-11-14");
        assert_eq!(date(-86_400_000), "1969-12-31");
    }

    #[test]
    fn points_text() {
        assert_eq!(show_points(107.5), "107.5");
        assert_eq!(show_points(2.08), "2.08");
        assert_eq!(show_points(150.0), "150");
        assert_eq!(show_points(-0.0), "0");
    }

    #[test]
    fn extreme_values_do_not_panic() {
        let pts = [(i64::MIN, i64::MIN), (i64::MAX, i64::MAX), (0, 0)];
        assert!(points_chart(&pts, "x", Lang::En).is_ok());
    }

    #[test]
    fn level_bands_follow_the_levels() {
        // Below 100 is one band, whatever the range.
        let bands = level_bands(-250.0, 80.0, Lang::En);
        assert_eq!(bands.len(), 1);
        assert_eq!(bands[0].2, "Unranked");
        let bands = level_bands(40.0, 320.0, Lang::En);
        let names: Vec<&str> = bands.iter().map(|b| b.2.as_str()).collect();
        assert_eq!(names, ["Unranked", "Level 30", "Level 29", "Level 28"]);
        assert_eq!((bands[0].0, bands[0].1), (40.0, 100.0));
        assert_eq!((bands[3].0, bands[3].1), (300.0, 320.0));
        assert!(bands[1].3 != bands[2].3, "levels alternate");
        let top = level_bands(2950.0, 3500.0, Lang::En);
        assert_eq!(top.last().map(|b| (b.0, b.1)), Some((3000.0, 3500.0)));
        assert_eq!(top.last().map(|b| b.2.as_str()), Some("Level 1"));
        // In Chinese, the seeds' names.
        let names: Vec<String> = level_bands(40.0, 320.0, Lang::ZhCn)
            .into_iter()
            .map(|b| b.2)
            .collect();
        assert_eq!(names, ["无级别", "30级", "29级", "28级"]);
    }

    /// Games hours apart: each date on the axis once; the last point
    /// inside the frame; the level boundary in range drawn and named.
    #[test]
    fn dates_once_last_point_inside_and_bands_named() {
        let day = 86_400_000;
        let pts = [
            (day * 20_000, 9_000),
            (day * 20_000 + 3_600_000, 10_500),
            (day * 20_000 + 7_200_000, 11_000),
        ];
        let svg = chart_svg(&pts, "t", Lang::En);
        let d = date(day * 20_000);
        assert_eq!(svg.matches(&format!(">{d}<")).count(), 1, "{svg}");
        let right = f64::from(WIDTH) - RIGHT;
        for cx in svg.split("<circle cx=\"").skip(1) {
            let x: f64 = cx.split('"').next().unwrap().parse().unwrap();
            assert!(x + 3.2 + 1.2 < right, "point at {x} touches the edge");
        }
        assert!(
            svg.contains(">Level 30<") && svg.contains(">Unranked<"),
            "{svg}"
        );
        assert!(svg.contains("stroke-dasharray"), "the 100-point boundary");
    }

    #[test]
    fn steps() {
        assert_eq!(nice_step(100.0, 5.0), 20.0);
        assert_eq!(nice_step(7.0, 5.0), 2.0);
    }
}
