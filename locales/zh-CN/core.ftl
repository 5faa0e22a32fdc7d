# 通用词语：时长，以及机器人自身出错时的致歉。

days = { $count }天
hours = { $count }小时
error-apology = 抱歉，我这边出了点问题，什么都没有改变。请稍后再试。
