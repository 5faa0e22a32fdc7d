//! Shared test support, included with `mod support;` by each integration
//! test. Each test binary uses only part of it, hence the `dead_code` and `unused_imports` (re-exports) allows:
//! without it every helper one test does not call would warn.
#![allow(dead_code, unused_imports)]

pub mod fake_discord;
