# Variants (issue 27): names, the challenge's variant and start position,
# and the refusals of a bad one.
variant-standard = Standard
variant-chess960 = Chess960
variant-crazyhouse = Crazyhouse
variant-atomic = Atomic
variant-antichess = Antichess
variant-kingofthehill = King of the Hill
variant-threecheck = Three-check
variant-horde = Horde
variant-racingkings = Racing Kings
variant-with-position = { $variant }, start position { $number }
challenge-variant-line = Variant: { $variant }.
challenge-variant-unknown = `{ $variant }` is not a variant played here. Choose one of: { $known }.
challenge-position-standard = A start position number is for Chess960 only: add `variant:chess960`, or leave out `position`.
challenge-position-range = Chess960 start positions are numbered 0 to 959; { $number } is not one of them.
challenge-position-and-fen = Give either a Chess960 start position number or a FEN, not both.
pgn-unknown-variant = The PGN is a game of { $variant }, which is not played here (standard chess, Chess960 and lichess's variants are).
board-field-variant = Variant
variant-caption = { $variant }.
ladder-variant-title = { $variant } leaderboard (page { $page } of { $pages })
ladder-variant-empty = The { $variant } ladder is empty: nobody has finished a rated { $variant } game here yet.
profile-variant-line = { $points } points, { $level } — { $count ->
    [one] 1 rated game
   *[other] { $count } rated games
}: { $wins }W { $draws }D { $losses }L
tournament-variant = Every game is { $variant }; each round starts all its boards from one position drawn by lot.
tournament-round-start = Round { $round }: { $start } (drawn by lot, the same on every board).
opt-tournament-variant-desc = The rules: standard (default), chess960 (one start per round) or a lichess variant
challenge-line-variant = { $time }, { $variant }
# Three-check's counter beside the board: checks this side has given.
board-checks-given = { $count ->
    [one] 1 check given of 3
   *[other] { $count } checks given of 3
}
tournament-variant-usual = Every game is { $variant }, from its usual start.
