-- A finished game's `status` was left at 'active', so the partial unique
-- index "one active game per channel" kept counting it: a channel (without
-- threads) could never hold a second game. Games are now marked 'finished'
-- when they end; this fixes the rows written before.
UPDATE games SET status = 'finished' WHERE result IS NOT NULL AND status = 'active';
