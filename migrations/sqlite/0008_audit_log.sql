-- Operations (issue 18): the moderators' audit log. One row per recorded
-- action: a settings change, a result correction, a tournament action, a
-- data deletion. Who (id and the name they had), what (`action` and its
-- `subject`, e.g. `setting` / `theme`), the old and new values as text, and
-- when (unix ms). A player who asks to be forgotten is replaced here by
-- 'deleted player' like everywhere else.
CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    server_id  TEXT    NOT NULL,
    actor_id   TEXT    NOT NULL,
    actor_name TEXT    NOT NULL,
    action     TEXT    NOT NULL,
    subject    TEXT    NOT NULL,
    old_value  TEXT,
    new_value  TEXT,
    at_ms      INTEGER NOT NULL
);
CREATE INDEX audit_log_by_server ON audit_log (server_id, id);
