# What images say to screen readers: Discord's attachment description
# (at most 1,024 characters). A board in full (src/chess/describe.rs),
# a chart or a crosstable in one line.
alt-to-move = { $color } to move.
alt-game-over = Game over: { $ending }.
alt-last-move = Last move: { $san }.
alt-check = Check.
alt-side = { $color }: { $pieces }.
alt-pawns = pawns { $squares }
# Crazyhouse: the pieces a side holds and may drop, e.g. "in hand Q, N ×2, P".
alt-in-hand = in hand { $pieces }
# A pawn in hand, as the other pieces are named by their letters (Q, N).
alt-pawn-in-hand = P
# Three-check: the checks each side has given (three win).
alt-checks-given = Checks given: White { $white }, Black { $black }, of 3.
alt-game-number = game #{ $id }
alt-replay = Replay of { $game }, { $white } (White) vs { $black } (Black), { $count ->
    [one] 1 half-move
   *[other] { $count } half-moves
}. Final position: { $position }
alt-replay-unnamed = Replay of { $game }, { $count ->
    [one] 1 half-move
   *[other] { $count } half-moves
}. Final position: { $position }
alt-points-chart = Chart of { $name }'s points over { $count ->
    [one] 1 game
   *[other] { $count } games
}: from { $first } to { $last }, lowest { $low }, highest { $high }.
alt-advantage-chart = Advantage chart of game #{ $id } over { $count } half-moves, in pawns from White's side: ends at { $last }, lowest { $low }, highest { $high }; { $marked ->
    [one] 1 bad move marked
   *[other] { $marked } bad moves marked
}.
alt-advantage-chart-pasted = Advantage chart of the pasted game over { $count } half-moves, in pawns from White's side: ends at { $last }, lowest { $low }, highest { $high }; { $marked ->
    [one] 1 bad move marked
   *[other] { $marked } bad moves marked
}.
alt-crosstable = Crosstable: { $title }. { $players ->
    [one] 1 player
   *[other] { $players } players
}; first: { $leader } ({ $score }).
alt-crosstable-empty = Crosstable: { $title }. No players yet.
alt-privacy-export = Your data as a JSON file, table by table.
alt-pasted-game = the pasted game
