# The help text (src/service/help.rs): a title and one section per topic,
# each shown as an embed field on Discord (at most 1,024 characters each,
# 6,000 in all), so that nothing is ever cut.

help-title = chessbot: challenge a friend, play at your own pace, climb the ladder
help-play-name = Playing
help-play =
    • `/challenge [opponent] [color] [rated] [time]`: `time` is `3d` (days per move, the default), `10+5` (live: minutes + seconds per move) or `40/9000:16/3600` (PGN multi-stage). Leave out the opponent for an open challenge.
    • `/accept`, `/decline`, `/cancel` take `challenge:ID` (the number shown with each challenge) when several wait.
    • `/move e4`: SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`), UCI (`e2e4`), long form (`Ng1-f3`), `0-0`, or Chinese piece names (`马f3`, `短易位`). Add `claim_draw:true` to claim a repetition your move creates.
    • `/board`, `/resign`, `/draw offer|accept|decline|claim`, `/abort` (before both sides have moved), `/pgn`.
help-casual-name = Casual games, rematches, replays
help-casual =
    • `/takeback` (or the Takeback button) asks your opponent to take back your last move in a casual game.
    • Finished games: the Rematch button offers a rematch with colours swapped; `/replay [game]` shows a game as an animation.
    • Chess960: `/challenge variant:chess960 [position:0-959]` (a start drawn at random unless you name one), rated on its own ladder (`/leaderboard variant:chess960`). Castle with `O-O`, `O-O-O` or the king onto its rook (`f1h1`). A rematch keeps the variant and the same start position, colours swapped.
    • `/board-orientation white` keeps White at the bottom of your boards (`auto`: from the side to move).
help-time-name = Time and correspondence
help-time =
    • Correspondence deadlines restart at every move; you are reminded 24 h and 1 h before (`/notify dm` for one summary a day by direct message).
    • `/vacation days` pauses your correspondence deadlines (0 ends it; it also ends when you move). The Give +1 day button adds a day to your opponent's move.
    • `/conditional add line:"Nxd5 Qxd5 Nc3"` plays your answers the moment your opponent moves into the line (their move, your answer, …); `/conditional list` (only you see it), `/conditional clear`.
help-computer-name = The computer
help-computer =
    • `/play level:1..8 [color] [time]`: play the computer (Stockfish; 1 is for beginners, 8 is full strength), unrated.
    • `/analyze [game]`: the engine's review of a finished game: advantage chart, each player's accuracy, inaccuracies, mistakes and blunders with the better moves, and an annotated PGN; `/analyze pgn:` (or `file:`) reviews any game pasted as PGN, storing nothing.
help-draws-name = Draws
help-draws =
    • Threefold repetition and the 50-move rule are claimed by the side to move; fivefold repetition, 75 moves, stalemate and dead positions draw automatically.
    • Perpetual check (长将) is a draw through these repetition rules.
help-ladder-name = Ladder and records
help-ladder =
    • `/games`, `/leaderboard`, `/profile`, `/history`, `/rating opponent` (what a win, draw or loss would bring).
    • Everyone starts at 0 points; each 100 points is a level, from 30级 up to 1级 at 3000. `?` marks fewer than 50 rated games.
    • `/puzzle`: a puzzle near your puzzle points, answered with `/move` (a wrong move ends it; one rated attempt per puzzle); `/puzzle source:daily`: today's daily puzzle, privately (or its post's Solve button); `/puzzle source:mine`: puzzles from your own mistakes, found when `/analyze` reviews your game; `/leaderboard puzzles`: the puzzle ladder.
help-tournaments-name = Tournaments
help-tournaments =
    • `/tournament join` a Swiss, round robin, knockout or team event before it starts, and play each pairing in its own thread.
    • `/tournament standings` (with the crosstable), `/tournament pairings [round]`, `/tournament withdraw`, `/tournament export` (TRF and PGN).
    • Moderators: `/tournament create name [format] [rounds] [time] …`, `start`, `result`, `pause`, `resume`, `cancel`, `remove`.
help-server-name = Moderators and your data
help-server =
    • `/settings` (default time, threads, theme, strict illegal moves, language, notation; `puzzle_channel` and `puzzle_time` for the daily puzzle, `puzzles:on` to find puzzles in the server's games); `/settings log` shows who changed what.
    • Your data: `/privacy show` sends what I store about you; `/privacy forget` erases it.
