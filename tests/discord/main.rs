//! The real serenity client against the tests' fake Discord: the fake's own
//! smoke tests and the bot end to end.
//!
//! One test binary for the suite (each binary links the whole crate, so
//! a few suites build far faster than one binary per file); each file
//! below is a module of it.

#[path = "../optional/mod.rs"]
mod optional;
#[path = "../support/mod.rs"]
mod support;

mod activity;
mod browser;
mod club;
mod club_browser;
mod club_support;
mod e2e;
mod smoke;
mod variant_browser;
mod web;
mod web_support;
