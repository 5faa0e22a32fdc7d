-- One scheduler index instead of two (issue 24; the same schema as
-- PostgreSQL's 0019, where it lets a move be a heap-only update).
--
-- `wake_ms` is only a LOWER BOUND of the earliest time the row needs the
-- scheduler (its deadline or its next reminder): the check keeps it at or
-- before both, so a sweep that reads `wake_ms <= now` never misses a due
-- game. A move lowers it only when its new deadline or reminder falls before
-- the stored bound; before a sweep, `Store::raise_wakes` raises the bounds
-- time has passed to their true value. Here a move no longer names an
-- indexed time column in its main `UPDATE`, so it keeps no scheduler index
-- up to date (it kept two).
--
-- The default is the smallest integer: any row written without a bound has
-- a valid one (due at once, raised by the next sweep). SQLite tests the
-- check against the existing rows, which the default satisfies; active
-- games then get their true value.
ALTER TABLE games ADD COLUMN wake_ms INTEGER DEFAULT -9223372036854775808
    CONSTRAINT games_wake_early CHECK (
        (deadline_ms IS NULL OR (wake_ms IS NOT NULL AND wake_ms <= deadline_ms))
        AND (next_reminder_ms IS NULL OR (wake_ms IS NOT NULL AND wake_ms <= next_reminder_ms)));
UPDATE games SET wake_ms = CASE
        WHEN deadline_ms IS NULL THEN next_reminder_ms
        WHEN next_reminder_ms IS NULL OR deadline_ms <= next_reminder_ms THEN deadline_ms
        ELSE next_reminder_ms END
    WHERE status = 'active';

DROP INDEX games_by_deadline;
DROP INDEX games_by_next_reminder;
CREATE INDEX games_by_wake ON games (wake_ms) WHERE status = 'active';

-- The move's trigger (0004), rebuilt: the same statements, with the bound
-- lowered first when the new deadline or reminder falls before it (before
-- the game's UPDATE, whose new times the check compares with the bound).
DROP TRIGGER game_changes_apply;
CREATE TRIGGER game_changes_apply INSTEAD OF INSERT ON game_changes BEGIN
    UPDATE games SET wake_ms = CASE
            WHEN NEW.deadline_ms IS NULL THEN NEW.next_reminder_ms
            WHEN NEW.next_reminder_ms IS NULL OR NEW.deadline_ms <= NEW.next_reminder_ms
                THEN NEW.deadline_ms
            ELSE NEW.next_reminder_ms END
    WHERE id = NEW.game_id AND (NEW.deadline_ms IS NOT NULL OR NEW.next_reminder_ms IS NOT NULL)
        AND (wake_ms IS NULL OR wake_ms > NEW.deadline_ms OR wake_ms > NEW.next_reminder_ms);
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
    -- upkeep of every index on it (four here), changed or not.
    UPDATE games SET status = 'finished' WHERE id = NEW.game_id AND NEW.result IS NOT NULL;
    INSERT INTO moves (game_id, ply, uci, san, played_ms)
        SELECT NEW.game_id, NEW.ply, NEW.uci, NEW.san, NEW.played_ms WHERE NEW.ply IS NOT NULL;
    UPDATE vacations SET ends_ms = NEW.at_ms
    WHERE NEW.vacation_running = 1 AND user_id = NEW.mover_id
        AND server_id = (SELECT server_id FROM games WHERE id = NEW.game_id)
        AND starts_ms <= NEW.at_ms AND ends_ms > NEW.at_ms;
END;
