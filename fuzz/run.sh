#!/usr/bin/env bash
# Fuzz chessbot's move input for a while (default 300 s): `fuzz/run.sh [seconds]`.
#
# cargo-fuzz needs a nightly toolchain (`rustup toolchain install nightly`,
# `cargo install cargo-fuzz`). Where nightly cannot be had (as on the build
# machine this was written on), this script says so and instead runs the
# proptest fallback with many more cases than CI does; CI runs that fallback
# at its default size as part of `cargo test`.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-300}"
if cargo +nightly --version >/dev/null 2>&1 && cargo +nightly fuzz --version >/dev/null 2>&1; then
    exec cargo +nightly fuzz run move_input -- -max_total_time="$secs"
fi
echo "run.sh: no nightly toolchain with cargo-fuzz here; running the proptest fallback instead." >&2
cd ..
PROPTEST_CASES="${PROPTEST_CASES:-100000}" exec cargo test --test move_input never_panics
