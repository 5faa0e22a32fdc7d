# Tournaments (issue 14): club competitions run by the bot
# (src/service/tournament/).

tournament-format-swiss = Swiss (FIDE Dutch)
tournament-format-roundrobin = round robin
tournament-format-double-roundrobin = double round robin
tournament-format-groups = group round robin
tournament-format-knockout = knockout
tournament-format-team = team round robin

tournament-moderators-only = Only moderators (Manage Server) can do that with a tournament.
tournament-not-found = There is no tournament { $name } on this server. `/tournament list` shows them.
tournament-none = There is no tournament on this server yet. A moderator creates one with `/tournament create`.
tournament-which = More than one tournament is running here: name it with `tournament:` (its name or number; `/tournament list` shows them).

tournament-name-empty = A tournament needs a name.
tournament-name-long = A tournament name has at most { $limit } characters.
tournament-name-number = A tournament name cannot be only a number (numbers name tournaments by id).
tournament-name-taken = A tournament called { $name } is already open or running here: choose another name.
tournament-bad-format = `format` must be swiss, roundrobin, double-roundrobin, groups, knockout or team, not “{ $value }”.
tournament-bad-rounds = `rounds` must be between 1 and { $limit }.
tournament-rounds-swiss-only = `rounds` is for a Swiss: the other formats have as many rounds as their field needs.
tournament-bad-tiebreak = Unknown tie-break “{ $value }”: use sb (Sonneborn–Berger, 小分), buchholz (对手分), buchholz-cut1, median-buchholz, de (direct encounter) or wins, separated by commas.
tournament-too-many-tiebreaks = At most { $limit } tie-breaks.
tournament-bad-max-players = `max_players` must be between 2 and { $limit }.
tournament-bad-start = `start` must be a delay from now between 1 minute and 90 days, like `2h` or `3d` (or `manual`), not “{ $value }”.
tournament-bad-first-move = `first_move` must be a time between 1 minute and 30 days, like `1h` or `2d`, not “{ $value }”.
tournament-bad-schedule = `schedule` must be `all` (every game at the start) or `rounds` (one round at a time), not “{ $value }”.
tournament-bad-match-games = `match_games` must be between 1 and 10.
tournament-bad-decider = `decider` must be like `pairs:1,sudden` (pairs of further games, then sudden death), `sudden`, `pairs:2` or `none`, not “{ $value }”.
tournament-bad-groups = `groups` must be between 2 and 16.
tournament-groups-only = `groups` is for a group round robin (`format:groups`).
tournament-teams-needed = A team event needs its teams: `teams:"Red: @a @b @c @d; Blue: @e @f @g @h"` (players in board order).
tournament-teams-only = `teams` is for a team event (`format:team`).
tournament-team-form = Write the teams as `Name: @player @player …`, separated by `;`.
tournament-team-twice = The team { $team } is listed twice.
tournament-team-empty = The team { $team } has no players: every team needs at least one board.
tournament-team-too-big = The team { $team } has more than { $limit } boards.
tournament-team-member-twice = { $player } is listed twice: a player plays for one team, on one board.
tournament-teams-two = A team event needs at least two teams.
tournament-teams-many = At most { $limit } teams.
tournament-teams-unequal = Every team needs the same number of boards.

