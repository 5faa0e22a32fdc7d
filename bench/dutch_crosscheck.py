#!/usr/bin/env python3
"""Cross-check chessbot's FIDE Dutch engine against an independent one.

Plays random Swiss tournaments (6-200 players, 3-11 rounds, draws,
forfeits, requested byes, withdrawals). Results are drawn at random and
written back to the TRF after every round. Two oracles:

- `--oracle-bin PATH`: a FIDE pairing program with the command line every
  endorsed engine offers (`PATH --dutch IN.trf -p OUT`), for example a
  build of bbpPairings or JaVaFo. Every round is paired by both programs
  from the same TRF and the outputs are compared exactly: the same boards,
  colours and board order. The tournament goes on with the oracle's
  pairing, so the histories are the endorsed engine's.
- otherwise the PyPI package caissify-pairings: every round is paired by
  `chessbot pairing --dutch FILE.trf -p`, and the finished TRF goes to its
  `check_trf`, which re-pairs every round with its own Dutch engine (pairs
  compared, not colours).

Each round where the two disagree is counted and written to the report.

    python3 bench/dutch_crosscheck.py --chessbot target/release/chessbot \
        --tournaments 1000 --seed 1 --report /tmp/crosscheck.txt \
        [--oracle-bin /path/to/bbpPairings.exe]

Exit status: 0 when the run completed (disagreements are data, listed in
the report), 2 when chessbot failed to pair a round it should pair, 3 when
the oracle is not installed.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

# Points per result code, in tenths (TRF: U is the PAB, F/H/Z byes).
POINTS = {"1": 10, "+": 10, "U": 10, "F": 10, "=": 5, "H": 5, "0": 0, "-": 0, "Z": 0}


def player_line(pno, rating, rounds):
    name = f"Player {pno:03d}"
    points = sum(POINTS[e[2]] for e in rounds if e is not None)
    score = f"{points // 10}.{points % 10}"
    head = f"001 {pno:>4}      {name:<33} {rating:>4} {'':>3} {'':>11} {'':>10} {score:>4} {pno:>4}"
    body = ""
    for entry in rounds:
        if entry is None:
            body += " " * 10
        else:
            opp, colour, result = entry
            body += f"  {opp:04d} {colour} {result}"
    return (head + body).rstrip()


def write_trf(path, n, total, ratings, rounds):
    lines = ["012 Random Swiss", f"XXR {total}", "XXC white1"]
    for pno in range(1, n + 1):
        lines.append(player_line(pno, ratings[pno], rounds[pno]))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def parse_pairs(text):
    lines = text.split("\n")
    count = int(lines[0])
    return [tuple(int(x) for x in line.split()) for line in lines[1 : 1 + count]]


def pair(chessbot, path):
    out = subprocess.run(
        [chessbot, "pairing", "--dutch", path, "-p"],
        capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return parse_pairs(out.stdout)


def pair_with_oracle(oracle, path):
    """The oracle's pairing, or None when it finds the round unpairable."""
    out_path = path + ".oracle"
    if os.path.exists(out_path):
        os.remove(out_path)
    out = subprocess.run(
        [oracle, "--dutch", path, "-p", out_path],
        capture_output=True, text=True, check=False,
    )
    if out.returncode == 1:
        return None
    if out.returncode != 0:
        raise RuntimeError("oracle: " + (out.stderr or out.stdout).strip())
    with open(out_path) as f:
        return parse_pairs(f.read())


