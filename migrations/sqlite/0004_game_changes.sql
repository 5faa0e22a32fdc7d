-- One statement commits one change to a game (`Store::apply`): inserting a
-- row into this view runs the trigger below, which checks the game's
-- version (and that the mover's vacation is as the caller saw it), writes
-- the game's new state, appends the move and ends the mover's vacation.
-- A statement is atomic on its own, so a move is one round trip to the
-- database instead of five (BEGIN, three statements, COMMIT). PostgreSQL
-- does the same in one statement with data-modifying CTEs (src/store/apply.rs).
CREATE VIEW game_changes AS SELECT
    NULL AS game_id, NULL AS expected_version,
    NULL AS result, NULL AS termination, NULL AS draw_offer,
    NULL AS illegal_white, NULL AS illegal_black,
    NULL AS deadline_ms, NULL AS ended_ms, NULL AS bonus_ms, NULL AS next_reminder_ms,
    NULL AS ply, NULL AS uci, NULL AS san, NULL AS played_ms,
    NULL AS mover_id, NULL AS vacation_running, NULL AS at_ms
WHERE 0;

CREATE TRIGGER game_changes_apply INSTEAD OF INSERT ON game_changes BEGIN
    UPDATE games SET
        version = version + 1,
        result = NEW.result,
        termination = NEW.termination,
        draw_offer = NEW.draw_offer,
        illegal_white = NEW.illegal_white,
        illegal_black = NEW.illegal_black,
        deadline_ms = NEW.deadline_ms,
        ended_ms = NEW.ended_ms,
        bonus_ms = NEW.bonus_ms,
        next_reminder_ms = NEW.next_reminder_ms
    WHERE id = NEW.game_id AND version = NEW.expected_version AND result IS NULL
        AND (NEW.mover_id IS NULL OR NEW.vacation_running = EXISTS (
            SELECT 1 FROM vacations v
            WHERE v.server_id = games.server_id AND v.user_id = NEW.mover_id
                AND v.starts_ms <= NEW.at_ms AND v.ends_ms > NEW.at_ms));
    -- Nothing matched: another change got there first. The message is how
    -- the store tells this from other errors.
    SELECT RAISE(ABORT, 'chessbot: stale game') WHERE changes() = 0;
    -- Only an ending changes the status: a column named in SET costs the
    -- upkeep of every index on it (five here), changed or not.
    UPDATE games SET status = 'finished' WHERE id = NEW.game_id AND NEW.result IS NOT NULL;
    INSERT INTO moves (game_id, ply, uci, san, played_ms)
        SELECT NEW.game_id, NEW.ply, NEW.uci, NEW.san, NEW.played_ms WHERE NEW.ply IS NOT NULL;
    UPDATE vacations SET ends_ms = NEW.at_ms
    WHERE NEW.vacation_running = 1 AND user_id = NEW.mover_id
        AND server_id = (SELECT server_id FROM games WHERE id = NEW.game_id)
        AND starts_ms <= NEW.at_ms AND ends_ms > NEW.at_ms;
END;
