//! Board colour themes.
//!
//! A [`Theme`] is plain data: the two square colours and the colours laid
//! over them (last move, marked squares, check glow, arrows, the players bar).
//! Everything else (pre-blended tiles, the palette) is derived from it once
//! per theme and square size, see [`super::tiles`].

/// An opaque sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `self` covered by `top` with opacity `alpha` (0.0 ..= 1.0).
    pub fn blend(self, top: Rgb, alpha: f32) -> Rgb {
        let a = alpha.clamp(0.0, 1.0);
        let mix = |b: u8, t: u8| (f32::from(b) * (1.0 - a) + f32::from(t) * a).round() as u8;
        Rgb(mix(self.0, top.0), mix(self.1, top.1), mix(self.2, top.2))
    }

    /// `#rrggbb`, for SVG attributes.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// An sRGB colour with an opacity, laid over the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Overlay {
    /// The colour.
    pub color: Rgb,
    /// Opacity in percent (0 ..= 100).
    pub alpha_pct: u8,
}

impl Overlay {
    /// The opacity as a fraction.
    pub fn alpha(self) -> f32 {
        f32::from(self.alpha_pct.min(100)) / 100.0
    }
}

/// The colours of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Theme {
    /// Stable name, as used in the configuration and on the command line.
    pub name: &'static str,
    /// Light squares (a8, h1, ...).
    pub light: Rgb,
    /// Dark squares (a1, h8, ...).
    pub dark: Rgb,
    /// Laid over both squares of the last move.
    pub last_move: Overlay,
    /// Laid over marked squares.
    pub mark: Overlay,
    /// Centre colour of the glow under a king in check (fades out to the edge).
    pub check: Rgb,
    /// Arrows.
    pub arrow: Overlay,
    /// Background of the players bar.
    pub bar_bg: Rgb,
    /// Text of the players bar.
    pub bar_fg: Rgb,
}

/// lichess's yellow-green "last move" highlight.
const LAST_MOVE: Overlay = Overlay {
    color: Rgb(155, 199, 0),
    alpha_pct: 41,
};
/// A red tint, as lichess's right-click square highlight.
const MARK: Overlay = Overlay {
    color: Rgb(235, 97, 80),
    alpha_pct: 75,
};
/// lichess's green arrow.
const ARROW: Overlay = Overlay {
    color: Rgb(21, 120, 27),
    alpha_pct: 80,
};

const THEMES: [Theme; 3] = [
    Theme {
        name: "brown",
        light: Rgb(0xf0, 0xd9, 0xb5),
        dark: Rgb(0xb5, 0x88, 0x63),
        last_move: LAST_MOVE,
        mark: MARK,
        check: Rgb(255, 0, 0),
        arrow: ARROW,
        bar_bg: Rgb(0x26, 0x24, 0x21),
        bar_fg: Rgb(0xe8, 0xe6, 0xe3),
    },
    Theme {
        name: "blue",
        light: Rgb(0xde, 0xe3, 0xe6),
        dark: Rgb(0x8c, 0xa2, 0xad),
        last_move: LAST_MOVE,
        mark: MARK,
        check: Rgb(255, 0, 0),
        arrow: ARROW,
        bar_bg: Rgb(0x1e, 0x27, 0x2e),
        bar_fg: Rgb(0xe6, 0xea, 0xee),
    },
    Theme {
        name: "green",
        light: Rgb(0xff, 0xff, 0xdd),
        dark: Rgb(0x86, 0xa6, 0x66),
        last_move: LAST_MOVE,
        mark: MARK,
        check: Rgb(255, 0, 0),
        arrow: Overlay {
            color: Rgb(0, 48, 136),
            alpha_pct: 80,
        },
        bar_bg: Rgb(0x22, 0x2a, 0x1c),
        bar_fg: Rgb(0xee, 0xee, 0xe0),
    },
];

impl Theme {
    /// The built-in theme called `name` (case-insensitive), if any.
    ///
    /// ```
    /// use chessbot::render::Theme;
    /// assert_eq!(Theme::by_name("Blue").map(|t| t.name), Some("blue"));
    /// assert!(Theme::by_name("purple").is_none());
    /// ```
    pub fn by_name(name: &str) -> Option<Theme> {
        THEMES
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
            .copied()
    }

    /// Names of the built-in themes, the default first.
    pub fn names() -> impl Iterator<Item = &'static str> {
        THEMES.iter().map(|t| t.name)
    }

    /// All built-in themes, the default first.
    pub fn all() -> &'static [Theme] {
        &THEMES
    }

    /// Colour of a light (`true`) or dark square.
    pub const fn square(&self, light: bool) -> Rgb {
        if light {
            self.light
        } else {
            self.dark
        }
    }
}

impl Default for Theme {
    /// The lichess-like brown board.
    fn default() -> Self {
        THEMES[0]
    }
}
