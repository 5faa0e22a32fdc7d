//! Tournaments: who plays whom, and who is ahead. A pure core (no I/O, no
//! async, no database, no Discord): the bot's tournament service
//! (`service::tournament`) and the `chessbot pairing` / `chessbot
//! standings` commands sit on top.
//!
//! - [`model`]: players, rounds, results and the scoring system, the common
//!   language of every other module (it mirrors what a FIDE TRF records).
//! - [`trf`]: reading and writing FIDE's Tournament Report File (TRF-2026 and
//!   the TRF(x) extensions pairing engines use: `XXR`, `XXC`).
//! - [`dutch`]: the FIDE (Dutch) Swiss system, Handbook C.04.3.
//! - [`berger`]: round robin by FIDE's Berger tables (C.05 Annex 1), and
//!   group round robin.
//! - [`knockout`]: the seeded bracket, multi-game matches and deciders.
//! - [`team`]: team matches (ordered boards) and team round robins.
//! - [`standings`]: ranking with shared places and the tie-breaks of FIDE
//!   C.07 (Sonneborn–Berger, Buchholz and its cuts, direct encounter, wins).
//! - [`event`]: a competition as the bot runs it: what to pair next, its
//!   FIDE record and its crosstable.
//! - [`cli`]: the command-line front end (JaVaFo/bbpPairings conventions).
//!
//! See docs/tournaments.md for the overview and the command line.

pub mod berger;
pub mod cli;
pub mod dutch;
pub mod event;
pub mod knockout;
pub mod model;
pub mod standings;
pub mod team;
pub mod trf;

pub use model::{Colour, Entry, Outcome, Player, Pno, Score, Scoring, Tournament};
