//! The pure cores and the command-line tools: clock, rules and move input,
//! endings, rating, rendering, catalogues, configuration, the CLI
//! subcommands (render, rating, tournament, pairing), and the metrics page
//! (alone here because it counts commands process-wide).
//!
//! One test binary for the suite (each binary links the whole crate, so
//! a few suites build far faster than one binary per file); each file
//! below is a module of it.

#[path = "../optional/mod.rs"]
mod optional;
#[path = "../support/mod.rs"]
mod support;

mod chess960;
mod chess960_game;
mod clock;
mod config;
mod dutch_oracle;
mod game_endings;
mod i18n;
mod metrics_exposition;
mod move_input;
mod rating;
mod render;
mod render_cli;
mod tournament_cli;
mod variants;
