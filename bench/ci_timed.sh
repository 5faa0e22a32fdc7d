#!/usr/bin/env bash
# Times `.ci/run` on a fresh clone of one commit, as CI runs it: every line
# of its output gets the seconds since the start, so the phases (fmt,
# clippy, the test build, each test binary) read off the log.
#
#   bench/ci_timed.sh REV CACHE_DIR LOG
#
# An empty CACHE_DIR gives the cold figure; running again with the same
# CACHE_DIR gives the warm one (docs/benchmarks.md, issue 24).
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 REV CACHE_DIR LOG" >&2
  exit 2
fi
rev=$1 cache=$2 log=$3
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
git clone -q "$repo" "$work/chessbot" && cd "$work/chessbot" && git checkout -q "$rev" || exit 2
mkdir -p "$cache"
start=$(date +%s.%N)
( CHESSBOT_CI_TARGET="$cache" CI=true bash .ci/run 2>&1; echo "EXIT $?" ) |
  while IFS= read -r line; do
    printf '%7.1f %s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "$line"
  done >"$log"
rm -rf "$work"
tail -n 1 "$log"
