# 第16号问题（来自实际使用）：对局在哪里、从设定局面开始的对局、PGN 文件、谁认输或中止了对局。

fixes-game-elsewhere-one = 这个频道里没有进行中的对局。你和 { $opponent } 的对局在{ $place }，请到那里走棋。
fixes-game-elsewhere-many = 这个频道里没有进行中的对局。你的对局：{ $places }。请到各自的频道里走棋。
# 频道写作 <#id>：在 Discord 上是链接，在控制台里显示为 #名称。
fixes-game-place-thread = 子区 <#{ $channel }>
fixes-game-place-channel = <#{ $channel }>
fixes-game-place-with = 与 { $opponent } 的对局在{ $place }
fixes-fen-unrated = 从设定局面开始的对局（`fen`）不计积分：请不要填写 `rated`，或把它设为 false。
fixes-pgn-attached = 第{ $game }局的 PGN 已作为附件发送（共{ $count }回合）。
fixes-resigned = { $name } 认输。{ $result }
fixes-aborted = { $name } 中止了对局。{ $result }
