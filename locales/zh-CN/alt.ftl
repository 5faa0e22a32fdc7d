# 图片的文字说明，供读屏软件朗读：Discord 附件的 description（最多 1,024 个字符）。
# 棋盘完整描述（src/chess/describe.rs），图表和成绩表一句话概括。
alt-to-move = { $color }走棋。
alt-game-over = 对局结束：{ $ending }。
alt-last-move = 上一步：{ $san }。
alt-check = 将军！
alt-side = { $color }：{ $pieces }。
alt-pawns = 兵{ $squares }
# 疯狂象棋：一方手中可打入的棋子，例如“手中后、马 ×2、兵”。
alt-in-hand = 手中{ $pieces }
# 手中的兵（其他棋子按名称写作后、马）。
alt-pawn-in-hand = 兵
# 三将军象棋：双方已将军的次数（三次获胜）。
alt-checks-given = 已将军：白方{ $white }次，黑方{ $black }次（三次获胜）。
alt-game-number = 第{ $id }局
alt-replay = { $game }回放，{ $white }（白方）对 { $black }（黑方），共{ $count }步（单方）。最终局面：{ $position }
alt-replay-unnamed = { $game }回放，共{ $count }步（单方）。最终局面：{ $position }
alt-points-chart = { $name }的积分走势图，共{ $count }盘：从{ $first }到{ $last }，最低{ $low }，最高{ $high }。
alt-advantage-chart = 第{ $id }局优势图，共{ $count }步（单方），以兵为单位、从白方看：结束时{ $last }，最低{ $low }，最高{ $high }；标出{ $marked }步坏棋。
alt-advantage-chart-pasted = 粘贴棋局优势图，共{ $count }步（单方），以兵为单位、从白方看：结束时{ $last }，最低{ $low }，最高{ $high }；标出{ $marked }步坏棋。
alt-crosstable = 成绩表：{ $title }。共{ $players }名棋手；第一名：{ $leader }（{ $score }）。
alt-crosstable-empty = 成绩表：{ $title }。还没有棋手。
alt-privacy-export = 你的数据，JSON 文件，按数据表排列。
alt-pasted-game = 粘贴的对局
