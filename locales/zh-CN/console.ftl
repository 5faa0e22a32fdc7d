# 控制台界面自己的文字。

console-deadline = 期限：{ $when }
console-deadline-in = { $left }后
console-deadline-passed = 已过
