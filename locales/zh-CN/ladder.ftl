# 排行：排行榜、个人资料、对局记录、进行中的对局、PGN、积分预估。

ladder-stakes = 胜 { $win }，和 { $draw }，负 { $loss }
ladder-page-range = `page` 须在 1 到 { $pages } 之间。
ladder-empty = 排行榜还是空的：这里还没有人下完过计分棋。
ladder-title = 排行榜（第{ $page }页，共{ $pages }页）
ladder-line = { $rank }. { $name } — { $points }分，{ $level } — { $wins }胜 { $draws }和 { $losses }负
ladder-provisional = ? = 暂定积分（计分对局不足{ $games }盘）
ladder-not-played = { $name }还没有在这里下过棋。
profile-field-points = 积分
profile-field-level = 级别
profile-field-record = 战绩
profile-field-recent = 最近对局
profile-field-openings = 最常下的开局
profile-opening-line = { $opening }：{ $count }盘
profile-record = 计分对局{ $count }盘：{ $wins }胜 { $draws }和 { $losses }负
profile-summary = { $name }：{ $points }分，{ $level }。
chart-title = { $name } — 积分走势
chart-no-games = 还没有计分对局
history-empty = { $name }在这里还没有对局。
history-title = { $name }的最近对局：
history-in-progress = 进行中
history-won = 胜（{ $termination }）
history-lost = 负（{ $termination }）
history-drew = 和（{ $termination }）
history-aborted = 已中止
history-line = 第{ $id }局（{ $color }）对 { $opponent }：{ $outcome }
games-none = 你没有进行中的对局。用 `/challenge` 发起一盘吧。
games-title = 你进行中的对局：
games-your-move = 轮到你走
games-their-move = 轮到对方走
games-opening-thread = （正在开子区）
games-line = 第{ $id }局，对 { $opponent }，在 { $place }：{ $whose }，第{ $number }回合
pgn-game-not-found = 在这个服务器上找不到第{ $id }局。
pgn-no-game = 这个频道里还没有对局。
preview-self = 请选一个别人。
preview = 你（{ $mine }分）对 { $name }（{ $theirs }分）：{ $my_stakes }。
    { $name }：{ $their_stakes }。
