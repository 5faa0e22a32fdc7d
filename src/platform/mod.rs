//! Platform adapters: thin layers that turn a platform's events into
//! service commands and the service's replies into the platform's messages.

pub mod console;
pub mod discord;
pub mod web;
