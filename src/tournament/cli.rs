//! `chessbot pairing …` and `chessbot standings …`: the command-line
//! interface FIDE-endorsed pairing engines offer (JaVaFo and bbpPairings
//! conventions), over the pure core.
//!
//! - `pairing --dutch IN.trf -p [OUT]`: pair the next round; the output is
//!   the number of pairs, then `WHITE BLACK` per line, a PAB as `N 0`.
//! - `pairing --dutch IN.trf -c`: check every round of IN against the
//!   engine (the free pairing checker); differences listed, exit 1 if any.
//! - `pairing --berger N [--double]`: print the Berger table.
//! - `standings IN.trf [--tiebreak sb,buchholz,…]`.
//!
//! Bad input (unreadable or malformed TRF, a file without players, a round
//! that cannot be paired, nothing to check or a round the checker cannot
//! read, unknown tie-breaks) is a [`CliError::BadInput`]: exit status 2.
//! Files are read in any line-end convention and in UTF-8 or Latin-1.

use std::{fmt::Write as _, path::PathBuf};

use super::{
    berger, dutch,
    model::{Outcome, Pair, Tournament},
    standings::{self, TieBreak},
    trf,
};

/// Arguments of `chessbot pairing`.
#[derive(Debug, Clone, clap::Args)]
pub struct PairingArgs {
    /// Pair by the FIDE Dutch system (C.04.3) the tournament in this TRF file.
    #[arg(long, value_name = "INPUT.trf", conflicts_with = "berger")]
    pub dutch: Option<PathBuf>,
    /// Pair the next round; write the pairs to OUTPUT (default: standard output).
    #[arg(short = 'p', num_args = 0..=1, value_name = "OUTPUT", conflicts_with = "check")]
    pub pair: Option<Option<PathBuf>>,
    /// Check every round of the input against what the engine pairs.
    #[arg(short = 'c')]
    pub check: bool,
    /// Print the Berger round-robin table for N players.
    #[arg(long, value_name = "N")]
    pub berger: Option<u32>,
    /// With --berger: a double round robin.
    #[arg(long, requires = "berger")]
    pub double: bool,
}

/// Arguments of `chessbot standings`.
#[derive(Debug, Clone, clap::Args)]
pub struct StandingsArgs {
    /// The tournament (TRF file).
    pub input: PathBuf,
    /// Tie-breaks in order: sb, buchholz, buchholz-cut1, median-buchholz, de, wins.
    #[arg(long, value_delimiter = ',')]
    pub tiebreak: Vec<String>,
}

/// Why a command failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// The input is wrong (exit status 2).
    BadInput(String),
    /// The command ran but could not finish (exit status 1).
    Failed(String),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::BadInput(m) | CliError::Failed(m) => f.write_str(m),
        }
    }
}

impl CliError {
    /// The process exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::BadInput(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

/// What a command printed and its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    pub text: String,
    pub code: u8,
}

/// Reads a TRF file as other programs write them (see [`trf::decode`]).
fn read(path: &PathBuf) -> Result<Tournament, CliError> {
    let bytes =
        std::fs::read(path).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
    trf::parse(&trf::decode(&bytes))
        .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))
}

/// Runs `chessbot pairing`.
pub fn pairing(args: &PairingArgs) -> Result<Done, CliError> {
    if let Some(n) = args.berger {
        if n < 2 {
            return Err(CliError::BadInput(
                "--berger needs at least 2 players".into(),
            ));
        }
        return Ok(Done {
            text: berger::render(&berger::berger(n, args.double)),
            code: 0,
        });
    }
    let Some(input) = &args.dutch else {
        return Err(CliError::BadInput(
            "say what to pair: --dutch INPUT.trf (-p or -c), or --berger N".into(),
        ));
    };
    let t = read(input)?;
    if args.check {
        return check(&t).map_err(|e| CliError::BadInput(format!("{}: {e}", input.display())));
    }
    let Some(out) = &args.pair else {
        return Err(CliError::BadInput(
            "--dutch needs -p (pair) or -c (check)".into(),
        ));
    };
    let round = t.paired_rounds() + 1;
    if let Some(total) = t.total_rounds
        && round > total
    {
        return Err(CliError::BadInput(format!(
            "{}: all {total} rounds (XXR) are already paired",
            input.display()
        )));
    }
    let pairs = dutch::pair_round(&t, round)
        .map_err(|e| CliError::BadInput(format!("{}: round {round}: {e}", input.display())))?;
    let text = render_pairs(&pairs);
    match out {
        Some(path) => {
            std::fs::write(path, &text)
                .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))?;
            Ok(Done {
                text: String::new(),
                code: 0,
            })
        }
        None => Ok(Done { text, code: 0 }),
    }
}

