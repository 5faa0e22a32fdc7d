-- Puzzles, second slice (issue 28): the daily puzzle, puzzles from a
-- player's own mistakes, and background mining of a server's games.
--
-- The daily puzzle's channel (NULL: no daily puzzle) and hour (0-23, in the
-- server's time zone, `utc_offset_minutes`); and since when the server's
-- finished games are mined for puzzles in the background (NULL: off).
ALTER TABLE servers ADD COLUMN puzzle_channel_id TEXT;
ALTER TABLE servers ADD COLUMN puzzle_hour BIGINT NOT NULL DEFAULT 9;
ALTER TABLE servers ADD COLUMN puzzle_mining_since_ms BIGINT;
-- A puzzle found in a player's own mistake (`/analyze`): only that player
-- is given it (`/puzzle source:mine`), and never as a rated puzzle near
-- someone's points. NULL: a puzzle of the whole server.
ALTER TABLE puzzles ADD COLUMN for_user TEXT;
CREATE INDEX puzzles_for_user ON puzzles (server_id, for_user) WHERE for_user IS NOT NULL;

-- One daily puzzle per server and local day (days since 1970-01-01 in the
-- server's time zone). The primary key makes each day's post happen once,
-- whichever process ticks first. `puzzle_id` NULL: the pool had no puzzle
-- left that day. `closed_ms`: when the next day's post gave its solution;
-- answers stop then.
CREATE TABLE daily_puzzles (
    server_id  TEXT    NOT NULL REFERENCES servers (id),
    day        BIGINT  NOT NULL,
    puzzle_id  BIGINT REFERENCES puzzles (id),
    channel_id TEXT    NOT NULL,
    posted_ms  BIGINT  NOT NULL,
    closed_ms  BIGINT,
    PRIMARY KEY (server_id, day)
);
CREATE INDEX daily_puzzles_by_puzzle ON daily_puzzles (puzzle_id);

-- A player's private attempt at a day's puzzle (not rated: everyone gets
-- the same puzzle, whatever their level; it counts for the day's solvers
-- and streaks). 'open', 'solved', 'failed', or 'expired' when the day
-- closed before it ended.
CREATE TABLE daily_attempts (
    server_id    TEXT    NOT NULL,
    day          BIGINT  NOT NULL,
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    progress     BIGINT  NOT NULL DEFAULT 0,
    hinted       BIGINT  NOT NULL DEFAULT 0,
    started_ms   BIGINT  NOT NULL,
    ended_ms     BIGINT,
    PRIMARY KEY (server_id, day, user_id)
);
CREATE UNIQUE INDEX daily_attempts_open ON daily_attempts (server_id, user_id)
    WHERE status = 'open';
CREATE INDEX daily_attempts_by_user ON daily_attempts (server_id, user_id, day);

-- Games mined for puzzles in the background, one row each once done (the
-- queue is every finished game of a mining server without a row here, so
-- a restart simply goes on with the next). `found`: puzzles it gave.
CREATE TABLE puzzle_mining (
    game_id   BIGINT PRIMARY KEY REFERENCES games (id),
    server_id TEXT    NOT NULL,
    status    TEXT    NOT NULL,
    found     BIGINT  NOT NULL DEFAULT 0,
    done_ms   BIGINT  NOT NULL
);
