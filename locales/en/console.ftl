# The console adapter's own words (src/platform/console).

console-deadline = Deadline: { $when }
console-deadline-in = in { $left }
console-deadline-passed = passed

# Lines the console cannot read (src/platform/console/parse.rs).
console-unknown-directive = unknown directive `:{ $word }`: use :channel NAME, :advance 3d, :restart, :restart 2h (down for 2 h), :locale NAME zh-CN or :puzzles FILE
console-puzzles-added = { $count } puzzles added from { $file }
console-puzzles-bad = cannot load puzzles from { $file }: { $problem }
console-line-form = write `name: /command …` or `name: click Label`
console-bad-user-name = a user name is letters, digits, `_` or `-` (at most 32)
console-not-a-command = a command starts with `/`, a button press with `click`
console-which-command = which command?
console-open-quote = a quote is not closed
console-unknown-command = unknown command `/{ $command }`; try `/help`
console-no-such-option = `/{ $command }` has no option `{ $name }`; its options: { $options }
console-no-options = `/{ $command }` has no option `{ $name }`; it takes no options
console-too-many-values = too many values for `/{ $command }`; its options: { $options }
console-takes-no-values = `/{ $command }` takes no options
console-option-twice = option `{ $name }` given twice
console-bad-color = `color` must be white, black or random
console-bad-board = `board` must be games or puzzles
console-move-needs-text = `/move` needs the move, e.g. `/move e4`
console-bad-draw-action = `action` must be offer, accept, decline or claim
console-play-needs-level = `/play` needs a level from 1 to 8, e.g. `/play level:1`
console-rating-needs-opponent = `/rating` needs an opponent, e.g. `/rating @bob`
console-privacy-subcommand = `/privacy` takes `show` or `forget`
console-settings-or-log = either change settings or read the audit log (`log`), not both
console-bad-notify = `notify` must be dm or channel
console-notify-needs-mode = `/notify` needs `dm` or `channel`
console-vacation-needs-days = `/vacation` needs `days` (0 ends a vacation)
console-bad-takeback-action = `action` must be request, accept or decline
console-bad-orientation = `/board-orientation` takes `auto` (from the side to move) or `white` (White at the bottom)
console-bad-user-ref = name a user as `@name`
console-not-boolean = `{ $name }` must be true or false
console-not-number = `{ $name }` must be a whole number

# Durations of `:advance` and `:restart` (src/clock/duration.rs).
console-duration-empty = no duration given: use e.g. 3d, 1h30m, 90s or 2h
console-duration-too-long = that duration is too long to read ({ $count } characters): use e.g. 3d, 1h30m, 90s or 2h
console-duration-invalid = `{ $text }` is not a duration: use a number and a unit (w, d, h, m, s), e.g. 3d, 1h30m, 90s or 2h
console-duration-overflow = `{ $text }` is too long a duration

# What the console itself reports (src/platform/console/mod.rs).
console-locale-set = { $user }'s locale: { $locale }
console-locale-none = none
console-time-advances = time advances by { $by }
console-was-down = the bot was down for { $by }
console-restarted = bot restarted
console-no-button = there is no `{ $label }` button here
console-thread-opened = opened thread #{ $name }
# Marks of the output format, after a name (`bot → alice (only you):`).
console-only-you = { " " }(only you)
console-edit = { " " }(edit)
console-field = { $name }: { $value }
console-no-engine = no chess engine found: /play and /analyze are off (install stockfish or pass --engine-path)
console-conditional-subcommand = `/conditional` takes `add`, `list` or `clear`, e.g. `/conditional add e5 Nf3`
console-conditional-needs-line = `/conditional add` needs the line, e.g. `/conditional add line:"Nxd5 Qxd5 Nc3"`
console-image-alt = alt text: { $text }
console-file-unreadable = Cannot read the file `{ $path }`: { $reason }
console-adjourn-subcommand = `/adjourn` takes `offer`, `accept`, `decline`, `now` or `resume`, e.g. `/adjourn resume when:"2026-12-05 19:00"`
console-adjourn-needs-when = `/adjourn resume` needs the time, e.g. `/adjourn resume when:"2026-12-05 19:00"`
console-title-needs-user = `/title` needs the member, e.g. `/title @bob GM`
console-title-needs-title = `/title` needs the title (GM, IM, FM, WGM, WIM or none), e.g. `/title @bob GM`
console-link-button = that button opens { $url } in the browser
