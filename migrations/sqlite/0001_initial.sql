-- chessbot schema (SQLite). Ids of servers, channels and users are the
-- platform's ids as text; points are integer hundredths; times are unix ms.

CREATE TABLE servers (
    id                         TEXT    PRIMARY KEY,
    default_time_control       TEXT    NOT NULL DEFAULT '3d',
    threads                    INTEGER NOT NULL DEFAULT 1,
    theme                      TEXT    NOT NULL DEFAULT 'brown',
    strict_illegal_moves       INTEGER NOT NULL DEFAULT 0,
    challenge_ttl_ms           INTEGER NOT NULL DEFAULT 86400000,
    rated_games_per_pair_daily INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE players (
    server_id    TEXT    NOT NULL REFERENCES servers (id),
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    points       INTEGER NOT NULL DEFAULT 0,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0,
    losses       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, user_id)
);
CREATE INDEX players_by_points ON players (server_id, points DESC);

CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    server_id     TEXT    NOT NULL REFERENCES servers (id),
    channel_id    TEXT    NOT NULL,
    challenger_id TEXT    NOT NULL,
    opponent_id   TEXT,
    color         TEXT    NOT NULL,
    rated         INTEGER NOT NULL,
    time_control  TEXT    NOT NULL,
    created_ms    INTEGER NOT NULL,
    expires_ms    INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'pending',
    game_id       INTEGER
);
CREATE INDEX challenges_pending ON challenges (server_id, status, challenger_id);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    server_id        TEXT    NOT NULL REFERENCES servers (id),
    home_channel_id  TEXT    NOT NULL,
    -- Where the game lives; NULL while its thread is being opened.
    channel_id       TEXT,
    white_id         TEXT    NOT NULL,
    black_id         TEXT    NOT NULL,
    rated            INTEGER NOT NULL,
    time_control     TEXT    NOT NULL,
    initial_fen      TEXT,
    status           TEXT    NOT NULL DEFAULT 'active',
    result           TEXT,
    termination      TEXT,
    -- Bumped by every change: stale buttons and racing writers lose.
    version          INTEGER NOT NULL DEFAULT 0,
    draw_offer       TEXT,
    illegal_white    INTEGER NOT NULL DEFAULT 0,
    illegal_black    INTEGER NOT NULL DEFAULT 0,
    deadline_ms      INTEGER,
    created_ms       INTEGER NOT NULL,
    ended_ms         INTEGER
);
CREATE UNIQUE INDEX one_active_game_per_channel ON games (channel_id)
    WHERE status = 'active' AND channel_id IS NOT NULL;
CREATE INDEX games_by_player_white ON games (server_id, white_id, status);
CREATE INDEX games_by_player_black ON games (server_id, black_id, status);
CREATE INDEX games_by_deadline ON games (deadline_ms) WHERE status = 'active';

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,
    uci       TEXT    NOT NULL,
    san       TEXT    NOT NULL,
    played_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE rating_changes (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    server_id TEXT    NOT NULL,
    user_id   TEXT    NOT NULL,
    before    INTEGER NOT NULL,
    delta     INTEGER NOT NULL,
    after     INTEGER NOT NULL,
    at_ms     INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (server_id, user_id, at_ms);
