# lichess 和 chess.com 棋手习惯的功能（问题 16 第二部分）：挑战编号、悔棋、
# 再来一局、对局回放、棋盘方向、/games。

## 挑战编号
features-challenge-number = 挑战编号 #{ $id }。
features-challenge-several = 这里有好几个挑战在等待，请用编号指明是哪一个，例如 `challenge:ID`：
features-challenge-line-rated = #{ $id }，{ $from } 向 { $to } 发起：计积分，{ $time }
features-challenge-line-unrated = #{ $id }，{ $from } 向 { $to } 发起：不计积分，{ $time }
features-challenge-anyone = 任何人
features-challenge-accepted = { $name } 接受了挑战 #{ $id }！{ $white }（白方）对 { $black }（黑方）。
features-challenge-declined = { $name } 拒绝了 { $challenger } 发起的挑战 #{ $id }。
features-challenge-cancelled = { $name } 取消了挑战 { $challenge }。

## 悔棋
features-button-takeback = 悔棋
features-button-takeback-accept = 同意悔棋
features-button-takeback-decline = 拒绝悔棋
features-takeback-rated = 只有不计积分的友谊对局才能悔棋：这盘棋计积分，落子无悔。
features-takeback-already-asked = 你已经请求过悔棋了，正在等 { $opponent } 答复。
features-takeback-pending = { $opponent } 请求悔棋，请先同意或拒绝。
features-takeback-nothing = 你还没有走过棋，没有可悔的着法。
features-takeback-none = 没有需要答复的悔棋请求。
features-takeback-own = 这是你自己的请求，由 { $opponent } 来答复。
features-takeback-moved-on = 这盘棋已经有了新变化，什么都没有改变。请看最新的棋盘。
features-takeback-one = { $san }这步棋
features-takeback-two = { $mine }这步棋和对方的应着{ $reply }
features-takeback-asks = { $name } 请求悔回{ $moves }。{ $opponent }，你同意吗？
features-takeback-declined = { $name } 拒绝了悔棋，原着法保留，继续下吧！
features-takeback-accepted = { $name } 同意了悔棋：已悔回{ $moves }。

## 再来一局
features-button-rematch = 再来一局
features-rematch-not-found = 找不到这盘棋。
features-rematch-active = 这盘棋还在进行中，结束后才能约再来一局。
features-rematch-not-player = 只有这盘棋的双方才能约再来一局。
features-rematch-started = 再来一局已经开始了：第{ $game }局。
features-rematch-already-offered = 你已经提出再来一局了，正在等 { $opponent } 点击“再来一局”。
features-rematch-answered = 这个再来一局的邀请刚刚已有答复，什么都没有改变。
features-rematch-offer = { $name } 提议交换颜色再来一局。{ $opponent }，点击“再来一局”即可开始。
features-rematch-no-thread = 这盘棋一直没有开出子区，请用 `/challenge` 重新发起。
features-rematch-busy = 这个频道里还有一盘棋在进行，请先下完。
features-rematch-erased = 那盘棋的对手已经删除了自己的数据：没有人可以接受再来一局。
features-rematch-accepted = { $name } 接受了再来一局：第{ $game }局，{ $white }（白方）对 { $black }（黑方）。

## 对局回放
features-replay-not-found = 本服务器上找不到第{ $game }局。
features-replay-no-game = 这个频道里还没有对局。请指明一局，例如 `/replay game:12`（`/games` 和 `/history` 会列出对局）。
features-replay-too-long = 第{ $game }局太长，无法做成动图回放（{ $plies } 个半回合，最多 { $max } 个）。完整棋谱请用 `/pgn`。
features-replay-caption = 第{ $game }局回放：{ $white }（白方）对 { $black }（黑方），{ $outcome }。
features-replay-in-progress = 对局进行中
features-replay-result = { $result }，{ $ending }

## 棋盘方向
features-orientation-white = 轮到你走棋时（以及你的回放中），棋盘将固定白方在下。
features-orientation-auto = 轮到你走棋时（以及你的回放中），棋盘将从你这一方的视角显示。
features-orientation-retry = 请稍后再试。

## /games
features-games-left = 剩余 { $left }
features-games-clocks = 你的棋钟 { $mine }，对方 { $theirs }
