-- Ended games leave the "active" partial indexes. 0001 declared `status`
-- but nothing ever changed it, so a channel that had held one game could
-- never start another (the unique index on active games' channels still saw
-- the ended one). `Store::apply` now sets it; this fixes existing rows.
UPDATE games SET status = 'ended' WHERE result IS NOT NULL;

-- Finding a channel's game (every command) without scanning all games.
CREATE INDEX games_by_channel ON games (channel_id, id);
