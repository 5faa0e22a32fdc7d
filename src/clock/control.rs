//! [`TimeControl`]: correspondence days per move, or live stages.

use std::{fmt, str::FromStr};

use super::{duration::human_seconds_in, DAY_MS};
use crate::{i18n::Lang, t};

/// Why a text is not a time control. Every message says what to type instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeControlError {
    /// Nothing was given.
    Empty,
    /// Far longer than any time control.
    TooLong(usize),
    /// Not any known form.
    Unrecognized(String),
    /// A part that should be a whole number is not.
    BadNumber {
        /// The whole input.
        input: String,
        /// The offending part.
        part: String,
        /// What the number counts ("seconds", "moves", …).
        what: &'static str,
    },
    /// Days per move not among the offered values.
    DaysNotOffered(String),
    /// `0+0`.
    NoTime(String),
    /// Base time of `M+I` outside 1..=180 minutes.
    BaseOutOfRange(String),
    /// Increment outside 0..=180 s.
    IncrementOutOfRange(String),
    /// Moves of a stage outside 1..=200.
    MovesOutOfRange(String),
    /// Seconds of a stage outside 1..=36000.
    StageTimeOutOfRange(String),
    /// A stage with a move count that gives less than
    /// [`LiveControl::MIN_SECONDS_PER_MOVE`] per move (increment included):
    /// no one can play 40 moves in one second.
    TooFast(String),
    /// A stage without a move count that is not the last.
    SuddenDeathNotLast(String),
    /// More than [`LiveControl::MAX_STAGES`] stages.
    TooManyStages(String),
    /// A single sudden-death stage whose base is not whole minutes.
    BaseNotWholeMinutes(String),
}

impl TimeControlError {
    /// What is wrong and what to type instead, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use TimeControlError as E;
        match self {
            E::Empty => t!(lang, "time-error-empty"),
            E::TooLong(n) => t!(lang, "time-error-too-long", count = *n),
            E::Unrecognized(x) => t!(lang, "time-error-unrecognized", input = x),
            E::BadNumber { input, part, what } => {
                let what = match *what {
                    "days" => t!(lang, "time-error-what-days"),
                    "minutes" => t!(lang, "time-error-what-minutes"),
                    "moves" => t!(lang, "time-error-what-moves"),
                    _ => t!(lang, "time-error-what-seconds"),
                };
                t!(
                    lang,
                    "time-error-bad-number",
                    input = input,
                    part = part,
                    what = what
                )
            }
            E::DaysNotOffered(x) => t!(lang, "time-error-days-not-offered", input = x),
            E::NoTime(x) => t!(lang, "time-error-no-time", input = x),
            E::BaseOutOfRange(x) => t!(lang, "time-error-base-out-of-range", input = x),
            E::IncrementOutOfRange(x) => {
                t!(lang, "time-error-increment-out-of-range", input = x)
            }
            E::MovesOutOfRange(x) => t!(lang, "time-error-moves-out-of-range", input = x),
            E::StageTimeOutOfRange(x) => {
                t!(lang, "time-error-stage-time-out-of-range", input = x)
            }
            E::TooFast(x) => t!(lang, "time-error-too-fast", input = x),
            E::SuddenDeathNotLast(x) => t!(lang, "time-error-sudden-death-not-last", input = x),
            E::TooManyStages(x) => t!(lang, "time-error-too-many-stages", input = x),
            E::BaseNotWholeMinutes(x) => {
                t!(lang, "time-error-base-not-whole-minutes", input = x)
            }
        }
    }
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for TimeControlError {}

type Result<T> = std::result::Result<T, TimeControlError>;

/// Correspondence time: a number of days per move; the deadline restarts at
/// every move and unused time does not carry over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Correspondence {
    days: u8,
}

impl Correspondence {
    /// The choices offered (issue 6): 1, 2, 3, 5, 7, 10, 14 days per move.
    pub const ALLOWED_DAYS: [u8; 7] = [1, 2, 3, 5, 7, 10, 14];
    /// The default: 3 days per move.
    pub const DEFAULT: Correspondence = Correspondence { days: 3 };

    /// `days` per move, if it is one of [`Self::ALLOWED_DAYS`].
    pub fn new(days: u32) -> Result<Self> {
        match u8::try_from(days) {
            Ok(d) if Self::ALLOWED_DAYS.contains(&d) => Ok(Correspondence { days: d }),
            _ => Err(TimeControlError::DaysNotOffered(format!("{days}d"))),
        }
    }

