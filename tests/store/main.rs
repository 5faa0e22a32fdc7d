//! The store against SQLite and PostgreSQL: the conformance suites, several
//! processes on one database, and crashes (`kill -9`) losing nothing acknowledged.
//!
//! One test binary for the suite (each binary links the whole crate, so
//! a few suites build far faster than one binary per file); each file
//! below is a module of it.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod conditional_store;
mod crash;
mod multi_process;
mod privacy_conformance;
mod puzzle_store;
mod store_conformance;
mod tournament_store;