/// The JaVaFo/bbpPairings pairs format.
pub fn render_pairs(pairs: &[Pair]) -> String {
    let mut s = format!("{}\n", pairs.len());
    for p in pairs {
        let _ = writeln!(s, "{} {}", p.white, p.black.unwrap_or(0));
    }
    s
}

/// The tournament as it stood when round `round` was paired: the rounds
/// before it, plus the absences already entered for it.
pub fn before_round(t: &Tournament, round: u32) -> Tournament {
    let mut t = t.clone();
    let idx = round as usize - 1;
    for p in &mut t.players {
        p.rounds.truncate(idx + 1);
        if let Some(Some(e)) = p.rounds.get(idx)
            && (e.opponent.is_some() || e.outcome == Outcome::PairingBye)
        {
            p.rounds[idx] = None;
        }
    }
    t
}

/// The pairs recorded for round `round` (white first; PAB as black `None`).
pub fn recorded_pairs(t: &Tournament, round: u32) -> Vec<Pair> {
    let mut out = Vec::new();
    for p in &t.players {
        if let Some(e) = p.entry(round) {
            match (e.opponent, e.colour) {
                (Some(o), Some(crate::tournament::Colour::White)) => out.push(Pair {
                    white: p.pno,
                    black: Some(o),
                }),
                (None, _) if e.outcome == Outcome::PairingBye => out.push(Pair {
                    white: p.pno,
                    black: None,
                }),
                _ => {}
            }
        }
    }
    out
}

/// The pairing checker: every round of `t` against the engine. A file
/// with nothing to check (no round paired) or a round whose pairings it
/// cannot read (no pair recorded) is an error naming it: agreement on
/// nothing is no agreement.
pub fn check(t: &Tournament) -> Result<Done, String> {
    let mut text = String::new();
    let mut differences = 0;
    let rounds = t.paired_rounds();
    if rounds == 0 {
        return Err(format!(
            "no round is paired in the file ({} players, no games or byes): nothing to check",
            t.players.len()
        ));
    }
    for r in 1..=rounds {
        let before = before_round(t, r);
        let recorded = recorded_pairs(t, r);
        if recorded.is_empty() {
            return Err(format!(
                "round {r}: no pairing is recorded (no game with a colour, no pairing-allocated bye), so it cannot be checked"
            ));
        }
        match dutch::pair_round(&before, r) {
            Err(e) => {
                differences += 1;
                let _ = writeln!(text, "round {r}: the engine cannot pair it: {e}");
            }
            Ok(ours) => {
                let missing: Vec<&Pair> = recorded.iter().filter(|p| !ours.contains(p)).collect();
                let extra: Vec<&Pair> = ours.iter().filter(|p| !recorded.contains(p)).collect();
                if missing.is_empty() && extra.is_empty() {
                    let _ = writeln!(text, "round {r}: same pairing ({} boards)", ours.len());
                } else {
                    differences += 1;
                    let show = |v: &[&Pair]| {
                        v.iter()
                            .map(|p| format!("{}-{}", p.white, p.black.unwrap_or(0)))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let _ = writeln!(
                        text,
                        "round {r}: differs: file has {} ; engine pairs {}",
                        show(&missing),
                        show(&extra)
                    );
                }
            }
        }
    }
    let _ = writeln!(
        text,
        "{differences} of {rounds} rounds differ from the FIDE Dutch engine"
    );
    Ok(Done {
        text,
        code: u8::from(differences > 0),
    })
}

/// Runs `chessbot standings`.
pub fn standings_cmd(args: &StandingsArgs) -> Result<Done, CliError> {
    let tbs: Vec<TieBreak> = args
        .tiebreak
        .iter()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.parse().map_err(CliError::BadInput))
        .collect::<Result<_, _>>()?;
    let t = read(&args.input)?;
    let rows = standings::standings(&t, &tbs);
    Ok(Done {
        text: standings::render(&rows, &tbs),
        code: 0,
    })
}
