# The club's pages on the web (issue 26): tournaments, ladder, profiles and
# games at /club/{slug}/…, turned on per server with /settings web.

# Confirmation of /settings web; { $value } is one of the three values below.
web-settings-done-pages = club pages on the web: { $value }
web-pages-value-off = off
web-pages-value-link = by link only (unlisted)
web-pages-value-public = public
# After the confirmation, when the pages are on.
web-pages-address = at { $url }
# After the confirmation, when this bot runs no web server.
web-pages-not-served = (this bot serves no web pages yet: its operator sets web_addr in the configuration)
# /settings web with a value it does not know.
web-settings-pages-unknown = The club pages can be `off`, `link` or `public`, not “{ $value }”.
# Link button under the ladder, a profile, a tournament, an analysis and a finished game.
web-button-page = Open the page
# The game viewer's status line for a game still being played.
web-viewer-in-progress = The game is still being played.

# The pages themselves.
web-club-title = Club
web-club-nav = The club's pages
web-club-tournaments = Tournaments
web-club-ladder = Ladder
web-public-clubs = Clubs on this site
web-club-listed = Club { $slug }
web-ladder-title = Ladder
# The title of a variant's ladder page, e.g. "Ladder: Crazyhouse".
web-ladder-title-variant = Ladder: { $variant }
# The label of the ladder page's links to each variant's ladder.
web-ladder-variants = Ladders by variant
web-col-points = Points
web-col-record = W/D/L
web-previous = ← Previous
web-next = Next →
web-pages-nav = Pages
web-page-of = Page { $page } of { $pages }
web-points-chart-label = Points over { $count ->
    [one] one rated game
   *[other] { $count } rated games
}: from { $first } to { $last }, each band a level.
web-download-trf = Download TRF
web-download-pgn = Download PGN
web-entrants = Players entered
web-crosstable = Crosstable
web-pairings = Pairings
web-col-board = Board
web-col-result = Result
web-bracket = Bracket
web-player-cards = Players' cards
web-viewer-title = Game { $id }: { $white } – { $black }
web-viewer-steps = Step through the game
web-viewer-first = Start
web-viewer-prev = Previous move
web-viewer-next = Next move
web-viewer-last = Last move
web-analysis = Analysis
web-accuracy = Accuracy
web-advantage-label = The advantage over { $count } moves: White above the middle line, Black below. Click a point to go to that move.
web-better-move = better was { $better }

# The board as a Discord Activity (its page, while it signs the player in).
web-activity-title = chessbot board
web-activity-signing-in = Signing you in through Discord…
web-activity-failed = Discord did not sign you in. Close the Activity and open it again.
web-activity-no-game = There is no game in this channel: challenge someone here first, then open the board.
# Button under a live game's board: the board inside Discord.
web-button-activity = Open in Discord
# /activity or that button when the bot runs no Activity.
web-activity-off = This bot does not run its board as a Discord Activity (its operator sets activity_client_id and activity_client_secret).
# A round's heading on a tournament's page (pairings, bracket, cards).
web-round = Round { $round }
