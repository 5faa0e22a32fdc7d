//! How many candidates each stage of `chessbot puzzles generate` keeps: a
//! count per stage, printed by the generator (and `chessbot bench
//! --puzzles`), so that where the engine time goes — and what a cheaper
//! stage in front of an expensive one saves — is measured, not guessed.
//!
//! The stages, in order: games played; their plies; level moments (a
//! blunder may be tried there); blunders tried (engine-chosen or random);
//! positions the probe keeps ([`super::probe`]: a mate, or a swing to a
//! clear win); positions the screen keeps ([`super::criteria::may_be_unique`],
//! a cheap multi-PV search); positions cooked (the full line search) and
//! why the rejected ones were; puzzles, duplicates left out.

use std::{collections::BTreeMap, fmt};

use super::Reject;

/// Counts per stage (see the module's documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Funnel {
    pub games: usize,
    pub plies: usize,
    pub level_moments: usize,
    /// Blunders tried, engine-chosen and random together.
    pub blunders: usize,
    /// Of [`Funnel::blunders`], those chosen from the engine's lines.
    pub engine_blunders: usize,
    /// Blunder positions the probe keeps.
    pub probed: usize,
    /// Probed positions the screen drops (no full search spent on them).
    pub screened_out: usize,
    /// Positions cooked with the full line searches.
    pub cooked: usize,
    /// Cooked positions that are no puzzle, by reason.
    pub rejected: BTreeMap<String, usize>,
    /// Puzzles found (distinct positions).
    pub found: usize,
    /// Puzzles found again (a position already found).
    pub duplicates: usize,
}

impl Funnel {
    /// A cooked position that is no puzzle.
    pub fn reject(&mut self, reject: &Reject) {
        let key = match reject {
            Reject::Engine(_) => "engine".to_owned(),
            other => other.to_string(),
        };
        *self.rejected.entry(key).or_default() += 1;
    }

    /// Cooked positions rejected, all reasons together.
    pub fn rejected_total(&self) -> usize {
        self.rejected.values().sum()
    }

    /// The share (0..1) of cooked positions that became puzzles (found or
    /// duplicates); 0 before any was cooked.
    pub fn cook_yield(&self) -> f64 {
        if self.cooked == 0 {
            0.0
        } else {
            (self.found + self.duplicates) as f64 / self.cooked as f64
        }
    }

    /// Adds another run's counts to this one.
    pub fn add(&mut self, other: &Funnel) {
        self.games += other.games;
        self.plies += other.plies;
        self.level_moments += other.level_moments;
        self.blunders += other.blunders;
        self.engine_blunders += other.engine_blunders;
        self.probed += other.probed;
        self.screened_out += other.screened_out;
        self.cooked += other.cooked;
        for (reason, n) in &other.rejected {
            *self.rejected.entry(reason.clone()).or_default() += n;
        }
        self.found += other.found;
        self.duplicates += other.duplicates;
    }
}

impl fmt::Display for Funnel {
    /// One line: each stage's count, then the rejects by reason.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games, {} plies → {} level moments → {} blunders ({} engine-chosen) → {} probed → \
             {} screened out → {} cooked → {} puzzles ({:.0} % of cooked), {} duplicates",
            self.games,
            self.plies,
            self.level_moments,
            self.blunders,
            self.engine_blunders,
            self.probed,
            self.screened_out,
            self.cooked,
            self.found,
            100.0 * self.cook_yield(),
            self.duplicates,
        )?;
        if !self.rejected.is_empty() {
            let reasons: Vec<String> = self
                .rejected
                .iter()
                .map(|(reason, n)| format!("{n} {reason}"))
                .collect();
            write!(f, "; rejected: {}", reasons.join(", "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_are_counted_by_reason() {
        let mut funnel = Funnel::default();
        funnel.reject(&Reject::NotUnique);
        funnel.reject(&Reject::NotUnique);
        funnel.reject(&Reject::NoMaterialGain);
        funnel.reject(&Reject::Engine("no move".to_owned()));
        funnel.reject(&Reject::Engine("illegal".to_owned()));
        assert_eq!(funnel.rejected_total(), 5);
        assert_eq!(funnel.rejected.get("two moves win equally"), Some(&2));
        assert_eq!(funnel.rejected.get("engine"), Some(&2));
    }

    #[test]
    fn runs_add_up_and_print_on_one_line() {
        let mut a = Funnel {
            games: 2,
            plies: 150,
            level_moments: 60,
            blunders: 30,
            engine_blunders: 25,
            probed: 12,
            screened_out: 4,
            cooked: 8,
            found: 5,
            duplicates: 1,
            ..Funnel::default()
        };
        a.reject(&Reject::NotUnique);
        a.reject(&Reject::NotWinningEnough);
        let mut b = a.clone();
        b.reject(&Reject::NotUnique);
        b.add(&a);
        assert_eq!(b.games, 4);
        assert_eq!(b.cooked, 16);
        assert_eq!(b.found, 10);
        assert_eq!(b.rejected.get("two moves win equally"), Some(&3));
        assert!((a.cook_yield() - 0.75).abs() < 1e-9);
        assert_eq!(Funnel::default().cook_yield(), 0.0);
        let line = a.to_string();
        assert!(!line.contains('\n'));
        assert!(
            line.starts_with(
                "2 games, 150 plies → 60 level moments → 30 blunders (25 engine-chosen) → \
                 12 probed → 4 screened out → 8 cooked → 5 puzzles (75 % of cooked), 1 duplicates"
            ),
            "{line}"
        );
        assert!(
            line.ends_with(
                "rejected: 1 the advantage line fell below +2.00, 1 two moves win equally"
            ),
            "{line}"
        );
    }
}
