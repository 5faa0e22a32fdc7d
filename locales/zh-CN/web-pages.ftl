# 俱乐部网页（issue 26）：比赛、天梯、个人资料与对局，地址为 /club/{slug}/…，
# 各服务器用 /settings web 开启。

# /settings web 的确认；{ $value } 为下面三个值之一。
web-settings-done-pages = 俱乐部网页：{ $value }
web-pages-value-off = 关闭
web-pages-value-link = 仅凭链接访问（不公开列出）
web-pages-value-public = 公开
# 网页开启时，确认之后附上地址。地址后面留一个空格：Discord 把网址一直认到空白为止，
# 紧跟的“。”或“，”会被当成网址的一部分，链接就打不开了。
web-pages-address = 网址：{ $url }{" "}
# 本机器人没有运行网页服务时，确认之后的说明。
web-pages-not-served = （本机器人尚未提供网页：需由运营者在配置中设置 web_addr）
# /settings web 的值无法识别。
web-settings-pages-unknown = 俱乐部网页只能设为 `off`、`link` 或 `public`，不能是“{ $value }”。
# 天梯、个人资料、比赛、分析和已结束对局下方的链接按钮。
web-button-page = 打开网页
# 对局查看器中仍在进行的对局的状态行。
web-viewer-in-progress = 对局仍在进行中。

# 网页本身。
web-club-title = 俱乐部
web-club-nav = 俱乐部网页
web-club-tournaments = 比赛
web-club-ladder = 天梯
web-public-clubs = 本站的俱乐部
web-club-listed = 俱乐部 { $slug }
web-ladder-title = 天梯排名
# 某个变体的天梯页面标题，例如“天梯排名：疯狂象棋”。
web-ladder-title-variant = 天梯排名：{ $variant }
# 天梯页面上通往各变体天梯的链接的标签。
web-ladder-variants = 各变体天梯
web-col-points = 积分
web-col-record = 胜/和/负
web-previous = ← 上一页
web-next = 下一页 →
web-pages-nav = 翻页
web-page-of = 第 { $page } 页，共 { $pages } 页
web-points-chart-label = { $count } 盘计分对局的积分变化：从 { $first } 到 { $last }，每条色带为一个级别。
web-download-trf = 下载 TRF
web-download-pgn = 下载 PGN
web-entrants = 已报名棋手
web-crosstable = 交叉表
web-pairings = 对阵
web-col-board = 台次
web-col-result = 结果
web-bracket = 淘汰赛对阵图
web-player-cards = 棋手卡片
web-viewer-title = 第 { $id } 局：{ $white } – { $black }
web-viewer-steps = 逐步查看对局
web-viewer-first = 开局
web-viewer-prev = 上一步
web-viewer-next = 下一步
web-viewer-last = 最后一步
web-analysis = 分析
web-accuracy = 准确率
web-advantage-label = { $count } 步的优势曲线：中线以上为白方优势，以下为黑方优势。点击某一点可跳到该步。
web-better-move = 更好的着法是 { $better }

# Discord 活动中的棋盘（登录时页面上的文字）。
web-activity-title = chessbot 棋盘
web-activity-signing-in = 正在通过 Discord 登录……
web-activity-failed = Discord 未能让你登录。请关闭活动后重新打开。
web-activity-no-game = 这个频道里没有对局：请先在这里向别人发起挑战，再打开棋盘。
# 进行中对局棋盘下方的按钮：在 Discord 里打开棋盘。
web-button-activity = 在 Discord 中打开
# 本机器人没有运行活动时，/activity 或该按钮的回答。
web-activity-off = 本机器人没有以 Discord 活动的形式提供棋盘（需由运营者设置 activity_client_id 和 activity_client_secret）。
# 比赛页面上的轮次标题（对阵、淘汰赛对阵图、棋手卡片）。
web-round = 第 { $round } 轮