def play(rng, n, total, chessbot, tmp, oracle=None, differences=None):
    # Floored so that big fields keep four-digit ratings (TRF columns 49-52).
    ratings = {p: max(1000, 2400 - 5 * p) for p in range(1, n + 1)}
    rounds = {p: [] for p in range(1, n + 1)}
    withdrawn = set()
    path = os.path.join(tmp, "t.trf")
    for r in range(1, total + 1):
        for p in range(1, n + 1):
            rounds[p].append(None)
        # Withdrawals (absent from here on) and requested byes for this round.
        for p in range(1, n + 1):
            if p not in withdrawn and rng.random() < 0.01:
                withdrawn.add(p)
            if p in withdrawn:
                rounds[p][r - 1] = (0, "-", "Z")
            elif rng.random() < 0.03:
                rounds[p][r - 1] = (0, "-", rng.choice("HZ"))
        active = [p for p in range(1, n + 1) if rounds[p][r - 1] is None]
        if len(active) < 2:
            return r - 1, rounds
        write_trf(path, n, total, ratings, rounds)
        try:
            pairs = pair(chessbot, path)
        except RuntimeError as e:
            # A round no pairing can satisfy (withdrawals leave too few
            # opponents): the tournament ends there, as an arbiter would.
            if "cannot be paired" not in str(e):
                raise
            pairs = None
        if oracle:
            theirs = pair_with_oracle(oracle, path)
            differences.append((r, pairs, theirs))
            pairs = theirs
        if pairs is None:
            for p in range(1, n + 1):
                rounds[p].pop()
            write_trf(path, n, total, ratings, rounds)
            return r - 1, rounds
        for w, b in pairs:
            if b == 0:
                rounds[w][r - 1] = (0, "-", "U")
                continue
            x = rng.random()
            if x < 0.03:
                res = ("+", "-")
            elif x < 0.05:
                res = ("-", "+")
            elif x < 0.38:
                res = ("1", "0")
            elif x < 0.68:
                res = ("=", "=")
            else:
                res = ("0", "1")
            rounds[w][r - 1] = (b, "w", res[0])
            rounds[b][r - 1] = (w, "b", res[1])
    write_trf(path, n, total, ratings, rounds)
    return total, rounds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chessbot", default="target/debug/chessbot")
    ap.add_argument("--tournaments", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-players", type=int, default=6)
    ap.add_argument("--max-players", type=int, default=200)
    ap.add_argument("--report", default=None)
    ap.add_argument("--keep", default=None, help="folder to keep the TRF of each tournament in")
    ap.add_argument("--oracle-bin", default=None, help="a FIDE pairing program (--dutch IN -p OUT)")
    args = ap.parse_args()
    check_trf = None
    if not args.oracle_bin:
        try:
            from caissify_pairings.fpc import check_trf
        except ImportError:  # pragma: no cover - environment check
            print("caissify-pairings is not installed (pip install caissify-pairings)")
            sys.exit(3)

    rng = random.Random(args.seed)
    rounds_total = rounds_same = 0
    report = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.tournaments):
            n = rng.randint(args.min_players, args.max_players)
            total = rng.randint(3, 11)
            differences = []
            try:
                played, _ = play(rng, n, total, args.chessbot, tmp, args.oracle_bin, differences)
            except RuntimeError as e:
                print(f"tournament {k}: chessbot failed: {e}")
                sys.exit(2)
            with open(os.path.join(tmp, "t.trf")) as f:
                trf = f.read()
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                with open(os.path.join(args.keep, f"t{k}.trf"), "w") as f:
                    f.write(trf)
            label = f"tournament {k} (seed {args.seed}, {n} players, {total} rounds)"
            for r, ours, theirs in differences:
                rounds_total += 1
                if ours == theirs:
                    rounds_same += 1
                else:
                    report.append(f"{label} round {r}: chessbot {ours}; oracle {theirs}")
            if check_trf is None:
                continue
            result = check_trf(trf)
            for rd in result["rounds"]:
                rounds_total += 1
                if rd["match"]:
                    rounds_same += 1
                else:
                    report.append(
                        f"{label} round {rd['round']}: "
                        + "; ".join(map(str, rd["discrepancies"][:6]))
                    )
    pct = 100.0 * rounds_same / max(rounds_total, 1)
    summary = (
        f"{args.tournaments} tournaments, {rounds_total} rounds: "
        f"{rounds_same} paired identically by the oracle ({pct:.1f}%), "
        f"{rounds_total - rounds_same} differ"
    )
    print(summary)
    if args.report:
        with open(args.report, "w") as f:
            f.write(summary + "\n" + "\n".join(report) + "\n")


if __name__ == "__main__":
    main()
