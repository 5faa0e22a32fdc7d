-- Engine analysis of finished games (issue 17). One job per game: queued,
-- running, done or failed; the evaluation of each position is kept as it
-- is found, so a restart resumes the job where it stopped and a second
-- /analyze of the game answers at once from what is stored.

CREATE TABLE analyses (
    game_id      BIGINT PRIMARY KEY REFERENCES games (id),
    server_id    TEXT    NOT NULL,
    -- Where progress and the result are posted.
    channel_id   TEXT    NOT NULL,
    requested_by TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'queued',
    -- Positions to evaluate: the start and one after each ply.
    positions    BIGINT  NOT NULL,
    created_ms   BIGINT  NOT NULL,
    finished_ms  BIGINT
);
CREATE INDEX analyses_unfinished ON analyses (status) WHERE status IN ('queued', 'running');

CREATE TABLE analysis_evals (
    game_id  BIGINT  NOT NULL REFERENCES analyses (game_id),
    -- The position after this many plies (0: the starting position).
    ply      BIGINT  NOT NULL,
    -- From White's point of view: centipawns, or mate in N (negative:
    -- Black mates). Exactly one of the two is set.
    cp       BIGINT,
    mate     BIGINT,
    -- The engine's best move in this position (UCI), if it has moves.
    best_uci TEXT,
    depth    BIGINT  NOT NULL,
    PRIMARY KEY (game_id, ply)
);