tournament-created = Tournament { $name } (#{ $id }) is created: { $format }.
tournament-created-join = Join with `/tournament join` or the button.
tournament-created-teams = The teams are entered.
tournament-starts-in = It starts by itself in { $after }.
tournament-starts-manual = A moderator starts it with `/tournament start`.
tournament-button-join = Join
tournament-button-cancel = Cancel the tournament

tournament-join-team = { $name } is a team event: its players are the teams' (set by the moderator who created it).
tournament-joined-already = You are already in { $name }.
tournament-join-started = { $name } has started: entries are closed.
tournament-over = { $name } is over.
tournament-full = { $name } is full ({ $limit } players).
tournament-join-raced = { $name } changed in the meantime (it started, filled up, or you were entered): nothing was changed. `/tournament info` shows where it stands.
tournament-joined = { $player } joined { $name } ({ $count }/{ $limit } players).
tournament-not-entered = You are not in { $name }.
tournament-leave-team = { $name } is a team event: a moderator changes the teams.
tournament-leave-started = { $name } has started: to stop playing, use `/tournament withdraw` (you will not be paired again; games still on are lost by forfeit).
tournament-left = { $player } left { $name }.
tournament-withdraw-open = { $name } has not started: use `/tournament leave` to take your entry back.
tournament-withdrawn-already = That player has already withdrawn from { $name }.
tournament-withdrawn = { $player } withdrew from { $name } after round { $round }: not paired again. { $games ->
    [0] No game was pending.
    [one] One pending game is lost by forfeit.
   *[other] { $games } pending games are lost by forfeit.
}
tournament-player-not-entered = { $player } is not in { $name }.
tournament-removed = { $player } was removed from { $name }.

tournament-started-already = { $name } has already started.
tournament-start-few = { $name } needs at least 2 players to start; it has { $count }.
tournament-start-teams = { $name } needs at least 2 teams to start.
tournament-start-time-few = { $name } was due to start, but it has { $count } player(s): it is cancelled.
tournament-cannot-pair = The first round cannot be paired: { $reason }
tournament-started = { $name } has started: { $players } players, { $rounds ->
    [one] 1 round
   *[other] { $rounds } rounds
}.
tournament-round-paired = **{ $name }** — round { $round } of { $rounds }:
tournament-all-paired = **{ $name }** — all { $count } games are paired:
tournament-match-games = **{ $name }** — round { $round }, the matches go on:
tournament-line-board = Board { $board }: { $white } (White) – { $black } (Black)
tournament-line-round-board = Round { $round }, board { $board }: { $white } (White) – { $black } (Black)
tournament-line-match-game = Match { $board }, game { $game }: { $white } (White) – { $black } (Black)
tournament-line-forfeit = Board { $board }: { $white } – { $black } { $result } (forfeit)
tournament-line-bye = { $player } has the bye.
tournament-more-boards = … and { $count } more boards: `/tournament pairings` lists them all.
tournament-threads-note = Each game has its own thread; play there as in any game.
tournament-thread-name = { $name } R{ $round }: { $white } vs { $black }
tournament-stuck = The next round could not be paired ({ $reason }), so the tournament ends here.
tournament-over-winner = { $name } is over! The winner is { $winner }, with a score of { $score }.
tournament-over-winner-knockout = { $name } is over! The winner is { $winner }.
tournament-over-shared = { $name } is over! First place is shared by { $winners }, each with a score of { $score }.

tournament-not-started = { $name } has not started yet.
tournament-no-board = { $player } has no board in round { $round }.
tournament-result-bye = That is { $player }'s bye: it has no opponent to score against.
tournament-bad-result = Unknown result “{ $value }”: use win, loss, draw, forfeit-win, forfeit-loss or double-forfeit (for the player named), or 1-0, 0-1, 1/2-1/2, +-, -+, -- (from White's side).
tournament-result-exists = That board already has a result ({ $result }). To change it, add `correct:true`.
tournament-result-same = That board's result is already { $result }.
tournament-result-set = { $name }, round { $round }, board { $board }: { $white } – { $black } { $result } (set by a moderator).
tournament-pause-not-running = { $name } is not running, so it cannot be paused.
tournament-resume-not-paused = { $name } is not paused.
tournament-paused = { $name } is paused: games go on, but no new round is paired until a moderator uses `/tournament resume`.
tournament-resumed = { $name } goes on.
tournament-cancel-confirm = Cancel { $name }? It ends without standings; games in progress go on as ordinary games. Press the button to confirm.
tournament-cancelled = { $name } is cancelled.

tournament-no-abort = A tournament game cannot be aborted: resign, or ask a moderator (`/tournament result`).
tournament-no-takeback = Takebacks are not allowed in tournament games.
tournament-no-rematch = A tournament game has no rematch: the next round is paired by the tournament.

tournament-list-empty = There is no tournament on this server yet.
tournament-list-title = Tournaments on this server:
tournament-list-line = #{ $id } { $name } — { $format }, { $status }, { $players ->
    [one] 1 player
   *[other] { $players } players
}
tournament-status-open = open for entries
tournament-status-running = round { $round } of { $rounds }
tournament-status-paused = paused
tournament-status-finished = finished
tournament-status-cancelled = cancelled
tournament-info-players = Players: { $players }
tournament-card-title = { $name } (#{ $id })
tournament-card-footer = Tournament #{ $id } · /tournament standings · /tournament pairings
tournament-field-format = Format
tournament-field-status = Status
tournament-field-players = Players
tournament-field-time = Time control
tournament-field-rated = Rated
tournament-field-rounds = Rounds
tournament-field-match = Matches
tournament-field-tiebreaks = Tie-breaks
tournament-field-schedule = Games
tournament-field-groups = Groups
tournament-field-first-move = First move within
tournament-field-vacations = Vacations pause games
tournament-field-starts = Starts
tournament-match-desc = { $games } games; if tied, { $pairs } decider pair(s), then sudden death: { $sudden }
tournament-schedule-all = all at the start
tournament-schedule-rounds = one round at a time
tournament-first-move-own = the time control's deadline
tournament-yes = yes
tournament-no = no

tournament-no-round = There is no round { $round } (rounds paired: { $rounds }).
tournament-pairings-title = { $name } — round { $round }:
tournament-pairing-line = { $board }. { $white } – { $black }: { $result }
tournament-pending-game = game #{ $game } in progress

tournament-standings-title = { $name } — standings (round { $round }; { $done } of { $total } games finished)
tournament-final-title = { $name } — final standings
tournament-standings-line = { $place }. { $name } — { $score } { $tiebreaks }
tournament-standings-more = … and { $count } more: see the crosstable.
tournament-col-place = #
tournament-col-name = Player
tournament-col-team = Team
tournament-col-level = Level
tournament-col-score = Pts
tournament-col-round = R{ $round }
tournament-cell-bye = bye
tournament-footer = Numbers are pairing numbers. +/− forfeit. Tournament #{ $id }.
tournament-footer-team = Game points only (只计局分); equal teams share the place.
tournament-exported = { $name }: the FIDE TRF (readable by other pairing programs) and { $games ->
    [one] the PGN of its game
   *[other] the PGN of its { $games } games
}.

tiebreak-sb = SB
tiebreak-buchholz = BH
tiebreak-buchholz-cut1 = BH-C1
tiebreak-median-buchholz = BH-M1
tiebreak-de = DE
tiebreak-wins = Wins

console-tournament-subcommand = `/tournament` needs a subcommand: create, join, leave, withdraw, start, list, info, pairings, standings, export, result, pause, resume, cancel or remove.
console-tournament-needs-name = `/tournament create` needs a name: `/tournament create "Club Swiss" rounds:4`.
console-tournament-needs-player = Name the player: `player:@name`.
console-tournament-needs-result = Give the result: `result:win` (or loss, draw, forfeit-win, forfeit-loss, double-forfeit).

# Discord's command list (names are the base names; see discord.ftl).
cmd-tournament = tournament
cmd-tournament-desc = Club competitions: Swiss, round robin, knockout, team matches.
cmd-tournament-create = create
cmd-tournament-create-desc = Create a tournament in this channel (moderators).
cmd-tournament-join = join
cmd-tournament-join-desc = Join a tournament before it starts.
cmd-tournament-leave = leave
cmd-tournament-leave-desc = Take your entry back before the start.
cmd-tournament-withdraw = withdraw
cmd-tournament-withdraw-desc = Stop playing in a tournament that has started.
cmd-tournament-start = start
cmd-tournament-start-desc = Start a tournament now (moderators).
cmd-tournament-list = list
cmd-tournament-list-desc = This server's tournaments.
cmd-tournament-info = info
cmd-tournament-info-desc = A tournament's settings and players.
cmd-tournament-pairings = pairings
cmd-tournament-pairings-desc = A round's pairings and results.
cmd-tournament-standings = standings
cmd-tournament-standings-desc = The standings, with the crosstable image.
cmd-tournament-export = export
cmd-tournament-export-desc = The tournament as a FIDE TRF file and a PGN of all games.
cmd-tournament-result = result
cmd-tournament-result-desc = Set or correct a result: a forfeit or an adjudication (moderators).
cmd-tournament-pause = pause
cmd-tournament-pause-desc = Stop pairing new rounds for now (moderators).
cmd-tournament-resume = resume
cmd-tournament-resume-desc = Go on after a pause (moderators).
cmd-tournament-cancel = cancel
cmd-tournament-cancel-desc = End a tournament without standings (moderators; asks to confirm).
cmd-tournament-remove = remove
cmd-tournament-remove-desc = Take a player out (moderators): before the start, or withdrawn after.
opt-tournament = tournament
opt-tournament-desc = Which tournament (name or number; default: the one here)
opt-name = name
opt-tournament-name-desc = The tournament's name
opt-format = format
opt-format-desc = swiss (default), roundrobin, double-roundrobin, groups, knockout or team
opt-rounds = rounds
opt-rounds-desc = Swiss: the number of rounds (default 5)
opt-tournament-time-desc = Time control: 3d (default) or live like 10+5
opt-tournament-rated-desc = Whether games count for club points (default: yes)
opt-tiebreaks = tiebreaks
opt-tiebreaks-desc = Tie-breaks in order, e.g. sb,buchholz
opt-vacations = vacations
opt-vacations-desc = Whether vacations pause tournament games (default: yes)
opt-max-players = max_players
opt-max-players-desc = The most players (default 100)
opt-start = start
opt-start-desc = Start by itself after this long, e.g. 2h or 3d
opt-first-move = first_move
opt-first-move-desc = Time for the first move before a forfeit (live default 1h)
opt-schedule = schedule
opt-schedule-desc = Round robins: all games at the start, or one round at a time
opt-match-games = match_games
opt-match-games-desc = Knockout: games per match (default 2)
opt-decider = decider
opt-decider-desc = Knockout tie: e.g. pairs:1,sudden (default), sudden, none
opt-groups = groups
opt-groups-desc = Group round robin: the number of groups (default 2)
opt-teams = teams
opt-teams-desc = Team events: Red: @a @b; Blue: @c @d (players in board order)
opt-round = round
opt-round-desc = The round (default: the current one)
opt-player = player
opt-player-desc = The player
opt-result = result
opt-result-desc = For that player: win, loss, draw, forfeit-win, forfeit-loss, double-forfeit
opt-correct = correct
opt-correct-desc = Change a result already recorded
tournament-forfeit-first-move = { $name } did not make a first move in time: this tournament game is lost by forfeit (not rated).
tournament-game-ended-withdrawal = { $name } withdrew from the tournament: this game is lost by forfeit.
tournament-game-unplayed-withdrawal = { $name } withdrew from the tournament: this game is called off, too early to count, and the tournament scores it as a loss by forfeit.
tournament-game-ended-result = A moderator set this tournament game's result: { $result }.
tournament-line-sudden-death = Match { $board }, game { $game } (sudden death, colours by lot): { $white } (White) – { $black } (Black)
tournament-standings-line-knockout = { $place }. { $name } — { $won ->
    [one] 1 match won
   *[other] { $won } matches won
}
tournament-col-won = Won
tournament-image-more = … and { $count } more players: `/tournament export` has them all.
