//! # chessbot
//!
//! A chess bot for Discord: friends challenge each other, play correspondence
//! games over days (or live games with a clock), see a crisp board image after
//! every move and climb their server's ladder, kept with the club
//! level/points scheme.
//!
//! ## Architecture
//!
//! ```text
//! Discord (serenity + poise)     console (stdin/stdout)      ← platform adapters: thin
//!             \                       /
//!              Command + Actor  →  service  →  Reply          ← platform-neutral bot
//!                                    |
//!         chess (shakmaty)   rating   render (resvg)   clock   ← pure cores, no I/O
//!                                    |
//!                              store (sqlx)                   ← SQLite default, PostgreSQL to scale out
//! ```
//!
//! - [`platform`] adapters turn a platform event into a [`service::Command`]
//!   with its [`service::Actor`], and a [`service::Reply`] back into the
//!   platform's message. No rule, SQL or rendering lives there.
//! - [`service`] owns the behaviour: per-channel sessions, challenges, moves,
//!   draws, resignations, clocks, ratings and leaderboards, in domain types
//!   only (no Discord type ever reaches it).
//! - The pure cores: [`chess`] (a game over shakmaty: move input, every way a
//!   game ends, PGN), [`rating`] (exact integer hundredths), [`render`]
//!   (position → PNG bytes in memory) and [`clock`] (time controls and
//!   deadlines, with an injectable clock so tests can move time).
//! - [`store`] persists everything through one API, implemented on SQLite
//!   (the zero-setup default) and PostgreSQL (several processes, one database).
//! - [`i18n`]: the message catalogues (English and Simplified Chinese);
//!   the service chooses the language, adapters pass locales in.
//! - [`tournament`]: pairings (FIDE Dutch Swiss, Berger round robin,
//!   knockout, team matches), standings with tie-breaks, and FIDE TRF files.
//! - For operators: [`config`] (the TOML file and environment, validated at
//!   start-up), [`telemetry`] (human or JSON logs) and [`metrics`]
//!   (Prometheus counters the service bumps, served on `/metrics`).
//!
//! The path of one move: adapter → `Command::Move` → the service takes the
//! channel's game lock → [`chess::input`] parses the text against the position
//! → the store commits the move (and any result and rating change) in one
//! transaction with a version check → the board is rendered → `Reply`. The
//! reply is built only after the commit, so an acknowledged move is never lost.

pub mod backup;
pub mod bench;
pub mod chess;
pub mod clock;
pub mod config;
pub mod engine;
pub mod i18n;
pub mod limits;
pub mod metrics;
pub mod platform;
pub mod puzzle;
pub mod rating;
pub mod render;
pub mod service;
pub mod store;
pub mod telemetry;
pub mod tournament;
