# 对局：颜色、终局方式、着法输入错误、棋盘回复、和棋、认输。

color-white = 白方
color-black = 黑方

piece-pawn = 兵
piece-knight = 马
piece-bishop = 象
piece-rook = 车
piece-queen = 后
piece-king = 王

termination-checkmate = 将死
termination-resignation = 认输
termination-timeout = 超时判负
termination-stalemate = 逼和
termination-insufficient-material = 子力不足（双方都无法将死对方）
termination-fivefold-repetition = 五次重复局面
termination-seventy-five-move-rule = 75回合规则
termination-threefold-repetition = 三次重复局面（已提和）
termination-fifty-move-rule = 50回合规则（已提和）
termination-agreement = 协议和局
termination-aborted = 中止
termination-adjudication = 裁决
termination-illegal-moves = 三次走出送王的非法着法

ending-win = { $color }胜（{ $termination }）
ending-timeout-draw = 和棋：一方超时，但对方已不可能将死
ending-draw = 和棋（{ $termination }）
ending-aborted = 对局已中止

input-type-a-move = 请输入着法。
input-unreadable = 看不懂着法 `{ $input }`。
input-illegal = `{ $input }` 在这里不合规则：{ $reason }。
input-try = 可以试试：{ $moves }。
input-ambiguous = `{ $input }`：是哪个{ $piece }？{ $candidates }？
input-list-or = { $first }还是{ $last }
illegal-king-into-check = 你的王会被将军
illegal-leaves-king-in-check = 走完后你的王仍处于被将军状态
illegal-piece-cannot-go = 你在{ $from }的{ $piece }走不到{ $to }
illegal-piece-cannot-capture = 你在{ $from }的{ $piece }不能吃{ $to }的子
illegal-no-piece-can-go = 你没有能走到{ $to }的{ $piece }
illegal-no-piece-can-capture = 你没有能吃{ $to }的{ $piece }
illegal-own-piece-there = { $square }上是你自己的{ $piece }
illegal-empty-square = { $square }上没有棋子
illegal-not-your-piece = { $square }上的棋子不是你的
illegal-wrong-piece = { $square }上是{ $found }，不是{ $named }
illegal-castling-no-right = 这一侧已经不能王车易位了（王或车已经动过）
illegal-castling-not-granted = 本局开始时就没有这一侧的王车易位权，所以不能向这一侧易位
illegal-castling-in-check = 被将军时不能王车易位
illegal-castling-pieces-in-the-way = 王和车之间还有棋子
illegal-castling-through-check = 王会经过被攻击的格子
illegal-no-promotion = 只有走到底线的兵才能升变
illegal-promotion-required = 请说明兵升变成什么：加上 =后、=车、=象 或 =马（也可用 =Q、=R、=B、=N）
illegal-no-legal-moves = 对局已经结束，没有合法着法

rule-not-legal = `{ $uci }` 在这里不是合法着法。
rule-game-over = 这盘棋已经结束了。
rule-not-your-turn = 还没轮到你走。
rule-no-draw-offer = 对手没有提和。
rule-already-offered = 你已经提和了；在对手回应或走棋之前，提和一直有效。
rule-nothing-to-claim = 现在不能要求和棋：需要轮到你走时同一局面出现三次（三次重复局面），或双方各走50步都没有吃子或动兵（50回合规则）。
rule-claim-with-move-fails = `{ $san }` 走完后既不构成重复局面，也不满足50回合规则，所以这步棋没有走。
rule-abort-too-late = 只有在双方都还没走第一步时才能中止对局；现在请认输或提和。
rule-illegal-king-move-counted = 第{ $count }次送王（共{ $limit }次；本服务器规则：第三次判负）。

game-not-found = 找不到这盘棋。
game-button-stale = 这个按钮显示之后对局已经有了新进展，什么都没有改变。请使用最新的棋盘。
game-not-your-turn = 还没轮到你：正在等{ $name }（{ $color }）走棋。
game-none-in-channel = 这个频道里还没有对局。用 `/challenge` 发起一盘吧。
game-resign-confirm = 确定要认输吗？认输后无法撤回。
game-draw-offered = { $name }提和。在{ $opponent }回应或走棋之前，提和一直有效。
game-draw-declined = { $name }拒绝了和棋提议。继续下吧！
game-not-playing = 你没有参加这盘棋。
button-resign = 认输
button-resign-confirm = 确定认输
button-draw-offer = 提和
button-draw-accept = 同意和棋
button-draw-decline = 拒绝和棋
button-draw-claim = 要求和棋

board-title = { $white }（白方）对 { $black }（黑方）
board-to-move = 轮到{ $name }（{ $color }）走棋。
board-turn = { $name }（{ $color }）
board-game-over = 对局结束：{ $ending }。
board-draw-offer = { $name }提和
claim-threefold = 三次重复局面
claim-fifty-move = 50回合规则
board-draw-claim = { $name }可以要求和棋：{ $termination }
board-field-turn = 轮到
board-field-result = 结果
board-field-last-move = 上一步
board-field-opening = 开局
board-field-draw-offer = 提和
board-field-draw-claim = 可要求和棋
board-field-time = 用时
board-field-points = { $name }的积分
board-points-change = { $before } → { $after }（{ $delta }），{ $level }
board-footer-rated = 第{ $id }局 · 计分
board-footer-unrated = 第{ $id }局 · 不计分
game-finished = 已结束
game-over-in-channel = 这个频道的对局已经结束（{ $ending }）。用 `/challenge` 开始新的一盘。
game-none-in-progress = 这个频道里没有进行中的对局。用 `/challenge` 发起一盘吧。
game-moved-on = 这盘棋已经有了新进展，什么都没有改变。请看最新的棋盘。
board-field-deadline = 期限
button-unknown = 这个按钮已经不是我的了。
