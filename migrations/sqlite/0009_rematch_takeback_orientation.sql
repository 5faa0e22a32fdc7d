-- Issue 16 (part B): what lichess and chess.com players expect.

-- A takeback request stands for one version of its game: a move (or any
-- other change) bumps the version and so ends the request without writing
-- here. `takeback_by` is the requesting user.
ALTER TABLE games ADD COLUMN takeback_by TEXT;
ALTER TABLE games ADD COLUMN takeback_version INTEGER;

-- A rematch of a finished game: who offered it first, and the game it
-- started once the other player agreed (set once: a second click finds it).
ALTER TABLE games ADD COLUMN rematch_by TEXT;
ALTER TABLE games ADD COLUMN rematch_game_id INTEGER;

-- A player's own choice: boards drawn with White at the bottom (1) rather
-- than from the side of the player to move (0).
ALTER TABLE players ADD COLUMN board_white INTEGER NOT NULL DEFAULT 0;
