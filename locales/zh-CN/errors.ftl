# 所有命令共用的拒绝消息。

error-option-too-long = `{ $option }` 太长了（{ $count }个字符；最多{ $limit }个）。
error-thread-move-failed = 抱歉，我没能把对局移到子区里。
