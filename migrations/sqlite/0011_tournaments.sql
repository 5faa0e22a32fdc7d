-- Tournaments (issue 14): club competitions run by the bot. A tournament
-- row holds its settings and progress, its entrants are listed with their
-- pairing numbers once it starts, and every board of every round is a row
-- of tournament_games: a game of the bot's (an ordinary game, in its own
-- thread), or a bye or forfeit recorded with no game.
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    server_id       TEXT    NOT NULL,
    -- Where it was created: announcements go here, games open threads here.
    channel_id      TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    -- swiss | roundrobin | double-roundrobin | groups | knockout | team
    format          TEXT    NOT NULL,
    -- Rounds planned: chosen for a Swiss, fixed by the format otherwise
    -- (0 until the start, when the field is known).
    rounds          INTEGER NOT NULL,
    time_control    TEXT    NOT NULL,
    rated           INTEGER NOT NULL,
    -- Tie-breaks in order, comma separated (sb, buchholz, …).
    tiebreaks       TEXT    NOT NULL,
    vacations_pause INTEGER NOT NULL,
    max_players     INTEGER NOT NULL,
    -- When to start by itself; NULL: a moderator starts it.
    starts_ms       INTEGER,
    -- How long a player has for the first move of a tournament game
    -- before losing it by forfeit.
    first_move_ms   INTEGER NOT NULL,
    -- Round robins: 'all' (every game at the start, the correspondence
    -- custom) or 'rounds' (one round at a time).
    schedule        TEXT    NOT NULL,
    -- Knockout: games per match, decider pairs, sudden death (0/1).
    match_games     INTEGER NOT NULL,
    decider_pairs   INTEGER NOT NULL,
    sudden_death    INTEGER NOT NULL,
    -- Group round robin: the number of groups.
    groups_count    INTEGER NOT NULL,
    -- The colour of pairing number 1 in round 1 (Swiss, TRF(x) XXC),
    -- drawn by lot at creation.
    initial_colour  TEXT    NOT NULL,
    -- open | running | paused | finished | cancelled
    status          TEXT    NOT NULL,
    -- The last round paired (0 before the start).
    current_round   INTEGER NOT NULL DEFAULT 0,
    created_by      TEXT    NOT NULL,
    created_ms      INTEGER NOT NULL,
    finished_ms     INTEGER
);
CREATE INDEX tournaments_by_server ON tournaments (server_id, status);
CREATE INDEX tournaments_by_channel ON tournaments (channel_id);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    -- Club points at entry (hundredths), for seeding.
    points        INTEGER NOT NULL,
    -- Pairing number, given at the start.
    pno           INTEGER,
    -- A team's name (team events) or a group's letter (group round robin).
    section       TEXT,
    -- Board order within a team.
    board         INTEGER,
    joined_ms     INTEGER NOT NULL,
    -- Withdrawn after this round: not paired again.
    withdrawn_after INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    -- The game of a knockout match (1, 2, …); 1 elsewhere.
    game_no       INTEGER NOT NULL,
    white_id      TEXT    NOT NULL,
    -- NULL: a pairing-allocated bye (or a knockout bye) for white_id.
    black_id      TEXT,
    game_id       INTEGER REFERENCES games (id),
    -- NULL while pending; 1-0, 0-1, 1/2-1/2, +- / -+ (forfeit), -- (both
    -- absent), bye.
    result        TEXT,
    -- The moderator who set or corrected the result, if one did.
    set_by        TEXT,
    created_ms    INTEGER NOT NULL,
    -- One row per board: a round is paired once, whoever tries twice.
    PRIMARY KEY (tournament_id, round, board, game_no)
);
CREATE UNIQUE INDEX tournament_games_by_game ON tournament_games (game_id)
    WHERE game_id IS NOT NULL;
CREATE INDEX tournament_games_pending ON tournament_games (tournament_id)
    WHERE result IS NULL;

-- A tournament game that ends writes its result in the same statement: a
-- game that never started (aborted at its first-move deadline) is lost by
-- forfeit by the side that did not move.
CREATE TRIGGER tournament_game_end AFTER UPDATE OF status ON games
WHEN NEW.status <> 'active' BEGIN
    UPDATE tournament_games SET result = CASE
        WHEN NEW.termination = 'aborted' THEN
            CASE WHEN (SELECT COUNT(*) FROM moves WHERE game_id = NEW.id) % 2 = 0
                 THEN '-+' ELSE '+-' END
        ELSE NEW.result END
    WHERE game_id = NEW.id AND result IS NULL;
END;
