# Operations (issue 18): flood limits, the moderators' audit log, data
# requests (/privacy).

ops-slow-down = Slow down, please: too many requests. Try again in { $seconds } s.
ops-server-busy = This server is asking for many images and exports right now. Try again in { $seconds } s.

audit-moderators-only = Only moderators (Manage Server) can read this server's audit log.
audit-page-from-one = `page` starts at 1.
audit-no-page = There is no page { $page }: the audit log has { $pages ->
    [one] { $pages } page
   *[other] { $pages } pages
}.
audit-empty = The audit log is empty: no settings change or data deletion recorded yet.
audit-header = Audit log, page { $page } of { $pages } (newest first):
audit-line-setting = { $when } — { $who } changed `{ $setting }`: { $old } → { $new }
audit-line-forget = { $when } — a player's data was erased at their request
audit-line-other = { $when } — { $who }: { $action } { $subject }: { $old } → { $new }

privacy-nothing-stored = I store nothing about you: no games, challenges, points or settings.
privacy-nothing-to-erase = I store nothing about you, so there is nothing to erase.
privacy-show-attached = Everything I store about you is in the attached file. `/privacy forget` erases it.
privacy-forget-confirm = This erases your id and name from every server I keep data for: your points, rating history, challenges and vacations go, and your finished games stay for your opponents as played by "deleted player". It cannot be undone. Erase everything?
privacy-forget-button = Erase my data
# How an erased player is named in games and logs (PGN files keep "deleted player").
player-deleted = deleted player
privacy-forget-done = Done: everything I stored about you is erased. If you use a command again, you start afresh.
privacy-active-games = You have { $count ->
    [one] { $count } game
   *[other] { $count } games
} in progress. Finish or resign { $count ->
    [one] it
   *[other] them
} first (`/games` lists them), then ask again.
