//! An engine's evaluation of a position: centipawns or a forced mate, from
//! one side's point of view, and the conversions the analysis needs.

use shakmaty::Color;

/// Centipawns beyond which an evaluation counts as decided; lichess clips
/// evaluations to ±1000 cp before turning them into win chances
/// (`Eval.Cp.CEILING` in lila), and a mate counts as the ceiling.
pub const CP_CEILING: i32 = 1000;

/// An evaluation, from the point of view named where it is used (the side
/// to move for what the engine prints, White for what is stored).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (100 = one pawn).
    Cp(i32),
    /// Mate in this many moves: positive for the side whose view this is,
    /// negative against it; `Mate(0)` means that side is already mated.
    Mate(i32),
}

impl Score {
    /// The same evaluation seen from the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(0) => Score::Mate(0),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// An evaluation from `turn`'s point of view, seen from White's.
    pub fn for_white(self, turn: Color) -> Score {
        match turn {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// Centipawns clipped to ±[`CP_CEILING`], a mate counting as the
    /// ceiling (lila's `forceAsCp` then `ceiled`). `Mate(0)` is a loss for
    /// the side whose view this is.
    pub fn clipped_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Score::Mate(n) if n > 0 => CP_CEILING,
            Score::Mate(_) => -CP_CEILING,
        }
    }

    /// As a `[%eval]` comment value: `0.35`, `-1.20`, `#3`, `#-2`.
    pub fn pgn_eval(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
            Score::Mate(n) => format!("#{n}"),
        }
    }

    /// How a person reads it: `+0.35`, `−1.20`, `mate in 3`, `mated in 2`.
    pub fn human(self) -> String {
        match self {
            Score::Cp(cp) if cp >= 0 => format!("+{:.2}", f64::from(cp) / 100.0),
            Score::Cp(cp) => format!("−{:.2}", f64::from(-cp) / 100.0),
            Score::Mate(n) if n > 0 => format!("+M{n}"),
            Score::Mate(n) => format!("−M{}", -n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_and_views() {
        assert_eq!(Score::Cp(35).flip(), Score::Cp(-35));
        assert_eq!(Score::Mate(3).flip(), Score::Mate(-3));
        assert_eq!(Score::Cp(35).for_white(Color::Black), Score::Cp(-35));
        assert_eq!(Score::Cp(35).for_white(Color::White), Score::Cp(35));
    }

    #[test]
    fn clipping() {
        assert_eq!(Score::Cp(2500).clipped_cp(), 1000);
        assert_eq!(Score::Cp(-2500).clipped_cp(), -1000);
        assert_eq!(Score::Mate(2).clipped_cp(), 1000);
        assert_eq!(Score::Mate(-2).clipped_cp(), -1000);
        assert_eq!(Score::Mate(0).clipped_cp(), -1000);
    }

    #[test]
    fn text() {
        assert_eq!(Score::Cp(35).pgn_eval(), "0.35");
        assert_eq!(Score::Cp(-120).pgn_eval(), "-1.20");
        assert_eq!(Score::Mate(-2).pgn_eval(), "#-2");
        assert_eq!(Score::Cp(-120).human(), "−1.20");
        assert_eq!(Score::Mate(3).human(), "+M3");
    }
}
