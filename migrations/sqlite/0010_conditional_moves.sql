-- Conditional moves (issue 19): each player's lines of answers entered in
-- advance for a correspondence game. One row per player and game holding
-- the player's whole tree, kept only while the game is in progress.
CREATE TABLE conditional_moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    TEXT    NOT NULL,
    -- The game's plies when the tree was written: its first moves are the
    -- game's ply base_plies + 1. The moves played since then lead through
    -- the tree (src/chess/conditional.rs), so a restart loses nothing.
    base_plies INTEGER NOT NULL,
    -- The tree: one line per row of text, UCI moves separated by spaces.
    lines      TEXT    NOT NULL,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- A game that ends (mate, resignation, accepted or claimed draw, timeout,
-- abort, adjudication: every ending sets the status) takes its trees with
-- it, in the same statement as the ending.
CREATE TRIGGER conditional_moves_end AFTER UPDATE OF status ON games
WHEN NEW.status <> 'active' BEGIN
    DELETE FROM conditional_moves WHERE game_id = NEW.id;
END;

-- So does a takeback (the only change that removes moves): the lines were
-- entered against a history that is gone.
CREATE TRIGGER conditional_moves_takeback AFTER DELETE ON moves BEGIN
    DELETE FROM conditional_moves WHERE game_id = OLD.game_id;
END;
