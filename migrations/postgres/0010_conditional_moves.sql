-- Conditional moves (issue 19): each player's lines of answers entered in
-- advance for a correspondence game. One row per player and game holding
-- the player's whole tree, kept only while the game is in progress.
CREATE TABLE conditional_moves (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    user_id    TEXT   NOT NULL,
    -- The game's plies when the tree was written: its first moves are the
    -- game's ply base_plies + 1. The moves played since then lead through
    -- the tree (src/chess/conditional.rs), so a restart loses nothing.
    base_plies BIGINT NOT NULL,
    -- The tree: one line per row of text, UCI moves separated by spaces.
    lines      TEXT   NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- A game that ends (mate, resignation, accepted or claimed draw, timeout,
-- abort, adjudication: every ending sets the status) takes its trees with
-- it, in the same statement as the ending. A move rewrites the status to
-- 'active' each time: the WHEN clause keeps those from firing anything.
CREATE FUNCTION conditional_moves_on_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM conditional_moves WHERE game_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER conditional_moves_end AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (NEW.status <> 'active' AND OLD.status = 'active')
    EXECUTE FUNCTION conditional_moves_on_end();

-- So does a takeback (the only change that removes moves): the lines were
-- entered against a history that is gone.
CREATE FUNCTION conditional_moves_on_takeback() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM conditional_moves WHERE game_id = OLD.game_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER conditional_moves_takeback AFTER DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION conditional_moves_on_takeback();