    /// Days per move.
    pub const fn days(self) -> u8 {
        self.days
    }

    /// The deadline for the reply to a move made at `move_at_ms`.
    pub const fn deadline_after(self, move_at_ms: i64) -> i64 {
        deadline_after(move_at_ms, self.days)
    }
}

impl Default for Correspondence {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The correspondence deadline: `days` whole days after `move_at_ms`
/// (milliseconds since the epoch). Saturates instead of overflowing.
///
/// ```
/// use chessbot::clock::{deadline_after, DAY_MS};
/// assert_eq!(deadline_after(1_000, 3), 1_000 + 3 * DAY_MS);
/// ```
pub const fn deadline_after(move_at_ms: i64, days: u8) -> i64 {
    move_at_ms.saturating_add(days as i64 * DAY_MS)
}

/// One stage of a live control: `moves` moves in `seconds` (with
/// `increment_s` added after each move), or, when `moves` is `None`, the rest
/// of the game (sudden death).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stage {
    /// Moves to make in this stage; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// Time given for this stage, in seconds.
    pub seconds: u32,
    /// Seconds added after each move made in this stage.
    pub increment_s: u32,
}

/// A live (one-sitting) control: one or more [`Stage`]s. The last stage
/// repeats when it has a move count (`40/9000:16/3600` = 16 moves every hour
/// after move 40).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LiveControl {
    stages: Vec<Stage>,
}

impl LiveControl {
    /// At most this many stages.
    pub const MAX_STAGES: usize = 5;
    /// Base time bounds of the `M+I` form, in minutes.
    pub const BASE_MINUTES: std::ops::RangeInclusive<u32> = 1..=180;
    /// Increment bounds, in seconds.
    pub const INCREMENT_S: std::ops::RangeInclusive<u32> = 0..=180;
    /// Moves per stage bounds.
    pub const STAGE_MOVES: std::ops::RangeInclusive<u32> = 1..=200;
    /// Time per stage bounds, in seconds.
    pub const STAGE_SECONDS: std::ops::RangeInclusive<u32> = 1..=36_000;
    /// A stage with a move count gives at least this much per move.
    pub const MIN_SECONDS_PER_MOVE: u32 = 5;

    /// Base minutes + increment seconds (`10+5`).
    ///
    /// ```
    /// use chessbot::clock::LiveControl;
    /// assert_eq!(LiveControl::fischer(10, 5)?.to_string(), "10+5");
    /// assert!(LiveControl::fischer(0, 0).is_err());
    /// # Ok::<(), chessbot::clock::TimeControlError>(())
    /// ```
    pub fn fischer(base_minutes: u32, increment_s: u32) -> Result<Self> {
        let text = format!("{base_minutes}+{increment_s}");
        if base_minutes == 0 && increment_s == 0 {
            return Err(TimeControlError::NoTime(text));
        }
        if !Self::BASE_MINUTES.contains(&base_minutes) {
            return Err(TimeControlError::BaseOutOfRange(text));
        }
        if !Self::INCREMENT_S.contains(&increment_s) {
            return Err(TimeControlError::IncrementOutOfRange(text));
        }
        Ok(LiveControl {
            stages: vec![Stage {
                moves: None,
                seconds: base_minutes * 60,
                increment_s,
            }],
        })
    }

    /// A control from its stages, checked: 1 to [`Self::MAX_STAGES`] stages,
    /// each within bounds, only the last without a move count; a lone
    /// sudden-death stage must be whole minutes (1 to 180).
    pub fn new(stages: Vec<Stage>) -> Result<Self> {
        let text = LiveControl {
            stages: stages.clone(),
        }
        .to_pgn_tag();
        if stages.is_empty() {
            return Err(TimeControlError::Unrecognized(text));
        }
        if stages.len() > Self::MAX_STAGES {
            return Err(TimeControlError::TooManyStages(text));
        }
        for (i, s) in stages.iter().enumerate() {
            if !Self::STAGE_SECONDS.contains(&s.seconds) {
                return Err(TimeControlError::StageTimeOutOfRange(text));
            }
            if !Self::INCREMENT_S.contains(&s.increment_s) {
                return Err(TimeControlError::IncrementOutOfRange(text));
            }
            match s.moves {
                Some(m) if !Self::STAGE_MOVES.contains(&m) => {
                    return Err(TimeControlError::MovesOutOfRange(text))
                }
                Some(m)
                    if s.seconds.saturating_add(m.saturating_mul(s.increment_s))
                        < m.saturating_mul(Self::MIN_SECONDS_PER_MOVE) =>
                {
                    return Err(TimeControlError::TooFast(text))
                }
                None if i + 1 != stages.len() => {
                    return Err(TimeControlError::SuddenDeathNotLast(text))
                }
                _ => {}
            }
        }
        if let [Stage {
            moves: None,
            seconds,
            ..
        }] = stages.as_slice()
            && (seconds % 60 != 0 || !Self::BASE_MINUTES.contains(&(seconds / 60)))
        {
            return Err(TimeControlError::BaseNotWholeMinutes(text));
        }
        Ok(LiveControl { stages })
    }

