# The live board in the browser ("Play in browser"): the page's words, sent to
# assets/web/board.js, and the server's own plain pages (src/web).

# Banner over the board while the page first connects to the server.
web-connecting = Connecting…
# Banner over the board after the connection dropped, while it tries again.
web-reconnecting = Reconnecting…
# Side panel, for someone who watches the game rather than plays in it.
web-watching = Watching
# Side panel, when it is the viewer's turn to move.
web-your-turn = Your turn
# Side panel, when the viewer has queued a move (a premove) for their next turn.
web-premove-set = Premove set: it is played as soon as it is your turn.
# Side panel, below web-premove-set.
web-premove-cancel-hint = Click an empty square to cancel it.

# Button in the side panel.
web-resign = Resign
# Side panel, after Resign was pressed, above the Yes and No buttons.
web-resign-confirm = Resign this game? This cannot be undone.
# Button answering web-resign-confirm.
web-yes = Yes, resign
# Button answering web-resign-confirm.
web-no = No

# Button in the side panel.
web-draw-offer = Offer a draw
# Button in the side panel, when the opponent has offered a draw.
web-draw-accept = Accept the draw
# Button in the side panel, when the opponent has offered a draw.
web-draw-decline = Decline
# Button in the side panel, when the viewer may claim a draw (repetition or the 50-move rule).
web-draw-claim = Claim a draw
# Side panel, while the viewer's own draw offer stands.
web-draw-offered-by-you = You offered a draw; it stands until your opponent answers or moves.
# Side panel, above the accept and decline buttons.
web-draw-offered-to-you = Your opponent offers a draw.

# Button in the side panel: ask to take back the last move.
web-takeback = Ask for a takeback
# Button in the side panel, when the opponent asks for a takeback.
web-takeback-accept = Allow the takeback
# Button in the side panel, when the opponent asks for a takeback.
web-takeback-decline = Refuse
# Side panel, while the viewer's own takeback request stands.
web-takeback-asked-by-you = You asked for a takeback; waiting for your opponent.
# Side panel, above the allow and refuse buttons.
web-takeback-asked-to-you = Your opponent asks to take back their last move.

# Button in the side panel, before both sides have moved.
web-abort = Abort the game
# Button in the side panel after the game: offer or accept a new game with the same settings.
web-rematch = Rematch
# Side panel after the game, above the Rematch button, when the opponent offers one.
web-rematch-offered-to-you = Your opponent offers a rematch.
# Button in the side panel: add time to the opponent's clock.
web-give-time = Give time

# Heading of the chooser over the board when a pawn reaches the last rank.
web-promote-to = Promote to
# Promotion chooser, the buttons' names (read out by screen readers, shown on hover).
web-queen = Queen
web-rook = Rook
web-bishop = Bishop
web-knight = Knight
# Antichess: a pawn may promote to a king; Crazyhouse pockets name pawns too.
web-king = King
web-pawn = Pawn
# Crazyhouse: the label of the pieces a player holds and may drop.
web-pocket = Pieces in hand
# Three-check: the label of a player's check counter, followed by ": 1/3".
web-checks-given = Checks given

# Label of the move list in the side panel.
web-moves = Moves
# Correspondence games, beside the name of the side to move: the time left to move, e.g. "2d 5h" or "3:12:09".
web-deadline = { $left } left to move
# Heading of the side panel once the game has ended.
web-game-over = Game over
# Colour names, beside the players' names.
web-white = White
web-black = Black

# The server's page for a link it does not accept: its title.
web-forbidden-title = This link does not work
# The server's page for a link it does not accept.
web-forbidden = This link is not valid: it has expired or is for another game. Ask the bot for a new one with the Play in browser button.
# The server's page when someone tries to watch a game and watching is switched off.
web-spectators-off = This server does not allow watching games.
# The page for any address with nothing behind it (an unknown game, a
# club whose pages are off): the same for both, never a hint.
web-not-found-title = Page not found
web-not-found = There is nothing at this address.
# The title of the board page (browser tab), e.g. "alice – bob".
web-title = { $white } – { $black }
