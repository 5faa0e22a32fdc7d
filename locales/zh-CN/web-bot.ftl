# 网页棋盘在对局页面之外的用语（issue 25）。

# 机器人没有开启网页棋盘时，对“在浏览器中下棋”的回答。
web-off = 本机器人没有开启网页棋盘。
# 对“在浏览器中下棋”的私密回答，位于链接按钮上方。
web-link-private = 这是你在浏览器中下这盘棋的专属链接（一天内有效；请勿分享：拿到链接的人就能以你的身份走棋）。
# 棋盘消息下的按钮：棋手自己的链接（私密回答）。
web-button-play = 在浏览器中下棋
# 棋盘消息下的链接按钮：观战页面。
web-button-watch = 实时观战
# /settings spectators 的确认。
web-settings-done-spectators = 网页观战：{ $value }
# 观战者的页面发来了走棋或按钮操作。
web-spectator-cannot-act = 你正在观战：只有对局双方可以走棋。
# 网页棋盘的首页。
web-index-title = chessbot 实时棋盘
web-index = 请用机器人在 Discord 里给你的链接打开对局（棋盘下方的“在浏览器中下棋”按钮），或用“实时观战”按钮观看对局。
# 已结束对局页面上通往再战对局的链接。
web-rematch-open = 前往再战对局
