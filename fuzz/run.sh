#!/usr/bin/env bash
# Fuzz chessbot's text inputs for a bounded time: `fuzz/run.sh [seconds per target]`
# (default 300; the issue asks for at least 600 per target before a release).
#
# Targets (proptest properties, see tests/service/fuzz.rs and tests/core/move_input.rs):
# move input (two), PGN import, FEN, time-control strings, button custom ids,
# console protocol lines, slash-command option values through the console
# parser and the real service, and board images (any frame the renderer
# takes must decode to exactly the pixels drawn). Each target runs in batches of
# PROPTEST_CASES (default 20000) cases, each batch with a fresh random seed,
# until its time is up. A failure stops the script; proptest saves the
# failing input under proptest-regressions/, which then replays first in
# every `cargo test`: add it as a named regression test in tests/service/fuzz.rs too.
#
# With LIBFUZZER=1 the move-input target also runs under libFuzzer
# (fuzz/fuzz_targets/move_input.rs) for the same time first; that needs a
# nightly toolchain and cargo-fuzz (`rustup toolchain install nightly`,
# `cargo install cargo-fuzz`) and an ASan build of the crate. CI runs every
# target at its small default size in `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-300}"
cases="${PROPTEST_CASES:-20000}"
targets=(
    "core move_input::arbitrary_text_never_panics"
    "core move_input::move_like_text_never_panics"
    "service fuzz::pgn_import"
    "service fuzz::fen"
    "service fuzz::time_control"
    "service fuzz::button_id"
    "service fuzz::console_line"
    "service fuzz::slash_options"
    "service fuzz::board_png"
)
if [[ "${LIBFUZZER:-0}" == 1 ]]; then
    (cd fuzz && cargo +nightly fuzz run move_input -- -max_total_time="$secs")
fi
# Build once and run the test executables directly: no cargo per batch, and
# editing the sources while this runs does not change what is fuzzed.
declare -A exe
while read -r name path; do
    exe[$name]=$path
done < <(cargo test --release --no-run --test service --test core --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "test" in m["target"]["kind"]:
        print(m["target"]["name"], m["executable"])')
for suite in service core; do
    [[ -n "${exe[$suite]:-}" ]] || { echo "run.sh: could not build tests/$suite/" >&2; exit 1; }
done
for target in "${targets[@]}"; do
    read -r file name <<<"$target"
    start=$SECONDS
    batches=0
    while ((SECONDS - start < secs)); do
        PROPTEST_CASES="$cases" "${exe[$file]}" -q "$name" --exact >/dev/null 2>&1 || {
            echo "run.sh: $file::$name FAILED; rerunning to show the failure:" >&2
            PROPTEST_CASES="$cases" "${exe[$file]}" "$name" --exact
            exit 1
        }
        batches=$((batches + 1))
    done
    echo "$file::$name: $((batches * cases)) cases in $((SECONDS - start)) s, no failure"
done
