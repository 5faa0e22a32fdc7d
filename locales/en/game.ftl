# Games: colours, endings, move input errors, the board reply, draws,
# resignation (src/chess, src/service/play.rs, src/service/view.rs).

color-white = White
color-black = Black

piece-pawn = pawn
piece-knight = knight
piece-bishop = bishop
piece-rook = rook
piece-queen = queen
piece-king = king

termination-checkmate = checkmate
termination-resignation = resignation
termination-timeout = time forfeit
termination-stalemate = stalemate
termination-insufficient-material = insufficient material (neither side can mate)
termination-fivefold-repetition = fivefold repetition
termination-seventy-five-move-rule = the 75-move rule
termination-threefold-repetition = threefold repetition (claimed)
termination-fifty-move-rule = the 50-move rule (claimed)
termination-agreement = agreement
termination-aborted = abort
termination-adjudication = adjudication
termination-illegal-moves = three illegal king moves
termination-explosion = exploding the enemy king
termination-king-of-the-hill = bringing the king to the centre
termination-three-checks = giving the third check
termination-horde-destroyed = destroying the horde
termination-race-won = reaching the eighth rank first
termination-race-tied = both kings reaching the eighth rank
termination-no-pieces-left = losing every piece
termination-no-moves-left = having no legal move left

ending-win = { $color } wins by { $termination }
ending-timeout-draw = draw: time ran out, but the other side cannot possibly mate
ending-draw = draw by { $termination }
ending-aborted = game aborted

# Move input (src/chess/input/error.rs).
input-type-a-move = Type a move.
input-unreadable = I can't read `{ $input }` as a move.
input-illegal = `{ $input }` is not legal here: { $reason }.
input-try = Try e.g. { $moves }.
input-ambiguous = `{ $input }`: which { $piece }, { $candidates }?
input-list-or = { $first } or { $last }
illegal-king-into-check = your king would be in check
illegal-leaves-king-in-check = it would leave your king in check
illegal-piece-cannot-go = your { $piece } on { $from } cannot go to { $to }
illegal-piece-cannot-capture = your { $piece } on { $from } cannot capture on { $to }
illegal-no-piece-can-go = you have no { $piece } that can go to { $to }
illegal-no-piece-can-capture = you have no { $piece } that can capture on { $to }
illegal-own-piece-there = your own { $piece } is on { $square }
illegal-empty-square = there is no piece on { $square }
illegal-not-your-piece = the piece on { $square } is not yours
illegal-wrong-piece = the piece on { $square } is a { $found }, not a { $named }
illegal-castling-no-right = you can no longer castle on that side (the king or rook has moved)
illegal-castling-not-granted = this game began without that castling right, so you cannot castle on that side
illegal-castling-in-check = you cannot castle out of check
illegal-castling-pieces-in-the-way = there are pieces between the king and the rook
illegal-castling-through-check = the king would pass through an attacked square
illegal-no-promotion = only a pawn reaching the last rank promotes
illegal-promotion-required = say what the pawn becomes: add =Q, =R, =B or =N
illegal-no-legal-moves = the game is over, there are no legal moves
illegal-drop-no-drops = pieces are dropped only in crazyhouse
illegal-drop-not-in-pocket = you have no { $piece } in hand to drop
illegal-drop-occupied = { $square } is taken: a piece is dropped only on an empty square
illegal-drop-pawn-back-rank = a pawn is never dropped on the first or last rank
illegal-must-capture = a capture is available, and in antichess taking is compulsory
illegal-variant-atomic = in atomic chess a king never captures, and no capture may blow up your own king
illegal-variant-racing-kings = in racing kings no move may give check, and no king may step into one
illegal-variant-rule = the rules of { $variant } forbid it

# Rule refusals (src/chess/game.rs).
rule-not-legal = `{ $uci }` is not a legal move here.
rule-game-over = That game is already over.
rule-not-your-turn = It is not your turn.
rule-no-draw-offer = There is no draw offer from your opponent.
rule-already-offered = You have already offered a draw; it stands until your opponent answers or moves.
rule-nothing-to-claim = There is no draw to claim: that needs the same position three times with you to move, or 50 moves by each side without a capture or pawn move.
rule-claim-with-move-fails = `{ $san }` would not give a draw by repetition or the 50-move rule, so it was not played.
rule-abort-too-late = A game can only be aborted before each side has made its first move; resign or offer a draw instead.
rule-illegal-king-move-counted = Illegal king move { $count } of { $limit } (house rule: the third loses).

# Playing (src/service/play.rs).
game-not-found = I can't find that game.
game-button-stale = This game has moved on since that button was shown; nothing was changed. Use the newest board.
game-not-your-turn = It's not your turn: waiting for { $name } ({ $color }).
game-none-in-channel = There is no game in this channel yet. Start one with `/challenge`.
game-resign-confirm = Resign this game? This cannot be undone.
game-draw-offered = { $name } offers a draw. The offer stands until { $opponent } answers or moves.
game-draw-declined = { $name } declined the draw offer. Play on!
game-not-playing = You are not playing in this game.
button-resign = Resign
button-resign-confirm = Yes, resign
button-draw-offer = Offer draw
button-draw-accept = Accept draw
button-draw-decline = Decline draw
button-draw-claim = Claim draw

# The board (src/service/view.rs).
board-title = { $white } (White) vs { $black } (Black)
board-to-move = { $name } ({ $color }) to move.
board-turn = { $name } ({ $color })
board-game-over = Game over: { $ending }.
board-draw-offer = { $name } offers a draw
claim-threefold = threefold repetition
claim-fifty-move = the 50-move rule
board-draw-claim = { $name } may claim a draw by { $termination }
board-field-turn = Turn
board-field-result = Result
board-field-last-move = Last move
board-field-opening = Opening
board-field-draw-offer = Draw offer
board-field-draw-claim = Draw claim
board-field-time = Time
board-field-points = { $name }'s points
board-points-change = { $before } → { $after } ({ $delta }), { $level }
board-footer-rated = Game #{ $id } · rated
board-footer-unrated = Game #{ $id } · unrated
game-finished = finished
game-over-in-channel = The game in this channel is over ({ $ending }). Start a new one with `/challenge`.
game-none-in-progress = There is no game in progress in this channel. Start one with `/challenge`.
game-moved-on = That game has moved on since then; nothing was changed. Look at the newest board.
board-field-deadline = Deadline
# A live game before each side's first move: its clocks have not started,
# and the game is aborted (a tournament's: forfeited) if no move comes.
board-field-first-move-due = First move due
button-unknown = That button is not one of mine any more.
