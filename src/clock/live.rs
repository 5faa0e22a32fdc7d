//! Live clock arithmetic, rebuilt purely from the control and the move
//! timestamps.

use shakmaty::Color;

use super::LiveControl;

/// A side that ran out of time, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flag {
    /// The side whose time ran out.
    pub side: Color,
    /// When it ran out (ms since the epoch).
    pub at_ms: i64,
}

/// Both clocks of a live game as they stand after the last recorded move.
///
/// Build it with [`clocks_after`] from stored moves, or keep one and call
/// [`ClockState::record_move`] for each move. Indexes are `[White, Black]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClockState {
    /// Time left on each clock after the last move, in ms. For the side to
    /// move this is the time left at `running_since_ms`.
    pub remaining_ms: [i64; 2],
    /// Whose clock is (or will be) running.
    pub side_to_move: Color,
    /// Since when the side to move's clock runs; `None` before both sides
    /// have made their (untimed) first move, and after a flag.
    pub running_since_ms: Option<i64>,
    /// Moves made by each side.
    pub moves_played: [u32; 2],
    /// Index of the stage each side is in (the last stage repeats).
    pub stage: [usize; 2],
    /// Moves each side has made within its current stage.
    pub moves_in_stage: [u32; 2],
    /// The first flag, if a recorded move came at or after its side's flag
    /// time. Moves after a flag are ignored.
    pub flagged: Option<Flag>,
}

const fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl ClockState {
    /// The clocks at the start of a game: both sides on the first stage's
    /// time, White to move, not running yet.
    pub fn new(control: &LiveControl) -> Self {
        let ms = i64::from(control.stage(0).seconds) * 1000;
        ClockState {
            remaining_ms: [ms, ms],
            side_to_move: Color::White,
            running_since_ms: None,
            moves_played: [0, 0],
            stage: [0, 0],
            moves_in_stage: [0, 0],
            flagged: None,
        }
    }

    /// Records a move by the side to move, made at `at_ms`.
    ///
    /// Timed moves spend the time since the clock started running, then add
    /// the stage's increment; completing a stage's move count adds the next
    /// stage's time. A move at or after the flag time records the
    /// [`Flag`] instead (and the clocks stop). Timestamps going backwards
    /// (clock skew between processes) count as no time spent.
    pub fn record_move(&mut self, control: &LiveControl, at_ms: i64) {
        if self.flagged.is_some() {
            return;
        }
        let side = self.side_to_move;
        let i = idx(side);
        let stage = *control.stage(self.stage[i]);
        if let Some(since) = self.running_since_ms {
            let flag_at = since.saturating_add(self.remaining_ms[i]);
            if at_ms >= flag_at {
                self.remaining_ms[i] = 0;
                self.running_since_ms = None;
                self.flagged = Some(Flag {
                    side,
                    at_ms: flag_at,
                });
                return;
            }
            let spent = at_ms.saturating_sub(since).max(0);
            self.remaining_ms[i] =
                self.remaining_ms[i] - spent + i64::from(stage.increment_s) * 1000;
        }
        self.moves_played[i] += 1;
        self.moves_in_stage[i] += 1;
        if stage.moves == Some(self.moves_in_stage[i]) {
            // The last stage repeats.
            self.stage[i] = (self.stage[i] + 1).min(control.stages().len() - 1);
            self.moves_in_stage[i] = 0;
            self.remaining_ms[i] += i64::from(control.stage(self.stage[i]).seconds) * 1000;
        }
        self.side_to_move = side.other();
        self.running_since_ms =
            (self.moves_played[0] >= 1 && self.moves_played[1] >= 1).then_some(at_ms);
    }

    /// When the side to move flags (ms since the epoch), if its clock is
    /// running; the recorded flag time if a side already flagged; `None`
    /// before both sides have moved.
    pub fn flag_time(&self) -> Option<i64> {
        if let Some(flag) = self.flagged {
            return Some(flag.at_ms);
        }
        self.running_since_ms
            .map(|since| since.saturating_add(self.remaining_ms[idx(self.side_to_move)]))
    }

    /// Time left on both clocks at `now_ms`, never below 0.
    pub fn remaining_at(&self, now_ms: i64) -> [i64; 2] {
        let mut r = self.remaining_ms;
        if let Some(since) = self.running_since_ms {
            let i = idx(self.side_to_move);
            r[i] -= now_ms.saturating_sub(since).max(0);
        }
        r.map(|x| x.max(0))
    }

    /// Moves `side` still has to make before its next time control, or
    /// `None` in a sudden-death stage.
    pub fn moves_to_next_control(&self, control: &LiveControl, side: Color) -> Option<u32> {
        let i = idx(side);
        control
            .stage(self.stage[i])
            .moves
            .map(|m| m.saturating_sub(self.moves_in_stage[i]))
    }
}

/// The clocks after the moves made at `move_times_ms` (ms since the epoch,
/// one per ply, White's first), from the control alone, so a restart
/// rebuilds them from stored moves.
///
/// Each side's first move is untimed (see the [module docs](super)); the
/// game's start time therefore does not enter the computation.
///
/// ```
/// use chessbot::clock::{clocks_after, TimeControl};
/// let tc: TimeControl = "40/9000:16/3600".parse()?;
/// let live = tc.live().expect("live");
/// let state = clocks_after(live, &[0, 0]);
/// assert_eq!(state.remaining_ms, [9_000_000, 9_000_000]);
/// # Ok::<(), chessbot::clock::TimeControlError>(())
/// ```
pub fn clocks_after(control: &LiveControl, move_times_ms: &[i64]) -> ClockState {
    let mut state = ClockState::new(control);
    for &t in move_times_ms {
        state.record_move(control, t);
    }
    state
}
