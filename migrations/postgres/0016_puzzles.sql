-- Puzzles (issue 28): each server's pool of puzzles, each holding points
-- like a player (hundredths, the club scheme of SPEC §3); the attempts, one
-- per player and puzzle (the first is the rated one, and the only one);
-- and the players' puzzle points, a ladder apart from the games' ladder.
CREATE TABLE puzzles (
    id         BIGSERIAL PRIMARY KEY,
    server_id  TEXT    NOT NULL REFERENCES servers (id),
    -- The position the solver sees; the solver is the side to move.
    fen        TEXT    NOT NULL,
    -- The solution in UCI, space-separated: the solver's moves at even
    -- places, the bot's replies at odd ones.
    moves      TEXT    NOT NULL,
    -- Theme keys (`puzzle::Theme::key`), space-separated.
    themes     TEXT    NOT NULL,
    -- 'starter', 'game:<id>' or 'import:<file>'.
    source     TEXT    NOT NULL,
    points     BIGINT  NOT NULL DEFAULT 0,
    attempts   BIGINT  NOT NULL DEFAULT 0,
    solved     BIGINT  NOT NULL DEFAULT 0,
    created_ms BIGINT  NOT NULL,
    UNIQUE (server_id, fen)
);
-- `/puzzle` picks the nearest points among a server's puzzles.
CREATE INDEX puzzles_by_points ON puzzles (server_id, points);

CREATE TABLE puzzle_attempts (
    puzzle_id  BIGINT  NOT NULL REFERENCES puzzles (id),
    user_id    TEXT    NOT NULL,
    server_id  TEXT    NOT NULL,
    -- 'open', 'solved' or 'failed'.
    status     TEXT    NOT NULL,
    -- Plies of the solution played so far.
    progress   BIGINT  NOT NULL DEFAULT 0,
    hinted     BIGINT  NOT NULL DEFAULT 0,
    -- The solver's points change once rated (negative on a failure).
    delta      BIGINT,
    started_ms BIGINT  NOT NULL,
    ended_ms   BIGINT,
    PRIMARY KEY (puzzle_id, user_id)
);
-- At most one attempt open per player and server.
CREATE UNIQUE INDEX puzzle_attempts_open ON puzzle_attempts (server_id, user_id)
    WHERE status = 'open';

CREATE TABLE puzzle_players (
    server_id    TEXT    NOT NULL REFERENCES servers (id),
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    points       BIGINT  NOT NULL DEFAULT 0,
    attempts     BIGINT  NOT NULL DEFAULT 0,
    solved       BIGINT  NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, user_id)
);
-- The puzzle ladder's order, as `players_ladder` for games (0014).
CREATE INDEX puzzle_players_ladder ON puzzle_players
    (server_id, points DESC, attempts DESC, display_name, user_id) WHERE attempts > 0;
