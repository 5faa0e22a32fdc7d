//! The service through its commands: console transcripts, bad input, features,
//! conditional moves, tournaments, the engine, faults, schedulers, fuzzing and
//! operations (backups, limits).
//!
//! One test binary for the suite (each binary links the whole crate, so
//! a few suites build far faster than one binary per file); each file
//! below is a module of it.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;
#[path = "../optional/mod.rs"]
mod optional;

mod adjourn;
mod bad_input;
mod conditional;
mod daily_puzzle;
mod engine;
mod faults;
mod features;
mod field_fixes;
mod fuzz;
mod operations;
mod oracle960;
mod oracle_variants;
mod puzzle_solving;
mod puzzles;
mod schedulers;
mod tournament;
mod transcripts;
