-- Time (issue 6): extra time per turn, reminders sent once, vacations,
-- notification preferences, daily DM summaries, and the bot's heartbeat
-- (to tell downtime at start-up).

-- Time added to the current turn of the side to move (give-time, downtime
-- grace); reset by every move.
ALTER TABLE games ADD COLUMN bonus_ms INTEGER NOT NULL DEFAULT 0;

ALTER TABLE players ADD COLUMN notify_dm INTEGER NOT NULL DEFAULT 0;

ALTER TABLE servers ADD COLUMN vacation_days_per_year INTEGER NOT NULL DEFAULT 14;
-- Hours before a correspondence deadline at which the player is reminded.
ALTER TABLE servers ADD COLUMN reminder_hours TEXT NOT NULL DEFAULT '24,1';

CREATE TABLE vacations (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    server_id TEXT    NOT NULL,
    user_id   TEXT    NOT NULL,
    starts_ms INTEGER NOT NULL,
    ends_ms   INTEGER NOT NULL
);
CREATE INDEX vacations_by_player ON vacations (server_id, user_id, ends_ms);

-- One row per reminder sent: the primary key makes each reminder fire once,
-- even with several processes.
CREATE TABLE reminders_sent (
    game_id INTEGER NOT NULL,
    ply     INTEGER NOT NULL,
    hours   INTEGER NOT NULL,
    sent_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, hours)
);

CREATE TABLE dm_summaries (
    server_id TEXT    NOT NULL,
    user_id   TEXT    NOT NULL,
    day       INTEGER NOT NULL,
    PRIMARY KEY (server_id, user_id, day)
);

CREATE TABLE bot_state (
    key   TEXT    PRIMARY KEY,
    value INTEGER NOT NULL
);

-- Challenges from a position (an endgame to practise, a game to resume).
ALTER TABLE challenges ADD COLUMN initial_fen TEXT;

-- When the next reminder of the current turn falls: the scheduler's index,
-- so a tick reads only the games with something due.
ALTER TABLE games ADD COLUMN next_reminder_ms INTEGER;
CREATE INDEX games_by_next_reminder ON games (next_reminder_ms) WHERE status = 'active';

-- Finding a channel's game (every command) without scanning all games.
CREATE INDEX games_by_channel ON games (channel_id, id);
