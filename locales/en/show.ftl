# `/show fen:` and `/show pgn:` (src/service/show.rs), and what is wrong
# with a FEN (src/chess/fen_input.rs) or a PGN (src/chess/pgn.rs).
show-one-of = Give one of `fen:` (a position) or `pgn:` (a game, as text or an attached `.pgn` file).
pgn-text-or-file = Give the game as `pgn:` text or as an attached `.pgn` file, not both.
show-position-title = Position
show-position-text = Position shown by { $name }.
show-pgn-caption = { $white } (White) vs { $black } (Black), { $count ->
    [one] 1 move
   *[other] { $count } moves
}: { $outcome }
show-pgn-caption-unnamed = A pasted game, { $count ->
    [one] 1 move
   *[other] { $count } moves
}: { $outcome }
show-pgn-unfinished = no result
show-pgn-no-moves = That PGN has no moves: paste a game like `1. e4 e5 2. Nf3 Nc6`.
show-pgn-too-large = That PGN is { $bytes } bytes; I read at most { $max }.
show-pgn-too-long = That game has { $plies } half-moves; a replay shows at most { $max }.
show-pgn-not-text = That file is not text: attach a `.pgn` file (UTF-8).
pgn-unreadable = That PGN cannot be read: { $reason }.
pgn-not-a-move = `{ $token }` in that PGN is not a move (after { $after ->
    [one] 1 readable move
   *[other] { $after } readable moves
}).
pgn-bad-fen = The PGN's FEN tag is wrong. { $reason }
pgn-illegal-move = Move { $mv } of that PGN is not legal in its position.
pgn-ambiguous-move = Move { $mv } of that PGN is ambiguous: more than one piece can make it; say which (like `Nbd7`).
pgn-move-after-end = Move { $mv } of that PGN comes after the game was already over.
fen-empty = Give a FEN, like `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`.
fen-too-long = That FEN is { $chars } characters long; a FEN has at most { $max }.
fen-too-many-fields = A FEN has six fields (board, side to move, castling, en passant, halfmove clock, move number); that one has { $count }.
fen-bad-board = The board (field { $number } of the FEN, `{ $text }`) cannot be read: it needs eight ranks from 8 down to 1, separated by `/`, each of eight squares: piece letters `KQRBNP` (White) and `kqrbnp` (Black), digits for empty squares.
fen-bad-turn = The side to move (field { $number } of the FEN, `{ $text }`) must be `w` or `b`.
fen-bad-castling = The castling rights (field { $number } of the FEN, `{ $text }`) must be `-` or letters from `KQkq`.
fen-bad-en-passant = The en-passant square (field { $number } of the FEN, `{ $text }`) must be `-` or a square like `e3`.
fen-bad-halfmove = The halfmove clock (field { $number } of the FEN, `{ $text }`) must be a number.
fen-bad-fullmove = The move number (field { $number } of the FEN, `{ $text }`) must be a number.
fen-unplayable = That position cannot be played: { $reasons }.
fen-unplayable-empty = the board is empty
fen-unplayable-missing-king = a king is missing
fen-unplayable-too-many-kings = a side has more than one king
fen-unplayable-pawns-back-rank = a pawn stands on the first or last rank
fen-unplayable-castling = a castling right names a king or rook that is not on its starting square
fen-unplayable-en-passant = the en-passant square has no pawn that just moved two squares beside it
fen-unplayable-opposite-check = the side not to move is in check
fen-unplayable-impossible-check = the check on the board cannot happen in a game
fen-unplayable-too-much-material = there are more pieces than a game can have
fen-unplayable-variant = it breaks a rule of the game's variant
