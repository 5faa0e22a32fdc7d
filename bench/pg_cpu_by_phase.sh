#!/bin/sh
# Where the CPU of a move goes on PostgreSQL, ours against the floor's, by
# part (docs/benchmarks.md, "Issue 24: the CPU of a move, part by part"):
# samples the whole machine with `perf record` (Debian's linux-perf) while
# `chessbot bench --database postgres` runs, then splits the samples
# between ours and the floor.
#
# The bench runs ours and the floor in turns (four rounds of each), so the
# split is by time: a 50 ms slice is ours when the bot's samples in it (or
# in the slices on both sides) include the service's code or its message
# catalogue, which the floor never runs; every other slice of the run is
# the floor's. Slices where one part hands over to the other land on one
# side: a few per cent of either figure.
#
#   bench/pg_cpu_by_phase.sh [chessbot binary] [moves]
#       (default target/release/chessbot, 10000; run as root, or with
#        kernel.perf_event_paranoid at most 0, so the server's processes
#        are sampled too)
set -eu
BIN=${1:-target/release/chessbot}
MOVES=${2:-10000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
perf record -a -F 1999 -o "$TMP/perf.data" -- \
    "$BIN" bench --database postgres --games 200 --moves "$MOVES" --clock running \
    >"$TMP/bench.txt" 2>"$TMP/perf.err"
grep -E '^(ours|floor) *:|cost ratio|CPU per move' "$TMP/bench.txt"
perf script -i "$TMP/perf.data" -F comm,time,ip,sym 2>/dev/null >"$TMP/samples.txt"
# Each side timed `MOVES` moves under load and a tenth of that (at least
# 200) one at a time.
SEQUENTIAL=$((MOVES / 10))
[ "$SEQUENTIAL" -lt 200 ] && SEQUENTIAL=200
awk -v moves=$((MOVES + SEQUENTIAL)) -v hz=1999 '
function bot(c) { return c == "tokio-rt-worker" || c == "chessbot" }
function slice(t) { sub(":", "", t); return int(t * 20) }
FNR == NR {
    if (bot($1) && $0 ~ /chessbot::service::|fluent|i18n/) ours[slice($2)] = 1
    if (bot($1)) { s = slice($2); if (first == "" || s < first) first = s; if (s > last) last = s }
    next
}
{
    s = slice($2)
    if (s < first || s > last) next
    side = (ours[s] || (ours[s - 1] && ours[s + 1])) ? "ours" : "floor"
    if ($1 == "postgres") {
        part = ($0 ~ /\[k\]|_raw_spin|iowrite|tcp_|irq|softirq|syscall|schedule|finish_task/) ? \
            "server: kernel" : "server: postgres"
    } else if (bot($1)) {
        if ($0 ~ /chessbot::render::|simd_adler32|crc32fast/) part = "bot: render"
        else if ($0 ~ /sqlx/) part = "bot: sqlx"
        else if ($0 ~ /fluent|i18n/) part = "bot: messages"
        else if ($0 ~ /shakmaty|chessbot::chess::/) part = "bot: rules"
        else if ($0 ~ /_raw_spin|tcp_|irq|softirq|syscall|schedule|finish_task|futex|epoll|kmem|kfree/) part = "bot: kernel"
        else if ($0 ~ /malloc|free|_int_|unlink_chunk|mem(move|set|cmp|cpy)/) part = "bot: allocation, copies"
        else part = "bot: service, runtime, rest"
    } else next
    n[side, part]++; parts[part] = 1
}
END {
    for (p in parts) printf "%-30s %8.3f %8.3f\n", p, n["ours", p] / hz / moves * 1000, n["floor", p] / hz / moves * 1000
}' "$TMP/samples.txt" "$TMP/samples.txt" | sort >"$TMP/parts.txt"
printf '\nCPU per move, ms (%s moves a side, from samples)\n' $((MOVES + SEQUENTIAL))
printf '%-30s %8s %8s\n' part ours floor
cat "$TMP/parts.txt"
