//! `chessbot rating …`: the rating scheme from the command line.
//!
//! `chessbot rating preview 150 100` prints, for each player, what a win, a
//! draw and a loss would change, with the resulting points and level.

use std::fmt::Write as _;

use super::{preview, Outcomes, Points};

/// Arguments of `chessbot rating`.
#[derive(Debug, Clone, clap::Args)]
pub struct RatingArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: RatingCommand,
}

/// The `rating` subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum RatingCommand {
    /// Show what a win, a draw and a loss would change for two players.
    Preview {
        /// Points of player A before the game (e.g. 150, 107.5, -3.25).
        #[arg(allow_negative_numbers = true)]
        a: Points,
        /// Points of player B before the game.
        #[arg(allow_negative_numbers = true)]
        b: Points,
    },
}

/// Runs a `rating` subcommand and returns the text to print.
///
/// ```
/// use chessbot::rating::cli::{run, RatingArgs, RatingCommand};
/// let out = run(RatingArgs {
///     command: RatingCommand::Preview { a: "150".parse()?, b: "100".parse()? },
/// })?;
/// assert!(out.contains("win   +6"));
/// # Ok::<(), anyhow::Error>(())
/// ```
pub fn run(args: RatingArgs) -> anyhow::Result<String> {
    match args.command {
        RatingCommand::Preview { a, b } => Ok(render_preview(a, b)),
    }
}

/// The text of `chessbot rating preview a b`.
pub fn render_preview(a: Points, b: Points) -> String {
    let p = preview(a, b);
    let mut out = String::new();
    let d = (a - b).abs();
    let _ = writeln!(out, "A: {a} vs B: {b} (difference {d})");
    player(&mut out, "A", &p.a);
    player(&mut out, "B", &p.b);
    out
}

fn player(out: &mut String, name: &str, o: &Outcomes) {
    let level = o.points.level();
    let _ = writeln!(
        out,
        "Player {name}: {} ({}, {})",
        o.points,
        level.name_en(),
        level.name_zh()
    );
    for (label, delta) in [("win", o.win), ("draw", o.draw), ("loss", o.loss)] {
        let after = o.points + delta;
        let level = after.level();
        let _ = writeln!(
            out,
            "  {label:<5} {:<8} → {after} ({}, {})",
            delta.signed().to_string(),
            level.name_en(),
            level.name_zh()
        );
    }
}
