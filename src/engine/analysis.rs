//! The analysis maths, pure: win chances, move and game accuracy, and the
//! inaccuracy / mistake / blunder judgements, computed from the engine's
//! evaluation of every position of a game exactly as lichess publishes
//! them (lila `WinPercent.scala`, `AccuracyPercent.scala`, `Advice.scala`;
//! lichess.org/page/accuracy).

use shakmaty::Color;

use super::Score;

/// Lichess's win chance of the side whose view `score` is, in −1..1:
/// `2 / (1 + exp(−0.00368208 · cp)) − 1` on centipawns clipped to ±1000, a
/// mate counting as ±1000 (lila `WinPercent.winningChances`, constant
/// fitted in lila PR #11148).
pub fn win_chance(score: Score) -> f64 {
    let cp = f64::from(score.clipped_cp());
    (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// The same as a percentage, 0..100 (lila `WinPercent.fromCentiPawns`:
/// `50 + 50 · winChance`).
pub fn win_percent(score: Score) -> f64 {
    50.0 + 50.0 * win_chance(score)
}

/// The accuracy of one move, 0..100, from the mover's win percentage
/// before and after it: `103.1668 · exp(−0.04354 · (before − after)) −
/// 3.1669`, 100 when the move did not lose anything (lila
/// `AccuracyPercent.fromWinPercents`; lila adds a one-point "uncertainty
/// bonus" to the raw value, which we leave out as the published formula
/// does).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    raw.clamp(0.0, 100.0)
}

/// How bad a move was (lila `Advice.Judgement`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The PGN annotation glyph: `?!`, `?`, `??`.
    pub const fn nag(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The numeric NAG (`$6`, `$2`, `$4`).
    pub const fn nag_number(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    pub const fn index(self) -> usize {
        match self {
            Judgement::Inaccuracy => 0,
            Judgement::Mistake => 1,
            Judgement::Blunder => 2,
        }
    }
}

/// Judges a move by the drop of the mover's win chance (−1..1 scale):
/// 0.3 or more a blunder, 0.2 a mistake, 0.1 an inaccuracy (lila
/// `Advice.scala`, `CpAdvice.winningChanceJudgements`). Lichess judges
/// positions with a forced mate by separate rules; here a mate counts as
/// ±1000 cp, so throwing away a mate or walking into one is judged by the
/// same drop.
pub fn judge(win_chance_drop: f64) -> Option<Judgement> {
    if win_chance_drop >= 0.3 {
        Some(Judgement::Blunder)
    } else if win_chance_drop >= 0.2 {
        Some(Judgement::Mistake)
    } else if win_chance_drop >= 0.1 {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// One move looked at.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 0-based index of the ply in the game.
    pub ply: usize,
    pub mover: Color,
    /// Evaluations (White's view) before and after the move.
    pub before: Score,
    pub after: Score,
    /// The mover's win chance lost by the move (−1..1 scale; negative if
    /// the move improved it).
    pub drop: f64,
    pub accuracy: f64,
    pub judgement: Option<Judgement>,
}

/// A whole game looked at.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    pub moves: Vec<MoveReview>,
    /// White's and Black's game accuracy (`None` for a side without moves).
    pub accuracy: [Option<f64>; 2],
    /// White's and Black's counts of inaccuracies, mistakes and blunders.
    pub counts: [[usize; 3]; 2],
}

impl GameReview {
    /// The worst judged moves, worst first, at most `n`.
    pub fn worst(&self, n: usize) -> Vec<&MoveReview> {
        let mut judged: Vec<&MoveReview> = self
            .moves
            .iter()
            .filter(|m| m.judgement.is_some())
            .collect();
        judged.sort_by(|a, b| b.drop.total_cmp(&a.drop).then(a.ply.cmp(&b.ply)));
        judged.truncate(n);
        judged
    }
}

/// Reviews a game from the evaluation (White's view) of each of its
/// positions: `evals[0]` before the first move, `evals[i]` after ply `i`.
/// `first` is the side that made the first move.
///
/// Game accuracy is lichess's (lila `AccuracyPercent.gameAccuracy`): each
/// move's accuracy is weighted by the volatility of the game around it —
/// the standard deviation of the win percentages in a window of
/// `clamp(plies / 10, 2, 8)` positions, clamped to 0.5..12 — and a side's
/// accuracy is the mean of that weighted mean and the harmonic mean of its
/// move accuracies (which punishes a few very bad moves).
pub fn review(first: Color, evals: &[Score]) -> GameReview {
    let percents: Vec<f64> = evals.iter().map(|s| win_percent(*s)).collect();
    let plies = evals.len().saturating_sub(1);
    let window = (plies / 10).clamp(2, 8);
    let weights = volatility_weights(&percents, window);
    let mut moves = Vec::with_capacity(plies);
    let mut counts = [[0usize; 3]; 2];
    let mut mover = first;
    for ply in 0..plies {
        let (before, after) = (evals[ply], evals[ply + 1]);
        let (wb, wa) = (percents[ply], percents[ply + 1]);
        // The mover's own view: White's win percentage, or its complement.
        let (mine_before, mine_after) = match mover {
            Color::White => (wb, wa),
            Color::Black => (100.0 - wb, 100.0 - wa),
        };
        let drop = (mine_before - mine_after) / 50.0;
        let judgement = judge(drop);
        if let Some(j) = judgement {
            counts[color_slot(mover)][j.index()] += 1;
        }
        moves.push(MoveReview {
            ply,
            mover,
            before,
            after,
            drop,
            accuracy: move_accuracy(mine_before, mine_after),
            judgement,
        });
        mover = !mover;
    }
    let accuracy = [Color::White, Color::Black].map(|color| {
        let mine: Vec<(f64, f64)> = moves
            .iter()
            .zip(&weights)
            .filter(|(m, _)| m.mover == color)
            .map(|(m, w)| (m.accuracy, *w))
            .collect();
        let weighted = weighted_mean(&mine)?;
        let harmonic = harmonic_mean(mine.iter().map(|(a, _)| *a))?;
        Some((weighted + harmonic) / 2.0)
    });
    GameReview {
        moves,
        accuracy,
        counts,
    }
}

fn color_slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// One weight per move: the standard deviation of the win percentages in
/// a window around it, clamped to 0.5..12. As lila builds them, the first
/// `window − 2` moves reuse the first window, then the window slides one
/// position per move.
fn volatility_weights(percents: &[f64], window: usize) -> Vec<f64> {
    let window = window.min(percents.len());
    let mut windows: Vec<&[f64]> = Vec::new();
    for _ in 0..window.saturating_sub(2) {
        windows.push(&percents[..window]);
    }
    if window > 0 {
        windows.extend(percents.windows(window));
    }
    windows
        .into_iter()
        .map(|xs| standard_deviation(xs).clamp(0.5, 12.0))
        .collect()
}

/// Population standard deviation (lila `Maths.standardDeviation`).
fn standard_deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

fn weighted_mean(xs: &[(f64, f64)]) -> Option<f64> {
    let (sum, weights) = xs.iter().fold((0.0, 0.0), |(s, w), (x, weight)| {
        (s + x * weight, w + weight)
    });
    (weights != 0.0).then(|| sum / weights)
}

/// Harmonic mean with each value at least 1, as lila's `Maths.harmonicMean`
/// (a move of accuracy 0 would otherwise make the mean 0).
fn harmonic_mean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, inverse) = xs.fold((0usize, 0.0), |(n, s), x| (n + 1, s + 1.0 / x.max(1.0)));
    (n > 0).then(|| n as f64 / inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn win_chances_follow_lichess() {
        assert_eq!(win_chance(Score::Cp(0)), 0.0);
        // 2/(1+e^(−0.368208)) − 1 = 0.18203…
        assert!(close(win_chance(Score::Cp(100)), 0.182_03, 1e-4));
        assert!(close(win_chance(Score::Cp(-100)), -0.182_03, 1e-4));
        // Clipped at 1000 cp: 2/(1+e^(−3.68208)) − 1 = 0.95088…
        assert!(close(win_chance(Score::Cp(5000)), 0.950_88, 1e-4));
        assert_eq!(win_chance(Score::Mate(3)), win_chance(Score::Cp(1000)));
        assert!(close(win_percent(Score::Cp(100)), 59.101, 1e-2));
    }

    #[test]
    fn move_accuracy_follows_lichess() {
        assert_eq!(move_accuracy(60.0, 60.0), 100.0);
        assert_eq!(move_accuracy(40.0, 70.0), 100.0);
        // A drop of 10 points: 103.1668·e^(−0.4354) − 3.1669 = 63.60…
        assert!(close(move_accuracy(60.0, 50.0), 63.60, 0.05));
        // Losing everything is (about) zero, never negative.
        assert!(move_accuracy(100.0, 0.0) >= 0.0);
        assert!(move_accuracy(100.0, 0.0) < 1.0);
    }

    #[test]
    fn thresholds() {
        assert_eq!(judge(0.05), None);
        assert_eq!(judge(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(judge(0.19), Some(Judgement::Inaccuracy));
        assert_eq!(judge(0.2), Some(Judgement::Mistake));
        assert_eq!(judge(0.3), Some(Judgement::Blunder));
        assert_eq!(judge(1.9), Some(Judgement::Blunder));
        assert_eq!(judge(-0.5), None);
    }

    #[test]
    fn a_planted_blunder_is_found_and_charged_to_its_mover() {
        // White keeps +0.3, then Black's 3rd move throws away a piece.
        let evals = [20, 30, 25, 30, 20, 30, 350, 340, 330].map(Score::Cp);
        let r = review(Color::White, &evals);
        assert_eq!(r.moves.len(), 8);
        let worst = r.worst(3);
        assert_eq!(worst.len(), 1);
        assert_eq!(worst[0].ply, 5);
        assert_eq!(worst[0].mover, Color::Black);
        assert_eq!(worst[0].judgement, Some(Judgement::Blunder));
        assert_eq!(r.counts, [[0, 0, 0], [0, 0, 1]]);
        let [white, black] = r.accuracy.map(|a| a.expect("both moved"));
        assert!(white > 90.0, "white {white}");
        assert!(black < white, "black {black} white {white}");
    }

    #[test]
    fn a_perfect_game_is_100_percent() {
        let evals = [Score::Cp(20); 11];
        let r = review(Color::White, &evals);
        assert_eq!(r.accuracy, [Some(100.0), Some(100.0)]);
        assert_eq!(r.counts, [[0; 3]; 2]);
    }

    #[test]
    fn black_to_start_and_tiny_games() {
        // From a position with Black to move: ply 0 is Black's.
        let r = review(Color::Black, &[Score::Cp(0), Score::Cp(400)]);
        assert_eq!(r.moves[0].mover, Color::Black);
        assert_eq!(r.moves[0].judgement, Some(Judgement::Blunder));
        assert_eq!(r.accuracy[0], None);
        assert!(r.accuracy[1].is_some());
        let none = review(Color::White, &[Score::Cp(0)]);
        assert!(none.moves.is_empty());
        assert_eq!(none.accuracy, [None, None]);
        assert!(review(Color::White, &[]).moves.is_empty());
    }

    #[test]
    fn weights_one_per_move() {
        for n in 1..40 {
            let p: Vec<f64> = (0..=n).map(|i| (i * 7 % 100) as f64).collect();
            let window = (n / 10).clamp(2, 8);
            assert_eq!(volatility_weights(&p, window).len(), n, "{n} plies");
        }
    }

    #[test]
    fn means() {
        assert_eq!(weighted_mean(&[(50.0, 1.0), (100.0, 3.0)]), Some(87.5));
        assert_eq!(weighted_mean(&[]), None);
        assert_eq!(harmonic_mean([50.0, 100.0].into_iter()), Some(200.0 / 3.0));
        // Zeros count as 1.
        assert_eq!(harmonic_mean([0.0, 1.0].into_iter()), Some(1.0));
        assert!(close(
            standard_deviation(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]),
            2.0,
            1e-12
        ));
    }
}
