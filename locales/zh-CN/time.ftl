# 时间：时长、用时规则、期限、提醒、超时、休假、加时、每日私信摘要。

unit-separator = { "" }
unit-days-short = { $count }天
unit-hours-short = { $count }小时
unit-minutes-short = { $count }分钟
unit-seconds-short = { $count }秒

time-days-per-move = 每步{ $count }天
time-with-increment = { $base }，每步加{ $increment }
time-stage = { $count }步限时{ $time }
time-stage-repeating = 之后每{ $count }步限时{ $time }
time-stage-rest = 余下着法共{ $time }
time-stage-increment = ，每步加{ $increment }
time-stage-then = ；{ "" }

time-option-invalid = `time`：{ $reason }
time-error-empty = 没有给出用时规则：例如 3d（每步3天）、10+5（分钟 + 每步加秒）或 40/9000:16/3600
time-error-too-long = 用时规则太长，无法读取（{ $count }个字符）：例如 3d、10+5 或 40/9000:16/3600
time-error-unrecognized = `{ $input }` 不是用时规则：例如 3d（每步3天）、10+5（分钟 + 每步加秒）或 40/9000:16/3600
time-error-what-days = 天数
time-error-what-minutes = 分钟数
time-error-what-moves = 步数
time-error-what-seconds = 秒数
time-error-bad-number = `{ $input }` 中的 `{ $part }` 不是整数{ $what }
time-error-days-not-offered = `{ $input }`：通讯棋每步可选 1、2、3、5、7、10 或 14 天
time-error-no-time = `{ $input }` 没有任何时间：快棋需要基本用时，例如 10+5
time-error-base-out-of-range = `{ $input }`：基本用时须为 1 到 180 分钟（格式为“分钟+秒”，例如 10+5）
time-error-increment-out-of-range = `{ $input }`：每步加秒须为 0 到 180 秒
time-error-moves-out-of-range = `{ $input }`：每个阶段须为 1 到 200 步
time-error-stage-time-out-of-range = `{ $input }`：每个阶段的时间须为 1 到 36000 秒（10小时）
time-error-sudden-death-not-last = `{ $input }`：只有最后一个阶段可以不限步数（包干制）
time-error-too-many-stages = `{ $input }`：最多 5 个阶段
time-error-base-not-whole-minutes = `{ $input }`：不分阶段时，基本用时须为整分钟（60 到 10800 秒）

time-unstarted-aborted = 双方没有及时走出第一步，对局中止，不计分。
time-ran-out = { $name }（{ $color }）超时。
time-summary-title = 等你走棋的对局：
time-summary-line = • 第{ $id }局，对 { $opponent }
time-summary-line-left = • 第{ $id }局，对 { $opponent }，还剩{ $left }
time-reminder = 提醒：你对 { $opponent } 的对局（第{ $id }局）轮到你走了，还剩{ $left }。
time-downtime-live = 机器人刚才掉线了；双方棋钟从上一步时的状态继续。（第{ $id }局）
time-downtime-grace = 你的期限到时机器人正好掉线：再给你一小时。（第{ $id }局）

vacation-not-on = 你没有在休假。
vacation-back = { $name }休假回来了：其对局的棋钟重新开始计时。
vacation-days-range = `days` 须在 1 到 { $budget } 之间（本服务器每年的休假天数），或用 0 结束休假。
vacation-already = 你已经在休假了（还剩{ $left }）。用 `/vacation days:0` 结束休假。
vacation-too-much = 剩余的休假天数不够：今年共{ $budget }天，还剩{ $left }天。
vacation-started = { $name }休假{ $count }天：其通讯棋的期限暂停计算。走棋时休假提前结束。
give-time-own-turn = 只能在轮到对手走时给对手加时。
give-time-not-correspondence = 只有通讯棋可以加时。
give-time-max = 对手这一步已经多了{ $count }天，不能再加了。
give-time-moved-on = 这盘棋已经有了新进展，什么都没有改变。
give-time-given = { $name }给{ $opponent }这一步多加了一天（还剩{ $left }）。
button-give-time = 加时一天
time-error-too-fast = `{ $input }`：每个阶段平均每步至少要有5秒（`40/1` 是40步共1秒）；例如 40/5400 表示90分钟40步
time-no-clock = 不计时