    /// The stages, in order.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The stage with index `i`; past the end, the last stage (it repeats).
    pub fn stage(&self, i: usize) -> &Stage {
        // `new` guarantees at least one stage.
        &self.stages[i.min(self.stages.len() - 1)]
    }

    /// Whether this is a single sudden-death stage (`10+5`).
    pub fn is_fischer(&self) -> bool {
        matches!(self.stages.as_slice(), [Stage { moves: None, .. }])
    }

    /// The PGN `TimeControl` tag value, in seconds: `600+5`,
    /// `40/9000:16/3600`, `40/5400+30:1800+30`.
    pub fn to_pgn_tag(&self) -> String {
        self.stages
            .iter()
            .map(|s| {
                let mut out = match s.moves {
                    Some(m) => format!("{m}/{}", s.seconds),
                    None => s.seconds.to_string(),
                };
                if s.increment_s > 0 || (self.stages.len() == 1 && s.moves.is_none()) {
                    out.push_str(&format!("+{}", s.increment_s));
                }
                out
            })
            .collect::<Vec<_>>()
            .join(":")
    }

    /// In words: `10 min + 5 s`, `40 moves in 2 h 30 min, then 16 moves
    /// every 1 h`.
    pub fn describe(&self) -> String {
        self.text(Lang::En)
    }

    /// [`Self::describe`] in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let human = |secs: u32| human_seconds_in(lang, u64::from(secs));
        if let [Stage {
            moves: None,
            seconds,
            increment_s,
        }] = self.stages.as_slice()
        {
            return match increment_s {
                0 => human(*seconds),
                i => t!(
                    lang,
                    "time-with-increment",
                    base = human(*seconds),
                    // Increments are said in seconds, however many.
                    increment = t!(lang, "unit-seconds-short", count = *i)
                ),
            };
        }
        let last = self.stages.len() - 1;
        let parts: Vec<String> = self
            .stages
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let time = human(s.seconds);
                let mut text = match s.moves {
                    // The last stage repeats.
                    Some(m) if i == last => {
                        t!(lang, "time-stage-repeating", count = m, time = time)
                    }
                    Some(m) => t!(lang, "time-stage", count = m, time = time),
                    None => t!(lang, "time-stage-rest", time = time),
                };
                if s.increment_s > 0 {
                    text.push_str(&t!(
                        lang,
                        "time-stage-increment",
                        increment = t!(lang, "unit-seconds-short", count = s.increment_s)
                    ));
                }
                text
            })
            .collect();
        parts.join(&t!(lang, "time-stage-then"))
    }

    fn parse_fischer(text: &str) -> Result<Self> {
        let (base, inc) = text
            .split_once('+')
            .ok_or_else(|| TimeControlError::Unrecognized(text.to_string()))?;
        let base = number(text, base, "minutes")?;
        let inc = number(text, inc, "seconds")?;
        let err_text = text.to_string();
        match (base, inc) {
            (0, 0) => Err(TimeControlError::NoTime(err_text)),
            (b, _) if !Self::BASE_MINUTES.contains(&b) => {
                Err(TimeControlError::BaseOutOfRange(err_text))
            }
            (_, i) if !Self::INCREMENT_S.contains(&i) => {
                Err(TimeControlError::IncrementOutOfRange(err_text))
            }
            (b, i) => Self::fischer(b, i),
        }
    }

    /// Reads the PGN forms (seconds): `40/9000:16/3600`, `40/5400+30:1800+30`,
    /// `40/7200:3600`, `600+5`, `300`.
    fn parse_pgn(text: &str) -> Result<Self> {
        let parts: Vec<&str> = text.split(':').collect();
        if parts.len() > Self::MAX_STAGES {
            return Err(TimeControlError::TooManyStages(text.to_string()));
        }
        let mut stages = Vec::with_capacity(parts.len());
        for part in parts {
            let (moves, rest) = match part.split_once('/') {
                Some((m, r)) => (Some(number(text, m, "moves")?), r),
                None => (None, part),
            };
            let (secs, inc) = match rest.split_once('+') {
                Some((s, i)) => (s, Some(i)),
                None => (rest, None),
            };
            let seconds = number(text, secs, "seconds")?;
            let increment_s = match inc {
                Some(i) => number(text, i, "seconds")?,
                None => 0,
            };
            stages.push(Stage {
                moves,
                seconds,
                increment_s,
            });
        }
        Self::new(stages).map_err(|e| relabel(e, text))
    }
}

