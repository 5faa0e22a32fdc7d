# What lichess and chess.com players expect (issue 16, part B): challenges
# by number, takebacks, rematches, replays, board orientation, /games.

## Challenges by number
features-challenge-number = Challenge #{ $id }.
features-challenge-several = Several challenges wait here; say which one with its number, e.g. `challenge:ID`:
features-challenge-line-rated = #{ $id } from { $from } to { $to }: rated, { $time }
features-challenge-line-unrated = #{ $id } from { $from } to { $to }: unrated, { $time }
features-challenge-anyone = anyone
features-challenge-accepted = { $name } accepted challenge #{ $id }! { $white } (White) vs { $black } (Black).
features-challenge-declined = { $name } declined challenge #{ $id } from { $challenger }.
features-challenge-cancelled = { $name } cancelled challenge { $challenge }.

## Takebacks
features-button-takeback = Takeback
features-button-takeback-accept = Accept takeback
features-button-takeback-decline = Decline takeback
features-takeback-rated = Takebacks are for casual games only: this game is rated, so every move stands.
features-takeback-already-asked = You have already asked for a takeback; waiting for { $opponent } to answer.
features-takeback-pending = { $opponent } has asked for a takeback: accept or decline it first.
features-takeback-nothing = You have no move to take back yet.
features-takeback-none = There is no takeback request to answer.
features-takeback-own = That is your own request: { $opponent } answers it.
features-takeback-moved-on = That game has moved on since then; nothing was changed. Look at the newest board.
features-takeback-one = the move { $san }
features-takeback-two = the move { $mine } and the reply { $reply }
features-takeback-asks = { $name } asks to take back { $moves }. { $opponent }, do you agree?
features-takeback-declined = { $name } declined the takeback. The move stands; play on!
features-takeback-accepted = { $name } accepted the takeback: { $moves } taken back.

## Rematches
features-button-rematch = Rematch
features-rematch-not-found = I can't find that game.
features-rematch-active = That game is still in progress: a rematch can be offered once it is over.
features-rematch-not-player = Only the two players of that game can ask for a rematch.
features-rematch-started = The rematch has already started: game #{ $game }.
features-rematch-already-offered = You have already offered a rematch; waiting for { $opponent } to click Rematch.
features-rematch-answered = That rematch was answered a moment ago; nothing was changed.
features-rematch-offer = { $name } offers a rematch with colours swapped. { $opponent }, click Rematch to play it.
features-rematch-no-thread = That game never got its thread; start a new one with `/challenge`.
features-rematch-busy = Another game is in progress in this channel; finish it first.
features-rematch-erased = Your opponent in that game has erased their data: there is nobody to offer a rematch to.
features-rematch-accepted = { $name } accepted the rematch: game #{ $game }, { $white } (White) vs { $black } (Black).

## Replays
features-replay-not-found = I can't find game #{ $game } on this server.
features-replay-no-game = There is no game in this channel yet: name one, e.g. `/replay game:12` (`/games` and `/history` list them).
features-replay-too-long = Game #{ $game } is too long to replay as an image ({ $plies } half-moves; at most { $max }). `/pgn` has all of it.
features-replay-caption = Replay of game #{ $game }: { $white } (White) vs { $black } (Black), { $outcome }.
features-replay-in-progress = in progress
features-replay-result = { $result } ({ $ending })

## Board orientation
features-orientation-white = Boards are now drawn with White at the bottom when it is your move (and in your replays).
features-orientation-auto = Boards are now drawn from your side when it is your move (and in your replays).
features-orientation-retry = Please try again in a moment.

## /games
features-games-left = { $left } left
features-games-clocks = your clock { $mine }, theirs { $theirs }
