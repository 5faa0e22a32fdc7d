#!/usr/bin/env python3
"""How often the computer's level 1 beats a full-strength search of a given
depth: the odds behind `engine::a_game_against_level_1_is_played_to_its_end`
(tests/service/engine.rs), whose own player must practically never lose.

Plays GAMES games with python-chess between two Stockfish processes: White
at Skill Level 20 limited to DEPTH plies and NODES nodes (the test's
player), Black at level 1's settings (src/engine/level.rs: Skill Level 0,
depth 1, 50 ms, 2,000 nodes). Prints the results.

    python3 bench/level1_upsets.py DEPTH NODES GAMES [STOCKFISH]
    python3 bench/level1_upsets.py 6 30000 40      # 2026-12-07: 38 won, 1 lost, 1 drawn
    python3 bench/level1_upsets.py 10 300000 200   # 2026-12-07: 198 won, 2 drawn
"""
import sys

import chess
import chess.engine

depth, nodes, games = (int(a) for a in sys.argv[1:4])
path = sys.argv[4] if len(sys.argv) > 4 else "/usr/games/stockfish"
strong = chess.engine.SimpleEngine.popen_uci(path)
weak = chess.engine.SimpleEngine.popen_uci(path)
strong.configure({"Skill Level": 20})
weak.configure({"Skill Level": 0})
results = {"1-0": 0, "0-1": 0, "1/2-1/2": 0, "*": 0}
for _ in range(games):
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        if board.turn == chess.WHITE:
            limit = chess.engine.Limit(depth=depth, nodes=nodes)
            board.push(strong.play(board, limit).move)
        else:
            limit = chess.engine.Limit(depth=1, nodes=2000, time=0.05)
            board.push(weak.play(board, limit).move)
    results[board.result(claim_draw=True)] += 1
print(f"depth {depth}, {nodes} nodes, {games} games: "
      f"{results['1-0']} won, {results['0-1']} lost, {results['1/2-1/2']} drawn")
strong.quit()
weak.quit()
