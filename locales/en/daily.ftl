# The daily puzzle (src/service/daily.rs) and the puzzle settings.

daily-title = Daily puzzle — { $date }
daily-post = **Daily puzzle of { $date }**: { $color } to play and win. Press **Solve** to try it privately (or `/puzzle source:daily`): nobody sees your answers. The solution and the day's solvers come tomorrow at { $time }.
daily-solve-button = Solve
daily-solution = **Solution of the daily puzzle of { $date }**: { $line }
daily-solver = { $name } ({ $streak }-day streak)
daily-solvers = Solved by { $count } of { $tried }: { $names }.
daily-no-solvers = Nobody solved it ({ $tried } tried).
daily-none-left = No daily puzzle on { $date }: every puzzle of this server has been one. New puzzles come from `chessbot puzzles import` and, with `/settings puzzles:on`, from the server's games.
daily-start = The daily puzzle of { $date }, only for you: { $color } to play and win. Answer with `/move`; a wrong move ends the attempt.
daily-still-open = You are solving the daily puzzle of { $date }. Answer with `/move`.
daily-solved = Daily puzzle solved: a { $streak }-day streak.
daily-failed = Not today: your streak starts again with tomorrow's puzzle.
daily-next = The day's solvers and the solution are posted tomorrow at { $time }.
daily-not-set = This server has no daily puzzle: a moderator chooses its channel with `/settings puzzle_channel`.
daily-not-yet = The first daily puzzle comes at { $time }.
daily-closed = The daily puzzle of { $date } is closed: its solution is posted in { $channel }. Today's puzzle is under today's post.
daily-finish-first = Finish puzzle #{ $id } first (`/puzzle` shows it): one puzzle at a time.
daily-already-solved = You solved the daily puzzle of { $date } already. The next one comes tomorrow.
daily-already-failed = You tried the daily puzzle of { $date } already: one attempt a day.

settings-show-puzzles = Puzzles: { $daily }; puzzles from the server's games { $mining }.
settings-show-daily = daily puzzle in { $channel } at { $hour } ({ $zone })
settings-show-daily-off = no daily puzzle
settings-done-puzzle-channel = the daily puzzle is posted in { $channel }
settings-done-puzzle-channel-off = no daily puzzle
settings-done-puzzle-time = the daily puzzle comes at { $hour } (server time)
settings-done-puzzle-mining = puzzles from the server's games { $value }
settings-puzzle-time-bad = “{ $value }” is not an hour I can read: give a whole hour from 0 to 23, such as `9` or `21:00` (in the server's time zone, `/settings time_zone`), or `off`.
console-bad-puzzle-source = `source` is `near`, `daily` or `mine`.

# Puzzles from one's own mistakes (src/service/own_puzzles.rs).
mistakes-puzzles = { $name }: { $count } { $count ->
    [one] puzzle
   *[other] puzzles
} from your mistakes in this game: `/puzzle source:mine`.
mistakes-puzzle = Puzzle #{ $id }, from your own game #{ $game }: find the better move. Answer with `/move`.
mistakes-none = No puzzle from your own mistakes is waiting: they come when `/analyze` reviews a game of yours and finds a mistake where a winning line was there.
