-- The ladder's exact order (most points, then most rated games, then name,
-- then id) over the players on it (rated_games > 0), so a leaderboard page
-- (Discord's /leaderboard, the club's ladder page) reads its rows in index
-- order instead of sorting the whole server's players, and the ladder's
-- size counts this index alone. Measured by `chessbot bench --pages` on a
-- 10,000-player ladder (docs/benchmarks.md, "Club pages").
CREATE INDEX players_ladder ON players (server_id, points DESC, rated_games DESC, display_name, user_id)
    WHERE rated_games > 0;
