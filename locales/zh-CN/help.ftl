# 帮助：一个标题，每个主题一段（在 Discord 上各是嵌入消息的一个字段，每段最多
# 1,024 个字符，合计 6,000），这样什么都不会被截断。

help-title = chessbot：向朋友发起挑战，按自己的节奏下棋，在排行榜上晋级
help-play-name = 下棋
help-play =
    • `/challenge [对手] [颜色] [计分] [用时]`：用时可以是 `3d`（每步3天，默认）、`10+5`（快棋：分钟 + 每步加秒）或 `40/9000:16/3600`（PGN 多阶段）。不填对手就是公开挑战。
    • 有几个挑战同时等待时，`/accept`、`/decline`、`/cancel` 可以加上 `challenge:编号`（每个挑战都显示编号）。
    • `/move e4`：可以用中文棋子名（`马f3`、`后xf7`、`e8=后`、`短易位`、`长易位`），也可以用标准代数记谱（`Nf3`、`exd5`、`O-O`、`e8=Q`）、UCI（`e2e4`）或长记法（`Ng1-f3`）。加上 `claim_draw:true` 可在这步棋形成重复局面时要求和棋。
    • `/board` 看棋盘，`/resign` 认输，`/draw offer|accept|decline|claim` 提和、同意、拒绝、要求和棋，`/abort` 中止（双方都还没走棋时），`/pgn` 导出棋谱。
help-casual-name = 非计分对局、再来一局、回放
help-casual =
    • 非计分对局：`/takeback`（或“悔棋”按钮）请对手同意你收回上一步。
    • 对局结束后：“再来一局”按钮提议交换颜色再下一局；`/replay [对局]` 以动画回放一局棋。
    • 960国际象棋：`/challenge variant:chess960 [position:0-959]`（不指定就随机抽取起始局面），有自己的排行榜（`/leaderboard variant:chess960`）。易位用 `O-O`、`O-O-O`、`短易位`、`长易位`，或把王走到自己的车上（`f1h1`）。再来一局保留变体和同一个起始局面，交换颜色。
    • `/board-orientation white` 让你的棋盘始终白方在下（`auto`：从轮到走棋的一方看）。
help-time-name = 时间与通讯棋
help-time =
    • 通讯棋每走一步期限重新计算；期限前24小时和1小时会提醒你（用 `/notify dm` 改为每天一条私信摘要）。
    • `/vacation 天数` 暂停你的通讯棋期限（0 结束休假；走棋时也会结束）。“加时一天”按钮给对手这一步多加一天。
    • `/conditional add line:"马xd5 后xd5 马c3"` 预先输入应着（对手的着法、你的应着……），对手一走进变化就立即走出；`/conditional list` 查看（只有你能看到），`/conditional clear` 清除。
help-computer-name = 电脑
help-computer =
    • `/play level:1..8 [颜色] [用时]`：和电脑下棋（Stockfish；难度1适合初学者，难度8为全力），不计分。
    • `/analyze [对局]`：引擎复盘已结束的对局：优势曲线图、双方的准确率、失误、错着和败着以及更好的走法，并附带注释棋谱；`/analyze pgn:`（或 `file:`）复盘任何粘贴的 PGN 棋局，不作保存。
help-draws-name = 和棋
help-draws =
    • 三次重复局面和50回合规则由轮到走棋的一方要求；五次重复局面、75回合、逼和和死局自动判和。
    • 长将通过重复局面规则判和。
help-ladder-name = 排行与记录
help-ladder =
    • `/games` 我的对局，`/leaderboard` 排行榜，`/profile` 个人资料，`/history` 对局记录，`/rating 对手` 预估胜、和、负各得失多少积分。
    • 每人从0分开始；每100分一个级别，从30级升到3000分的1级。`?` 表示计分对局不足50盘。
    • `/puzzle` 一道接近你习题积分的习题，用 `/move` 作答（走错即结束；每题只计一次分）；`/puzzle source:daily` 私下做今天的每日习题（或按帖子下的“解题”按钮）；`/puzzle source:mine` 做来自你自己失误的习题（`/analyze` 复盘你的对局时找到）；`/leaderboard puzzles` 习题排行榜。
help-tournaments-name = 比赛
help-tournaments =
    • 开赛前用 `/tournament join` 报名积分循环制、大循环制、淘汰制或团体赛，每轮对局都在自己的子区里下。
    • `/tournament standings` 成绩表（附交叉表），`/tournament pairings [轮次]` 对阵，`/tournament withdraw` 退赛，`/tournament export` 导出 TRF 和 PGN。
    • 管理员：`/tournament create 名称 [赛制] [轮数] [用时] …`、`start` 开赛、`result` 判定结果、`pause` 暂停、`resume` 继续、`cancel` 取消、`remove` 移除棋手。
help-server-name = 管理员与你的数据
help-server =
    • `/settings`（默认用时、子区、棋盘主题、严格送王规则、语言 `language`、记谱方式 `notation`；每日习题的频道 `puzzle_channel` 和钟点 `puzzle_time`，`puzzles:on` 从本服务器对局中找习题）；`/settings log` 查看谁改了什么。
    • 你的数据：`/privacy show` 发送我保存的关于你的数据；`/privacy forget` 将其删除。
