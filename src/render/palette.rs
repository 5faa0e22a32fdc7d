//! One 255-colour palette per theme and square size.
//!
//! Board images are made of few colours: flat squares, two piece colours and
//! their anti-aliased edges. The palette keeps the important flat colours
//! exactly (reserved entries) and lets NeuQuant pick the rest from the
//! pre-blended tiles, so every tile pixel maps to a close entry once, at
//! start-up. Index 255 is left free: GIF frames use it as "unchanged".

use std::collections::HashMap;

use color_quant::NeuQuant;

use super::theme::Rgb;

/// Number of usable entries; index [`TRANSPARENT`] stays free.
pub const COLORS: usize = 255;
/// The index GIF frames use for "keep the previous pixel".
pub const TRANSPARENT: u8 = 255;

/// An indexed palette with an exact nearest search.
#[derive(Debug, Clone)]
pub struct Palette {
    colors: Vec<Rgb>,
}

fn distance(a: Rgb, b: Rgb) -> u32 {
    let d = |x: u8, y: u8| {
        let v = i32::from(x) - i32::from(y);
        (v * v) as u32
    };
    3 * d(a.0, b.0) + 4 * d(a.1, b.1) + 2 * d(a.2, b.2)
}

impl Palette {
    /// Builds a palette holding every `reserved` colour exactly plus up to
    /// [`COLORS`] in total chosen from `samples` (opaque RGB triples).
    pub fn build(reserved: &[Rgb], samples: &[Rgb]) -> Palette {
        let mut colors: Vec<Rgb> = Vec::with_capacity(COLORS);
        for &c in reserved {
            if !colors.contains(&c) && colors.len() < COLORS {
                colors.push(c);
            }
        }
        let mut rest: Vec<u8> = Vec::new();
        let mut distinct: HashMap<Rgb, ()> = HashMap::new();
        // Tiles are mostly runs of one colour: a pixel like the one before
        // it is judged as that one was (NeuQuant still sees every pixel).
        let mut previous: Option<(Rgb, bool)> = None;
        for &c in samples {
            let reserved = match previous {
                Some((p, reserved)) if p == c => reserved,
                _ => {
                    let reserved = colors.contains(&c);
                    if !reserved && distinct.len() <= COLORS {
                        distinct.insert(c, ());
                    }
                    previous = Some((c, reserved));
                    reserved
                }
            };
            if !reserved {
                rest.extend_from_slice(&[c.0, c.1, c.2, 255]);
            }
        }
        let free = COLORS - colors.len();
        if distinct.len() <= free {
            // Few enough colours: keep them all, exactly.
            let mut extra: Vec<Rgb> = distinct.into_keys().collect();
            extra.sort_by_key(|c| (c.0, c.1, c.2));
            colors.extend(extra);
        } else if free >= 4 {
            let nq = NeuQuant::new(10, free, &rest);
            for px in nq.color_map_rgb().chunks_exact(3) {
                let c = Rgb(px[0], px[1], px[2]);
                if !colors.contains(&c) {
                    colors.push(c);
                }
            }
        }
        Palette { colors }
    }

    /// The index of the entry closest to `c`.
    pub fn nearest_exact(&self, c: Rgb) -> u8 {
        let mut best = (u32::MAX, 0usize);
        for (i, &p) in self.colors.iter().enumerate() {
            let d = distance(c, p);
            if d < best.0 {
                best = (d, i);
                if d == 0 {
                    break;
                }
            }
        }
        best.1 as u8
    }

    /// The colour of entry `i` (black for unused entries).
    pub fn color(&self, i: u8) -> Rgb {
        self.colors
            .get(usize::from(i))
            .copied()
            .unwrap_or(Rgb(0, 0, 0))
    }

    /// Number of entries in use.
    pub fn len(&self) -> usize {
        self.colors.len()
    }

    /// Whether the palette is empty (never, once built from a theme).
    pub fn is_empty(&self) -> bool {
        self.colors.is_empty()
    }

    /// `len()` RGB triples, for a PNG `PLTE` chunk.
    pub fn rgb_bytes(&self) -> Vec<u8> {
        self.colors.iter().flat_map(|c| [c.0, c.1, c.2]).collect()
    }

    /// 256 RGB triples (unused entries black), for a GIF colour table.
    pub fn rgb_bytes_256(&self) -> Vec<u8> {
        let mut v = self.rgb_bytes();
        v.resize(256 * 3, 0);
        v
    }
}

/// Maps many colours to palette indices, remembering earlier answers.
pub struct Mapper<'a> {
    palette: &'a Palette,
    cache: HashMap<Rgb, u8>,
    /// The last colour asked for and its index: runs of one colour skip
    /// the map.
    last: Option<(Rgb, u8)>,
}

impl<'a> Mapper<'a> {
    /// A mapper over `palette`.
    pub fn new(palette: &'a Palette) -> Self {
        Mapper {
            palette,
            cache: HashMap::new(),
            last: None,
        }
    }

    /// The exact nearest index of `c`.
    pub fn index(&mut self, c: Rgb) -> u8 {
        if let Some((last, index)) = self.last
            && last == c
        {
            return index;
        }
        let palette = self.palette;
        let index = *self
            .cache
            .entry(c)
            .or_insert_with(|| palette.nearest_exact(c));
        self.last = Some((c, index));
        index
    }
}
