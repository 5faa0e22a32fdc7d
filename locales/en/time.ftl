# Time: durations, time controls, deadlines, reminders, timeouts, vacation,
# give-time, DM summaries (src/clock, src/service/time.rs).

unit-separator = { " " }
unit-days-short = { $count } d
unit-hours-short = { $count } h
unit-minutes-short = { $count } min
unit-seconds-short = { $count } s

time-days-per-move = { $count ->
    [one] { $count } day per move
   *[other] { $count } days per move
}
time-with-increment = { $base } + { $increment }
time-stage = { $count } moves in { $time }
time-stage-repeating = { $count } moves every { $time }
time-stage-rest = { $time } for the rest of the game
time-stage-increment = { " " }+ { $increment } per move
time-stage-then = , then{ " " }

# Time control errors (src/clock/control.rs).
time-option-invalid = `time`: { $reason }
time-error-empty = no time control given: use e.g. 3d (days per move), 10+5 (minutes + seconds per move) or 40/9000:16/3600
time-error-too-long = that time control is too long to read ({ $count } characters): use e.g. 3d, 10+5 or 40/9000:16/3600
time-error-unrecognized = `{ $input }` is not a time control: use e.g. 3d (days per move), 10+5 (minutes + seconds per move) or 40/9000:16/3600
time-error-what-days = days
time-error-what-minutes = minutes
time-error-what-moves = moves
time-error-what-seconds = seconds
time-error-bad-number = `{ $part }` in `{ $input }` is not a whole number of { $what }
time-error-days-not-offered = `{ $input }`: correspondence games take 1, 2, 3, 5, 7, 10 or 14 days per move
time-error-no-time = `{ $input }` gives no time at all: a live game needs a base time, e.g. 10+5
time-error-base-out-of-range = `{ $input }`: the base time must be 1 to 180 minutes (the form is minutes+seconds, e.g. 10+5)
time-error-increment-out-of-range = `{ $input }`: the increment must be 0 to 180 seconds per move
time-error-moves-out-of-range = `{ $input }`: a stage must have 1 to 200 moves
time-error-stage-time-out-of-range = `{ $input }`: a stage's time must be 1 to 36000 seconds (10 h)
time-error-sudden-death-not-last = `{ $input }`: only the last stage may be without a move count (sudden death)
time-error-too-many-stages = `{ $input }`: at most 5 stages
time-error-base-not-whole-minutes = `{ $input }`: a base time without stages must be whole minutes (60 to 10800 seconds)

# Deadlines, reminders, summaries, downtime (src/service/time.rs).
time-unstarted-aborted = The first moves never came in time, so the game is aborted and not rated.
time-ran-out = { $name } ({ $color }) ran out of time.
time-summary-title = Games waiting for your move:
time-summary-line = • game #{ $id } vs { $opponent }
time-summary-line-left = • game #{ $id } vs { $opponent }, { $left } left
time-reminder = Reminder: it's your move against { $opponent } (game #{ $id }); { $left } left.
time-downtime-live = The bot was down; the clocks resume as they stood at the last move. (game #{ $id })
time-downtime-grace = The bot was down when your deadline passed: you have one more hour. (game #{ $id })

# Vacation and give-time.
vacation-not-on = You are not on vacation.
vacation-back = { $name } is back from vacation: their clocks run again.
vacation-days-range = `days` must be between 1 and { $budget } (this server's yearly vacation), or 0 to end your vacation.
vacation-already = You are already on vacation ({ $left } left). Use `/vacation days:0` to end it.
vacation-too-much = That is more vacation than you have left: { $left } of { $budget } days this year.
vacation-started = { $name } is on vacation for { $count ->
    [one] { $count } day
   *[other] { $count } days
}: the deadlines of their correspondence games are paused. It ends early when they move.
give-time-own-turn = You can give time while your opponent is to move.
give-time-not-correspondence = Time can be given in correspondence games.
give-time-max = Your opponent already has { $count } extra days for this move.
give-time-moved-on = That game has moved on; nothing was changed.
give-time-given = { $name } gave { $opponent } one more day for this move ({ $left } left).
button-give-time = Give +1 day
time-error-too-fast = `{ $input }`: a stage must give at least 5 seconds per move (`40/1` gives 40 moves 1 second); e.g. 40/5400 is 40 moves in 90 minutes
time-no-clock = no clock
