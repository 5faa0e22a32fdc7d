# 控制台界面自己的文字。

console-deadline = 期限：{ $when }
console-deadline-in = { $left }后
console-deadline-passed = 已过

# 控制台读不懂的输入行（src/platform/console/parse.rs）。
console-unknown-directive = 未知的指令 `:{ $word }`：可用 :channel 频道名、:advance 3d、:restart、:restart 2h（停机2小时）、:locale 名字 zh-CN 或 :puzzles 文件
console-puzzles-added = 已从 { $file } 加入 { $count } 道习题
console-puzzles-bad = 无法从 { $file } 载入习题：{ $problem }
console-line-form = 请写 `名字: /命令 …` 或 `名字: click 按钮名`
console-bad-user-name = 用户名只能由字母、数字、`_` 或 `-` 组成（最多32个字符）
console-not-a-command = 命令以 `/` 开头，按按钮用 `click`
console-which-command = 哪个命令？
console-open-quote = 引号没有闭合
console-unknown-command = 未知的命令 `/{ $command }`；试试 `/help`
console-no-such-option = `/{ $command }` 没有选项 `{ $name }`；它的选项有：{ $options }
console-no-options = `/{ $command }` 没有选项 `{ $name }`；它不带任何选项
console-too-many-values = `/{ $command }` 的值太多了；它的选项有：{ $options }
console-takes-no-values = `/{ $command }` 不带任何选项
console-option-twice = 选项 `{ $name }` 给了两次
console-bad-color = `color` 只能是 white（白方）、black（黑方）或 random（随机）
console-bad-board = `board` 只能是 games（对局）或 puzzles（习题）
console-move-needs-text = `/move` 需要写出着法，例如 `/move e4`
console-bad-draw-action = `action` 只能是 offer（提和）、accept（接受）、decline（拒绝）或 claim（要求判和）
console-play-needs-level = `/play` 需要1到8的难度，例如 `/play level:1`
console-rating-needs-opponent = `/rating` 需要指定对手，例如 `/rating @李娜`
console-privacy-subcommand = `/privacy` 后面要写 `show`（查看）或 `forget`（删除）
console-settings-or-log = 要么修改设置，要么查看审计日志（`log`），不能同时进行
console-bad-notify = `notify` 只能是 dm（私信）或 channel（频道）
console-notify-needs-mode = `/notify` 需要 `dm`（私信）或 `channel`（频道）
console-vacation-needs-days = `/vacation` 需要 `days`（天数；0 表示结束休假）
console-bad-takeback-action = `action` 只能是 request（请求）、accept（接受）或 decline（拒绝）
console-bad-orientation = `/board-orientation` 只能是 `auto`（从走棋一方看）或 `white`（白方始终在下）
console-bad-user-ref = 请用 `@名字` 指定用户
console-not-boolean = `{ $name }` 只能是 true（是）或 false（否）
console-not-number = `{ $name }` 必须是整数

# `:advance` 和 `:restart` 的时长（src/clock/duration.rs）。
console-duration-empty = 没有给出时长：例如 3d、1h30m、90s 或 2h
console-duration-too-long = 这个时长太长，无法读取（{ $count }个字符）：例如 3d、1h30m、90s 或 2h
console-duration-invalid = `{ $text }` 不是时长：请写数字加单位（w 周、d 天、h 小时、m 分钟、s 秒），例如 3d、1h30m、90s 或 2h
console-duration-overflow = `{ $text }` 这个时长太长了

# 控制台自己的报告（src/platform/console/mod.rs）。
console-locale-set = { $user } 的语言：{ $locale }
console-locale-none = 无
console-time-advances = 时间前进 { $by }
console-was-down = 机器人停机了 { $by }
console-restarted = 机器人已重启
console-no-button = 这里没有“{ $label }”按钮
console-thread-opened = 已开启子区 #{ $name }
# 输出格式里的标记，紧跟在名字后面（`bot → 张伟（仅你可见）:`）。
console-only-you = （仅你可见）
console-edit = （已编辑）
console-field = { $name }：{ $value }
console-no-engine = 没有找到国际象棋引擎：/play 和 /analyze 不可用（请安装 stockfish 或用 --engine-path 指定）
console-conditional-subcommand = `/conditional` 后面要跟 `add`、`list` 或 `clear`，例如 `/conditional add e5 Nf3`
console-conditional-needs-line = `/conditional add` 需要一行着法，例如 `/conditional add line:"Nxd5 Qxd5 Nc3"`
console-image-alt = 图片说明：{ $text }
console-file-unreadable = 无法读取文件 `{ $path }`：{ $reason }
console-adjourn-subcommand = `/adjourn` 后面要跟 `offer`、`accept`、`decline`、`now` 或 `resume`，例如 `/adjourn resume when:"2026-12-05 19:00"`
console-adjourn-needs-when = `/adjourn resume` 需要时间，例如 `/adjourn resume when:"2026-12-05 19:00"`
console-title-needs-user = `/title` 需要指定成员，例如 `/title @bob GM`
console-title-needs-title = `/title` 需要称号（GM、IM、FM、WGM、WIM 或 none），例如 `/title @bob GM`
console-link-button = 这个按钮在浏览器中打开 { $url }
