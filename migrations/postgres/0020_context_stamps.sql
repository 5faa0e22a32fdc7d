-- One stamp per game for what a kept view read besides the game row
-- (issue 24).
--
-- A move on a view kept from an earlier read (`store/play.rs`, `ViewCheck`)
-- commits only if nothing the view was read from has changed since: the
-- game row (its `xmin`) and its context, the server's row, both players'
-- rows, their vacations and the game's conditional moves. The context was
-- checked by reading all of those rows in the move's own statement: three
-- subqueries, measured as the largest part of that statement that could go
-- (docs/benchmarks.md, "the CPU of a move, part by part").
--
-- Instead, every change to one of those rows now adds one to the stamp of
-- each active game it concerns, in the change's own transaction, and the
-- move reads one row by its key. Moves never write this table, so they
-- never wait on it; only the (rare) changes to settings, players, vacations
-- and conditional moves do, and each takes its games' stamps in the order
-- of their ids.
CREATE TABLE game_context (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    stamp   BIGINT NOT NULL
);

-- Adds one to the stamps of the active games of server `p_server` that
-- `p_user` plays in (all its active games when `p_user` is NULL).
CREATE FUNCTION bump_game_context(p_server TEXT, p_user TEXT) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO game_context (game_id, stamp)
    SELECT id, 1 FROM games
    WHERE server_id = p_server AND status = 'active'
      AND (p_user IS NULL OR white_id = p_user OR black_id = p_user)
    ORDER BY id
    ON CONFLICT (game_id) DO UPDATE SET stamp = game_context.stamp + 1;
$$;

CREATE FUNCTION game_context_on_server() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_game_context(COALESCE(NEW.id, OLD.id), NULL);
    RETURN NULL;
END $$;

-- Players and vacations: both rows of an update, in case one moved.
CREATE FUNCTION game_context_on_player() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM bump_game_context(OLD.server_id, OLD.user_id);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.server_id IS DISTINCT FROM OLD.server_id
                              OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
        PERFORM bump_game_context(NEW.server_id, NEW.user_id);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION game_context_on_conditional() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO game_context (game_id, stamp)
    SELECT g.id, 1 FROM games g
    WHERE g.id IN (OLD.game_id, NEW.game_id) AND g.status = 'active'
    ORDER BY g.id
    ON CONFLICT (game_id) DO UPDATE SET stamp = game_context.stamp + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER game_context_server AFTER INSERT OR UPDATE OR DELETE ON servers
    FOR EACH ROW EXECUTE FUNCTION game_context_on_server();
CREATE TRIGGER game_context_player AFTER INSERT OR UPDATE OR DELETE ON players
    FOR EACH ROW EXECUTE FUNCTION game_context_on_player();
CREATE TRIGGER game_context_vacation AFTER INSERT OR UPDATE OR DELETE ON vacations
    FOR EACH ROW EXECUTE FUNCTION game_context_on_player();
CREATE TRIGGER game_context_conditional AFTER INSERT OR UPDATE OR DELETE ON conditional_moves
    FOR EACH ROW EXECUTE FUNCTION game_context_on_conditional();
