//! Time controls, live clock arithmetic and correspondence deadlines
//! (SPEC §2). Pure: no I/O, no timers; time comes in as milliseconds since
//! the Unix epoch, from a [`Clock`] the caller injects.
//!
//! - [`TimeControl`]: parsed from what people type: `3d` (correspondence,
//!   days per move), `10+5` (live: minutes + seconds of increment) or a PGN
//!   multi-stage control such as `40/9000:16/3600` (seconds). Shown back in
//!   the canonical form, as a PGN `TimeControl` tag ([`TimeControl::to_pgn_tag`])
//!   and as words ([`TimeControl::describe`]).
//! - [`ClockState`] / [`clocks_after`]: the live clocks, rebuilt purely from
//!   the control and the stored move timestamps, so a restart loses nothing;
//!   [`ClockState::flag_time`] tells the scheduler when the side to move
//!   flags.
//! - [`clocks_paused`], [`controls_met`]: adjourned games (封棋): clocks
//!   that stand while a game is adjourned, and whether a session's end may
//!   adjourn it; [`parse_local_time`] reads resumption times.
//! - [`deadline_after`]: the correspondence deadline after a move.
//! - [`Clock`], [`SystemClock`], [`ManualClock`]: the injectable "now";
//!   [`parse_duration`] reads the console's `:advance 1h30m`.
//!
//! # Decisions
//!
//! - **When a live clock starts** (as on lichess): each side's first move is
//!   untimed, and White's clock starts when Black has made its first move.
//!   No increment is added for those untimed moves, but they count towards a
//!   stage's move count. A game whose first moves never come is the service's
//!   to abort (SPEC §1: abort before each side has moved), not a loss on time.
//! - **A move exactly at the flag time is late**: the side flags at
//!   `running_since + remaining`; a move must come strictly before.
//! - **Multi-stage**: when a player completes a stage's move count, the next
//!   stage's time is added to what is left (unused time carries over); the
//!   last stage repeats. A stage's increment is added after every timed move
//!   made in that stage, before the next stage's time.
//! - **PGN tag of a correspondence game** is `-` (as lichess writes it):
//!   PGN has no "days per move" form, and `1/259200` would mean time that
//!   accumulates, which correspondence time does not.
//! - **`10+5` means minutes + seconds** (what people type); the PGN forms
//!   with `/` or `:` are in seconds throughout. A single sudden-death control
//!   must therefore be whole minutes; [`TimeControl::from_pgn_tag`] reads the
//!   PGN's own seconds form (`600+5`).
//!
//! ```
//! use chessbot::clock::{clocks_after, TimeControl};
//!
//! let tc: TimeControl = "3+2".parse()?;
//! assert_eq!(tc.describe(), "3 min + 2 s");
//! let live = tc.live().expect("a live control");
//! // White and Black play their (untimed) first moves, then White thinks 10 s.
//! let state = clocks_after(live, &[1_000, 5_000, 15_000]);
//! assert_eq!(state.remaining_ms, [180_000 - 10_000 + 2_000, 180_000]);
//! assert_eq!(state.flag_time(), Some(15_000 + 180_000));
//! # Ok::<(), chessbot::clock::TimeControlError>(())
//! ```

mod adjourn;
mod calendar;
mod control;
mod duration;
mod live;
mod source;

pub use adjourn::{
    clocks_paused, controls_met, local_minute, local_time_input, offset_text, parse_local_time,
    parse_utc_offset, Pause, WhenError,
};
pub use calendar::{civil_from_days, utc_minute, utc_parts};
pub use control::{
    deadline_after, Correspondence, LiveControl, Stage, TimeControl, TimeControlError,
};
pub use duration::{
    format_clk, format_clock, human_left, human_left_in, human_seconds, human_seconds_in,
    parse_duration, DurationError,
};
pub use live::{clocks_after, ClockState, Flag};
pub use source::{Clock, ManualClock, SystemClock};

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;
/// Milliseconds in an hour.
pub const HOUR_MS: i64 = 3_600_000;
