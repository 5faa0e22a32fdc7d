# 每日习题（src/service/daily.rs）和习题设置。

daily-title = 每日习题 — { $date }
daily-post = **{ $date } 每日习题**：{ $color }走，取胜。按 **解题** 私下作答（或用 `/puzzle source:daily`）：别人看不到你的答案。答案和当天解出者明天 { $time } 公布。
daily-solve-button = 解题
daily-solution = **{ $date } 每日习题答案**：{ $line }
daily-solver = { $name }（连续{ $streak }天）
daily-solvers = { $tried }人中有{ $count }人解出：{ $names }。
daily-no-solvers = 无人解出（{ $tried }人尝试）。
daily-none-left = { $date } 没有每日习题：本服务器的习题都已用作过每日习题。新题来自 `chessbot puzzles import`，以及开启 `/settings puzzles:on` 后本服务器的对局。
daily-start = { $date } 每日习题，仅你可见：{ $color }走，取胜。用 `/move` 作答；走错一步即告结束。
daily-still-open = 你正在解 { $date } 的每日习题。用 `/move` 作答。
daily-solved = 每日习题解出：连续{ $streak }天。
daily-failed = 今天没解出：明天的习题重新开始计算连续天数。
daily-next = 当天解出者和答案明天 { $time } 公布。
daily-not-set = 本服务器没有每日习题：管理员可用 `/settings puzzle_channel` 选择频道。
daily-not-yet = 第一道每日习题将于 { $time } 发布。
daily-closed = { $date } 的每日习题已结束：答案已发布在 { $channel }。今天的习题见今天的帖子。
daily-finish-first = 请先做完习题 #{ $id }（用 `/puzzle` 查看）：一次只做一道题。
daily-already-solved = 你已解出 { $date } 的每日习题。下一道明天发布。
daily-already-failed = 你已做过 { $date } 的每日习题：每天只有一次机会。

settings-show-puzzles = 习题：{ $daily }；从本服务器对局中找习题：{ $mining }。
settings-show-daily = 每日习题发在 { $channel }，时间 { $hour }（{ $zone }）
settings-show-daily-off = 无每日习题
settings-done-puzzle-channel = 每日习题发在 { $channel }
settings-done-puzzle-channel-off = 不再发每日习题
settings-done-puzzle-time = 每日习题于 { $hour }（服务器时间）发布
settings-done-puzzle-mining = 从本服务器对局中找习题：{ $value }
settings-puzzle-time-bad = “{ $value }”不是可识别的钟点：请给出 0 到 23 的整点，如 `9` 或 `21:00`（按服务器时区，见 `/settings time_zone`），或 `off`。
console-bad-puzzle-source = `source` 只能是 `near`、`daily` 或 `mine`。

# 来自自己失误的习题（src/service/own_puzzles.rs）。
mistakes-puzzles = { $name }：本局失误里有{ $count }道习题：用 `/puzzle source:mine`。
mistakes-puzzle = 习题 #{ $id }，来自你自己的对局 #{ $game }：找出更好的一步。用 `/move` 作答。
mistakes-none = 没有来自你自己失误的习题：`/analyze` 复盘你的对局、发现本有致胜走法的失误时才会有。
