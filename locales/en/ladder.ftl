# The ladder: leaderboard, profile, history, games, PGN, rating preview
# (src/service/ladder.rs).

ladder-stakes = win { $win }, draw { $draw }, loss { $loss }
ladder-page-range = `page` must be between 1 and { $pages }.
ladder-empty = The ladder is empty: nobody has finished a rated game here yet.
ladder-title = Leaderboard (page { $page } of { $pages })
ladder-line = { $rank }. { $name } — { $points } points, { $level } — { $wins }W { $draws }D { $losses }L
ladder-provisional = ? = provisional (fewer than { $games } rated games)
ladder-not-played = { $name } has not played here yet.
profile-field-points = Points
profile-field-level = Level
profile-field-record = Record
profile-field-recent = Recent games
profile-field-openings = Most played openings
profile-opening-line = { $opening }: { $count ->
    [one] 1 game
   *[other] { $count } games
}
profile-record = { $count ->
    [one] { $count } rated game
   *[other] { $count } rated games
}: { $wins }W { $draws }D { $losses }L
profile-summary = { $name }: { $points } points, { $level }.
chart-title = { $name } — points over time
chart-no-games = No rated games yet
history-empty = { $name } has no games here yet.
history-title = Recent games of { $name }:
history-in-progress = in progress
history-won = won ({ $termination })
history-lost = lost ({ $termination })
history-drew = drew ({ $termination })
history-aborted = aborted
history-line = #{ $id } as { $color } vs { $opponent }: { $outcome }
games-none = You have no games in progress. Start one with `/challenge`.
games-title = Your games in progress:
games-your-move = your move
games-their-move = their move
games-opening-thread = (opening a thread)
games-line = #{ $id } vs { $opponent } in { $place }: { $whose }, move { $number }
pgn-game-not-found = I can't find game #{ $id } on this server.
pgn-no-game = There is no game in this channel yet.
preview-self = Pick someone other than yourself.
preview = You ({ $mine }) against { $name } ({ $theirs }): { $my_stakes }.
    { $name }: { $their_stakes }.
