//! The `chessbot` command line.

fn main() {}
