#!/usr/bin/env bash
# Times chessbot's board renderer against python-chess + cairosvg (what most
# Discord chess bots and lichess's web-boardimage use) on the same positions,
# in the same run, and prints the ratio.
#
# Needs python3 with venv, network access to PyPI, and libcairo2
# (apt-get install -y libcairo2). Usage: bench/render_vs_cairosvg.sh
# Environment: RUNS (python runs per case, default 60).
#
# Rows ending in `_cpu` compare thread CPU time, which stays fair when the
# machine is shared; the others are wall-clock medians. startup/tileset rows
# are one-off costs (pieces rasterised, a new theme/size prepared).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-60}

venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check python-chess cairosvg

echo "building and timing chessbot (cargo bench --bench render, quick mode)..." >&2
ours=$(RENDER_BENCH_QUICK=1 cargo bench --quiet --bench render 2>/dev/null)

echo "timing python-chess + cairosvg..." >&2
theirs=$(RUNS="$RUNS" "$venv/bin/python" - <<'PY'
import os, statistics, time
import cairosvg, chess, chess.svg

runs = int(os.environ["RUNS"])
mid = chess.Board("r1bqk2r/pppp1Bpp/2n2n2/2b1p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4")
cases = [
    ("start480", chess.Board(), {}, 480),
    ("middlegame480", mid, {"lastmove": chess.Move.from_uci("c4f7"), "check": chess.E8}, 480),
    ("start800", chess.Board(), {}, 800),
    ("middlegame800", mid, {"lastmove": chess.Move.from_uci("c4f7"), "check": chess.E8}, 800),
]
for name, board, extra, size in cases:
    def once():
        svg = chess.svg.board(board, size=size, **extra)
        return cairosvg.svg2png(bytestring=svg.encode())
    once()
    times, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.thread_time()
        png = once()
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.thread_time() - c) * 1000)
    print(name, f"{statistics.median(times):.4f}", len(png))
    print(name + "_cpu", f"{statistics.median(cpu):.4f}", len(png))
PY
)

printf '%-16s %12s %10s %14s %10s %8s\n' case chessbot_ms bytes cairosvg_ms bytes speedup
while read -r name ms bytes; do
  line=$(grep "^$name " <<<"$theirs" || true)
  if [ -n "$line" ]; then
    read -r _ pms pbytes <<<"$line"
    ratio=$(awk -v a="$pms" -v b="$ms" 'BEGIN { printf "%.0fx", a / b }')
    printf '%-16s %12s %10s %14s %10s %8s\n' "$name" "$ms" "$bytes" "$pms" "$pbytes" "$ratio"
  else
    printf '%-16s %12s %10s %14s %10s %8s\n' "$name" "$ms" "$bytes" - - -
  fi
done <<<"$ours"