/// Reports an error against the text the user typed rather than the
/// canonical form.
fn relabel(e: TimeControlError, text: &str) -> TimeControlError {
    use TimeControlError as E;
    let t = text.to_string();
    match e {
        E::Unrecognized(_) => E::Unrecognized(t),
        E::NoTime(_) => E::NoTime(t),
        E::TooManyStages(_) => E::TooManyStages(t),
        E::StageTimeOutOfRange(_) => E::StageTimeOutOfRange(t),
        E::IncrementOutOfRange(_) => E::IncrementOutOfRange(t),
        E::MovesOutOfRange(_) => E::MovesOutOfRange(t),
        E::SuddenDeathNotLast(_) => E::SuddenDeathNotLast(t),
        E::BaseNotWholeMinutes(_) => E::BaseNotWholeMinutes(t),
        E::TooFast(_) => E::TooFast(t),
        other => other,
    }
}

/// A whole number (at most 9 digits) from a part of `input`.
fn number(input: &str, part: &str, what: &'static str) -> Result<u32> {
    if part.is_empty() || part.len() > 9 || !part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TimeControlError::BadNumber {
            input: input.to_string(),
            part: part.to_string(),
            what,
        });
    }
    part.parse().map_err(|_| TimeControlError::BadNumber {
        input: input.to_string(),
        part: part.to_string(),
        what,
    })
}

impl fmt::Display for LiveControl {
    /// `10+5` (minutes) for a single sudden-death stage, else the PGN form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stages.as_slice() {
            [Stage {
                moves: None,
                seconds,
                increment_s,
            }] => write!(f, "{}+{increment_s}", seconds / 60),
            _ => f.write_str(&self.to_pgn_tag()),
        }
    }
}

/// How much time the players get.
///
/// Parsed from text ([`FromStr`]):
///
/// | text | meaning |
/// |---|---|
/// | `3d` | correspondence, 3 days per move (1, 2, 3, 5, 7, 10, 14) |
/// | `10+5` | live, 10 minutes + 5 seconds per move |
/// | `40/9000:16/3600` | live, 40 moves in 9000 s, then 16 moves every 3600 s |
/// | `40/5400+30:1800+30` | as above, with 30 s added per move |
/// | `40/7200:3600` | 40 moves in 2 h, then 1 h for the rest of the game |
/// | `unlimited` | no clock |
///
/// ```
/// use chessbot::clock::TimeControl;
/// let tc: TimeControl = "40/9000:16/3600".parse()?;
/// assert_eq!(tc.describe(), "40 moves in 2 h 30 min, then 16 moves every 1 h");
/// assert_eq!(tc.to_string(), "40/9000:16/3600");
/// assert_eq!("10+5".parse::<TimeControl>()?.to_pgn_tag(), "600+5");
/// assert_eq!(TimeControl::default().to_string(), "3d");
/// let err = "999d".parse::<TimeControl>().unwrap_err();
/// assert!(err.to_string().contains("1, 2, 3, 5, 7, 10 or 14 days"));
/// # Ok::<(), chessbot::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// Days per move; the deadline restarts at every move.
    Correspondence(Correspondence),
    /// A live clock.
    Live(LiveControl),
    /// No clock at all (`unlimited`): no deadline, no reminders, nobody
    /// loses on time.
    Unlimited,
}

impl Default for TimeControl {
    /// Correspondence, 3 days per move.
    fn default() -> Self {
        TimeControl::Correspondence(Correspondence::DEFAULT)
    }
}

