# 变体（第 27 号议题）：名称、挑战的变体与起始局面、错误输入的拒绝。
variant-standard = 标准国际象棋
variant-chess960 = 960国际象棋
variant-crazyhouse = 疯狂屋
variant-atomic = 原子棋
variant-antichess = 反国际象棋
variant-kingofthehill = 山丘之王
variant-threecheck = 三次将军
variant-horde = 部落
variant-racingkings = 王者竞速
variant-with-position = { $variant }，起始局面 { $number } 号
challenge-variant-line = 变体：{ $variant }。
challenge-variant-unknown = 这里不下 `{ $variant }` 这种变体。可选：{ $known }。
challenge-position-standard = 起始局面编号只用于960国际象棋：请加上 `variant:chess960`，或去掉 `position`。
challenge-position-range = 960国际象棋的起始局面编号是 0 到 959；{ $number } 不在其中。
challenge-position-and-fen = 请给出960国际象棋的起始局面编号或 FEN，不要同时给出。
pgn-unknown-variant = 这个 PGN 是一盘{ $variant }对局，这里不下这种变体（这里下标准国际象棋、960国际象棋和 lichess 的各种变体）。
board-field-variant = 变体
variant-caption = { $variant }。
ladder-variant-title = { $variant }排行榜（第{ $page }页，共{ $pages }页）
ladder-variant-empty = { $variant }排行榜还是空的：这里还没有人下完过计分的{ $variant }对局。
profile-variant-line = { $points }分，{ $level } — 计分对局{ $count }盘：{ $wins }胜 { $draws }和 { $losses }负
tournament-variant = 所有对局都是{ $variant }；每轮的所有棋盘从抽签决定的同一个起始局面开始。
tournament-round-start = 第{ $round }轮：{ $start }（抽签决定，各台相同）。
opt-tournament-variant-desc = 规则：标准国际象棋（默认）或960国际象棋（每轮一个起始局面）
challenge-line-variant = { $time }，{ $variant }
# 三次将军：棋盘旁这一方已将军的次数。
board-checks-given = 已将军 { $count } 次（共 3 次）
