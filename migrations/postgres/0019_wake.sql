-- One scheduler index instead of two, so that a move can be a heap-only
-- (HOT) update (issue 24).
--
-- PostgreSQL writes a new entry into every index of a table when an update
-- changes any indexed column; when none changes, the new row version goes on
-- the same page with no index entry at all (a HOT update). A move changed
-- `deadline_ms` and `next_reminder_ms`, each indexed for the scheduler, so
-- every move wrote an entry into all of `games`' indexes.
--
-- `wake_ms` is only a LOWER BOUND of the earliest time the row needs the
-- scheduler (its deadline or its next reminder): the check below keeps it at
-- or before both, so a sweep that reads `wake_ms <= now` can never miss a
-- due game. A move lowers it only when its new deadline or reminder falls
-- before the stored bound (rare: clocks run forward), otherwise the value
-- stays as it was and the update touches no indexed column. Before a sweep,
-- `Store::raise_wakes` raises the bounds that time has passed to their true
-- value, so the sweep reads only the games really due.
--
-- The default is the smallest BIGINT: any row written without a bound has a
-- valid one (due at once, raised by the next sweep). Active games get their
-- true value here.
ALTER TABLE games ADD COLUMN wake_ms BIGINT DEFAULT -9223372036854775808;
UPDATE games SET wake_ms = LEAST(deadline_ms, next_reminder_ms) WHERE status = 'active';
ALTER TABLE games ADD CONSTRAINT games_wake_early CHECK (
    (deadline_ms IS NULL OR (wake_ms IS NOT NULL AND wake_ms <= deadline_ms))
    AND (next_reminder_ms IS NULL OR (wake_ms IS NOT NULL AND wake_ms <= next_reminder_ms)));

DROP INDEX games_by_deadline;
DROP INDEX games_by_next_reminder;
CREATE INDEX games_by_wake ON games (wake_ms) WHERE status = 'active';

-- Room on each page for the next version of a row, so that a HOT update
-- finds space beside the old one (applies to pages written from now on).
ALTER TABLE games SET (fillfactor = 80);