impl TimeControl {
    /// Longest text [`FromStr`] reads.
    pub const MAX_TEXT: usize = 64;

    /// The live control, if this is one.
    pub fn live(&self) -> Option<&LiveControl> {
        match self {
            TimeControl::Live(l) => Some(l),
            TimeControl::Correspondence(_) | TimeControl::Unlimited => None,
        }
    }

    /// The correspondence control, if this is one.
    pub fn correspondence(&self) -> Option<Correspondence> {
        match self {
            TimeControl::Correspondence(c) => Some(*c),
            TimeControl::Live(_) | TimeControl::Unlimited => None,
        }
    }

    /// The PGN `TimeControl` tag: the live control in seconds (`600+5`,
    /// `40/9000:16/3600`), or `-` for correspondence (lichess's choice; PGN
    /// has no days-per-move form).
    pub fn to_pgn_tag(&self) -> String {
        match self {
            TimeControl::Correspondence(_) | TimeControl::Unlimited => "-".to_string(),
            TimeControl::Live(l) => l.to_pgn_tag(),
        }
    }

    /// Reads a PGN `TimeControl` tag (seconds throughout). `-`, `?` and `*`
    /// (none / unknown) give `Ok(None)`; sandclock (`*180`) is not supported.
    ///
    /// ```
    /// use chessbot::clock::TimeControl;
    /// let tc = TimeControl::from_pgn_tag("600+5")?;
    /// assert_eq!(tc.map(|t| t.to_string()).as_deref(), Some("10+5"));
    /// assert_eq!(TimeControl::from_pgn_tag("-")?, None);
    /// # Ok::<(), chessbot::clock::TimeControlError>(())
    /// ```
    pub fn from_pgn_tag(tag: &str) -> Result<Option<TimeControl>> {
        let t = tag.trim();
        if t.len() > Self::MAX_TEXT {
            return Err(TimeControlError::TooLong(t.chars().count()));
        }
        match t {
            "" => Err(TimeControlError::Empty),
            "-" | "?" | "*" => Ok(None),
            _ => LiveControl::parse_pgn(t).map(|l| Some(TimeControl::Live(l))),
        }
    }

    /// In words: `3 days per move`, `10 min + 5 s`,
    /// `40 moves in 2 h 30 min, then 16 moves every 1 h`.
    pub fn describe(&self) -> String {
        self.text(Lang::En)
    }

    /// [`Self::describe`] in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            TimeControl::Correspondence(c) => t!(lang, "time-days-per-move", count = c.days),
            TimeControl::Live(l) => l.text(lang),
            TimeControl::Unlimited => t!(lang, "time-no-clock"),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The canonical text, which parses back to the same control.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Correspondence(c) => write!(f, "{}d", c.days),
            TimeControl::Live(l) => write!(f, "{l}"),
            TimeControl::Unlimited => f.write_str("unlimited"),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(s: &str) -> Result<Self> {
        let trimmed = s.trim();
        if trimmed.is_empty() {
            return Err(TimeControlError::Empty);
        }
        if trimmed.len() > Self::MAX_TEXT {
            return Err(TimeControlError::TooLong(trimmed.chars().count()));
        }
        // Stored games' controls are already in this form ("3d", "5+3"):
        // read as they are, with no copy (a move reads its game's twice).
        let text: std::borrow::Cow<'_, str> = if trimmed
            .chars()
            .any(|c| c.is_whitespace() || c.is_ascii_uppercase())
        {
            trimmed
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect::<String>()
                .to_ascii_lowercase()
                .into()
        } else {
            trimmed.into()
        };
        let text = text.as_ref();
        if matches!(text, "unlimited" | "none" | "noclock" | "∞") {
            return Ok(TimeControl::Unlimited);
        }
        if let Some(days) = text.strip_suffix('d') {
            let n = number(text, days, "days")?;
            return Correspondence::new(n)
                .map(TimeControl::Correspondence)
                .map_err(|_| TimeControlError::DaysNotOffered(text.to_owned()));
        }
        if text.contains('/') || text.contains(':') {
            return LiveControl::parse_pgn(text).map(TimeControl::Live);
        }
        if text.contains('+') {
            return LiveControl::parse_fischer(text).map(TimeControl::Live);
        }
        Err(TimeControlError::Unrecognized(text.to_owned()))
    }
}
