-- Variants (issue 27). Every game and challenge is played by one set of
-- rules, named by lichess's key ('standard', 'chess960'); the rows that
-- exist were all standard chess. A Chess960 game keeps its start position
-- twice over: the FEN in initial_fen (what a replay starts from) and its
-- number 0-959 (what people and the caption call it).
ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE games ADD COLUMN start_number BIGINT;
ALTER TABLE challenges ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
ALTER TABLE challenges ADD COLUMN start_number BIGINT;

-- Each variant but standard keeps its own ladder (SPEC §3's scheme, per
-- server and variant). Standard's ladder stays in players, so its rows
-- and every query on them are unchanged.
CREATE TABLE variant_ratings (
    server_id    TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    points       BIGINT NOT NULL DEFAULT 0,
    rated_games  BIGINT NOT NULL DEFAULT 0,
    wins         BIGINT NOT NULL DEFAULT 0,
    draws        BIGINT NOT NULL DEFAULT 0,
    losses       BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (server_id, variant, user_id)
);
CREATE INDEX variant_ladder ON variant_ratings
    (server_id, variant, points DESC, rated_games DESC, user_id);

-- Which ladder a rating change moved: a player's history per variant.
ALTER TABLE rating_changes ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';

-- Tournaments in a variant: every game of the event is played by its
-- rules. In Chess960 every board of a round starts from the same
-- position, drawn by lot when the round is paired and recorded here (one
-- row per round: a second process pairing the same round reads it back).
ALTER TABLE tournaments ADD COLUMN variant TEXT NOT NULL DEFAULT 'standard';
CREATE TABLE tournament_round_starts (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    round         BIGINT NOT NULL,
    start_number  BIGINT NOT NULL,
    drawn_ms      BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);
