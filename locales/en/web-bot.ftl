# The web board's words outside the board page itself (issue 25).

# Answer to Play in browser when the bot runs no web board.
web-off = This bot does not serve a web board.
# Private answer to Play in browser, above the link button.
web-link-private = Your own link to play this game in the browser (valid for a day; do not share it: anyone with it plays as you).
# Button under a board message: the player's own link (answered privately).
web-button-play = Play in browser
# Link button under a board message: the spectators' page.
web-button-watch = Watch live
# Confirmation of /settings spectators.
web-settings-done-spectators = watching live boards: { $value }
# A spectator's page sent a move or a button.
web-spectator-cannot-act = You are watching this game: only its players can move.
# The web board's front page.
web-index-title = chessbot live board
web-index = Open a game from the link the bot gives you in Discord (the Play in browser button under a board), or watch one from its Watch live button.
# Link on a finished game's page to the rematch it started.
web-rematch-open = Go to the rematch
