# 浏览器中的实时棋盘（“在浏览器中下棋”）：页面用词（交给 assets/web/board.js），以及服务器自己的纯文本页面（src/web）。

# 棋盘上方的横幅：页面正在首次连接服务器。
web-connecting = 正在连接…
# 棋盘上方的横幅：连接中断后正在重新连接。
web-reconnecting = 正在重新连接…
# 侧栏：观看对局而不是下棋的人。
web-watching = 观战中
# 侧栏：轮到观看者走棋。
web-your-turn = 轮到你走棋
# 侧栏：观看者已预先设定下一步（预走）。
web-premove-set = 已设预走：轮到你时会立即走出。
# 侧栏，在 web-premove-set 下方。
web-premove-cancel-hint = 点击任意空格即可取消。

# 侧栏按钮。
web-resign = 认输
# 侧栏：按下“认输”后，显示在“是”和“否”按钮上方。
web-resign-confirm = 确定要认输吗？此操作无法撤销。
# 回答 web-resign-confirm 的按钮。
web-yes = 是，认输
# 回答 web-resign-confirm 的按钮。
web-no = 否

# 侧栏按钮。
web-draw-offer = 提和
# 侧栏按钮：对手提和时显示。
web-draw-accept = 接受和棋
# 侧栏按钮：对手提和时显示。
web-draw-decline = 拒绝
# 侧栏按钮：观看者可以要求判和（重复局面或50回合规则）时显示。
web-draw-claim = 要求判和
# 侧栏：观看者本人的提和仍然有效时显示。
web-draw-offered-by-you = 你已提和；在对手回应或走棋之前一直有效。
# 侧栏：显示在接受和拒绝按钮上方。
web-draw-offered-to-you = 对手提和。

# 侧栏按钮：请求悔棋（收回上一步）。
web-takeback = 请求悔棋
# 侧栏按钮：对手请求悔棋时显示。
web-takeback-accept = 同意悔棋
# 侧栏按钮：对手请求悔棋时显示。
web-takeback-decline = 不同意
# 侧栏：观看者本人的悔棋请求仍然有效时显示。
web-takeback-asked-by-you = 你已请求悔棋，正在等待对手回应。
# 侧栏：显示在同意和不同意按钮上方。
web-takeback-asked-to-you = 对手请求收回上一步。

# 侧栏按钮：双方都走棋之前显示。
web-abort = 中止对局
# 对局结束后的侧栏按钮：以相同设置再下一局（提出或接受）。
web-rematch = 再来一局
# 对局结束后的侧栏：对手提出再来一局时，显示在按钮上方。
web-rematch-offered-to-you = 对手提议再来一局。
# 侧栏按钮：给对手的棋钟加时。
web-give-time = 给对手加时

# 兵走到底线时，棋盘上方选择框的标题。
web-promote-to = 升变为
# 升变选择框中按钮的名称（供读屏软件朗读，鼠标悬停时显示）。
web-queen = 后
web-rook = 车
web-bishop = 象
web-knight = 马
# 自杀象棋中兵可以升变为王；疯狂象棋的手中棋子也包括兵。
web-king = 王
web-pawn = 兵
# 疯狂象棋：玩家手中可打入的棋子的标签。
web-pocket = 手中棋子
# 三将军象棋：玩家已将军次数的标签，后接“: 1/3”。
web-checks-given = 已将军次数

# 侧栏着法列表的标题。
web-moves = 着法
# 通信棋局：在走棋一方的名字旁显示剩余的走棋时间，例如“2天5小时”或“3:12:09”。
web-deadline = 剩余 { $left }
# 对局结束后侧栏的标题。
web-game-over = 对局结束
# 颜色名称，显示在棋手名字旁。
web-white = 白方
web-black = 黑方

# 服务器拒绝链接时页面的标题。
web-forbidden-title = 此链接无法使用
# 服务器拒绝链接时的页面。
web-forbidden = 此链接无效：它已过期，或者属于另一盘对局。请在机器人那里用“在浏览器中下棋”按钮获取新链接。
# 有人想观战但观战功能已关闭时，服务器显示的页面。
web-spectators-off = 本服务器不允许观战。
# 任何没有内容的地址（不存在的对局、未开启网页的俱乐部）显示的页面：两者相同，不透露任何信息。
web-not-found-title = 找不到页面
web-not-found = 这个地址没有内容。
# 棋盘页面的标题（浏览器标签页），例如“alice – bob”。
web-title = { $white } – { $black }
