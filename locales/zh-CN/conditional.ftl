# 条件着法（问题 19）：通讯棋中预先输入的应着，对手一走进变化就立即走出。

conditional-live = 条件着法只用于通讯棋；这盘是快棋（{ $time }），每一步都要当场走。
conditional-empty = 这条变化里没有着法。请从对手的下一步开始依次写出着法，例如 `/conditional add line:"马xd5 后xd5 马c3"`。
conditional-too-long = 这条变化有 { $moves } 步；一条变化最多 { $limit } 步（双方的着法都算）。
conditional-bad-move-first = 变化的第1步不成立：{ $reason }
conditional-bad-move = 变化的第{ $number }步（在 { $before } 之后）不成立：{ $reason }
conditional-after-end = 走完 { $last } 对局就结束了：变化的第{ $number }步永远走不到。
conditional-no-answer = 这条变化以对手的着法 { $last } 结尾：请加上你的应着（变化由对手和你的着法交替组成，以你的着法结尾）。
conditional-conflict = 这条变化与你之前输入的冲突：在 { $before } 之后，你原来的应着是 { $existing }，这条变化却是 { $new }。同一局面只能有一个应着；要修改，请先用 `/conditional clear` 清除，再重新输入。
conditional-conflict-first = 这条变化与你之前输入的冲突：你原来的下一步是 { $existing }，这条变化却是 { $new }。要修改，请先用 `/conditional clear` 清除，再重新输入。
conditional-too-big = 你在这盘棋里的条件着法将达到 { $moves } 步，最多 { $limit } 步。可用 `/conditional clear` 清除后重新开始。
conditional-added = 已添加条件着法：{ $line }。{ $opponent } 看不到它；对手一走进这条变化，你的应着就会立即走出。
conditional-added-own-turn = 现在轮到你走：照常用 `/move` 走 { $first }，之后的应着按变化自动走出。
conditional-already = 这条变化你已经输入过了：{ $line }。
conditional-none = 你在这盘棋里没有条件着法。用 `/conditional add line:"…"` 添加一条变化：对手的下一步、你的应着、对手的再下一步，依此类推。
conditional-list-title = 你在第 #{ $id } 局的条件着法（你是{ $color }，只有你能看到）：
conditional-list-line = • { $line }
conditional-list-footer = 共 { $lines } 条变化，{ $moves } 步。用 `/conditional clear` 清除。
conditional-cleared = 你在这盘棋里的条件着法已清除。
conditional-nothing-to-clear = 你在这盘棋里没有条件着法，什么都没有改变。
conditional-played = { $name } 的条件着法：{ $answer }
conditional-missed = 第 #{ $id } 局（对 { $opponent }）：对手走了 { $san }，不在你的条件着法里，所以条件着法已清除。现在轮到你走。
conditional-missed-own = 第 #{ $id } 局：你走了 { $san }，不在你的条件着法里，所以条件着法已清除。

## Discord 命令名（中文客户端显示的名字）
cmd-conditional = 条件着法
cmd-conditional-desc = 通讯棋：对手一走，预先输入的应着立即走出。
cmd-conditional-add = 添加
cmd-conditional-add-desc = 添加一条变化：对手的着法、你的应着、对手的着法……（只有你能看到）。
cmd-conditional-list = 查看
cmd-conditional-list-desc = 你在这盘棋里的条件着法（只有你能看到）。
cmd-conditional-clear = 清除
cmd-conditional-clear-desc = 清除你在这盘棋里的全部条件着法。
opt-line = 变化
opt-line-desc = 依次写出着法，例如 马xd5 后xd5 马c3（轮到你走时从你自己的着法开始）
