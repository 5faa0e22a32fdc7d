-- Two checks that every move paid for on PostgreSQL, kept by other means
-- (issue 24).
--
-- PostgreSQL builds a table's CHECK constraints anew for every statement
-- that writes the table: it reads each expression back from its stored
-- text, plans it and compiles it before the first row. A foreign key runs a
-- query of its own for every row inserted and locks the row it finds (here
-- the game row the same statement has just updated). The move path is one
-- statement that updates its game row and inserts the move
-- (`store/apply.rs`), so it paid for both on every move: together about
-- 0.05 ms of the server's CPU per move, a sixth of it, in `chessbot bench
-- --database postgres` (docs/benchmarks.md, "Issue 24: two checks out of
-- the move's path").
--
-- What keeps them true instead:
--
-- - `wake_ms` at or before the game's deadline and next reminder: every
--   statement that sets either sets the bound with it (the move lowers it
--   with `LEAST`, the others write its true value, `store/time.rs`,
--   `wake_of`). SQLite keeps the same check, which costs it nothing (its
--   statements are compiled once), so the suite, which runs each store
--   test on both databases, still meets a statement that breaks it; and
--   after every store conformance test the suite checks that no game row
--   breaks it and no move lacks its game (`Store::integrity_faults`).
-- - a move's game exists: a move is only ever inserted by the statement
--   that updates its game row in the same statement (`FROM g`, the row it
--   has just updated), and a game is never deleted. The trigger below
--   refuses deleting or truncating games, so no move can lose its game.
ALTER TABLE games DROP CONSTRAINT games_wake_early;
ALTER TABLE moves DROP CONSTRAINT moves_game_id_fkey;

CREATE FUNCTION games_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'chessbot: games are never deleted (their moves refer to them)';
END $$;
CREATE TRIGGER games_kept BEFORE DELETE OR TRUNCATE ON games
    FOR EACH STATEMENT EXECUTE FUNCTION games_are_kept();
