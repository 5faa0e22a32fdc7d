# 运维（第 18 号议题）：防刷屏限制、管理员审计日志、个人数据请求（/privacy）。

ops-slow-down = 请慢一点：你的请求太频繁了。请 { $seconds } 秒后再试。
ops-server-busy = 本服务器现在请求的图片和导出太多了。请 { $seconds } 秒后再试。

audit-moderators-only = 只有管理员（拥有“管理服务器”权限）才能查看本服务器的审计日志。
audit-page-from-one = `page` 从 1 开始。
audit-no-page = 没有第{ $page }页：审计日志一共只有{ $pages }页。
audit-empty = 审计日志是空的：还没有记录任何设置更改或数据删除。
audit-header = 审计日志，第{ $page }页，共{ $pages }页（最新的在前）：
audit-line-setting = { $when } — { $who } 将 `{ $setting }` 从 { $old } 改为 { $new }
audit-line-forget = { $when } — 应一名玩家本人的要求，删除了其数据
audit-line-other = { $when } — { $who }：{ $action } { $subject }：{ $old } → { $new }

privacy-nothing-stored = 我没有存储任何关于你的信息：没有对局、挑战、积分或设置。
privacy-nothing-to-erase = 我没有存储任何关于你的信息，所以没有可删除的内容。
privacy-show-attached = 我存储的关于你的全部信息都在附件里。使用 `/privacy forget` 可以将其删除。
privacy-forget-confirm = 这会在我保存数据的所有服务器上删除你的 ID 和名字：你的积分、积分记录、挑战和休假都会被删除；你下完的对局会为对手保留，对局者显示为“已删除的玩家”。此操作无法撤销。确定全部删除吗？
privacy-forget-button = 删除我的数据
# 被删除数据的玩家在对局和日志中的名字（PGN 文件仍写 "deleted player"）。
player-deleted = 已删除的玩家
privacy-forget-done = 完成：我存储的关于你的所有信息都已删除。你以后再使用命令，就会从头开始。
privacy-active-games = 你还有 { $count } 盘对局正在进行。请先下完或认输（`/games` 会列出这些对局），然后再来申请。
