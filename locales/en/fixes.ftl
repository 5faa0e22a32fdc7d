# Issue 16 (from the field): where a player's game is, games from a set
# position, PGN files, who resigned or aborted.

fixes-game-elsewhere-one = There is no game in this channel. Your game with { $opponent } is in { $place }: play it there.
fixes-game-elsewhere-many = There is no game in this channel. Your games: { $places }. Play each in its own channel.
# A channel is written <#id>: a link on Discord, #name in the console.
fixes-game-place-thread = its thread <#{ $channel }>
fixes-game-place-channel = <#{ $channel }>
fixes-game-place-with = with { $opponent } in { $place }
fixes-fen-unrated = Games from a set position (`fen`) are unrated: leave out `rated`, or set it to false.
fixes-pgn-attached = The PGN of game #{ $game } is attached ({ $count ->
        [one] 1 move
       *[other] { $count } moves
    }).
fixes-resigned = { $name } resigned. { $result }
fixes-aborted = { $name } aborted the game. { $result }
