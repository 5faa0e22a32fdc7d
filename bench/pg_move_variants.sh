#!/bin/sh
# What each part of a move's statement costs on PostgreSQL (docs/
# benchmarks.md, "Issue 24: where the PostgreSQL move path's time goes"):
# one fresh database migrated to the latest schema with 200 games and their
# players; pgbench runs, in turn, the statement a move on a kept view sends
# (`store/apply.rs`, `postgres_apply` with `checked`) and variants of it
# with parts taken away, then the floor's `INSERT`. Each check is written so
# that it holds (`<>` an impossible stamp): the work is the same as the
# bot's equality. `synchronous_commit` is off so that only the work counts.
#
#   L  the statement as sent now: game row's xmin, the game's context
#      stamp read from `game_context` (the mover's vacation is part of that
#      context, so not tested again)
#   K  L with the mover's vacation tested too (as sent from migration 0020
#      until the vacation test left the checked statement)
#   A  the statement as sent before 0020: game row's xmin, the context
#      stamp built from the server's, players' and vacations' rows and the
#      conditional moves (three subqueries), vacation test
#   B  A without the mover's vacation test
#   X  A with the context compared as xids, no text built
#   C  the game row's xmin alone (what a stamp kept in the game row by
#      triggers would cost)
#   N  C with the move inserted into a copy of `moves` with the foreign key
#      to `games` that `moves` had until migration 0021
#   Q  L with the scheduler bound's CHECK on `games` that migration 0021
#      took away (added for Q's run, dropped again after it)
#   V  C with the game's per-move columns kept in a narrow table of their
#      own (10 columns against the game row's 28), updated instead
#   U  the game row's update alone (C's UPDATE, no move inserted)
#   I  the move's INSERT into `moves` alone (no foreign key since 0021)
#   F  the floor: one INSERT into a table shaped like `moves`
#   S  `SELECT 1`: the round trip and a statement's fixed cost
#   H  a sketch of a hot path that leaves the game row alone (not built):
#      the move and the game's new per-move state (deadline, reminder,
#      draw offer, illegal-move counts) inserted as one row of a wider
#      `moves`, with its foreign key, only if the game row's stamp holds,
#      the game row locked `FOR SHARE` so that a change to it waits
#   W  H without the lock and the stamp: the wider row's INSERT alone
#
#   bench/pg_move_variants.sh [rounds] [seconds] [load]
#       VARIANTS="L F" runs only those; GAMES_FILLFACTOR=N sets the game
#       table's fillfactor before it is rewritten (default 80, as migrated)
#       (PGHOST etc. as for psql; default 127.0.0.1, postgres)
#
# With `load` as the third word, each variant runs as the move bench's
# moves do instead: four clients at once (`chessbot bench` keeps four moves
# in flight), every transaction committed to disk (`synchronous_commit` as
# the server has it), 8,000 transactions (`seconds` is not used); printed
# are the transactions a second and the whole machine's CPU per
# transaction (from /proc/stat, pgbench's own included: the same for every
# variant). This is where a statement's extra work shows as the bench sees
# it: one client without the flush hides most of it.
set -eu
ROUNDS=${1:-3}
SECONDS_EACH=${2:-4}
MODE=${3:-latency}
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres}
DIR=$(cd "$(dirname "$0")/.." && pwd)/migrations/postgres
TMP=$(mktemp -d)
db=chessbot_move_variants
psql -d postgres -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>/dev/null
for f in "$DIR"/*.sql; do
    psql -d $db -v ON_ERROR_STOP=1 -q -1 -f "$f" >/dev/null
done
psql -d $db -qc "INSERT INTO servers (id) VALUES ('s')" \
    -c "INSERT INTO players (server_id, user_id, display_name) \
        SELECT 's', p || i, p || i FROM generate_series(1, 200) i, (VALUES ('w'), ('b')) c(p)" \
    -c "INSERT INTO games (server_id, home_channel_id, channel_id, white_id, black_id, rated, \
        time_control, created_ms, deadline_ms, next_reminder_ms) \
        SELECT 's', 'h', 'c' || i, 'w' || i, 'b' || i, 0, '3d', 0, \
        1767268800000 + 259200000, 1767268800000 + 172800000 FROM generate_series(1, 200) i" \
    -c "UPDATE games SET wake_ms = LEAST(deadline_ms, next_reminder_ms)" \
    -c "CREATE SEQUENCE plyseq" \
    -c "CREATE TABLE moves_fk (LIKE moves INCLUDING ALL, FOREIGN KEY (game_id) REFERENCES games (id))" \
    -c "CREATE TABLE floor_moves (LIKE moves INCLUDING ALL)" \
    -c "CREATE TABLE game_clocks (id BIGINT PRIMARY KEY, version BIGINT NOT NULL DEFAULT 0, \
        result TEXT, draw_offer TEXT, illegal_white BIGINT NOT NULL DEFAULT 0, \
        illegal_black BIGINT NOT NULL DEFAULT 0, deadline_ms BIGINT, \
        bonus_ms BIGINT NOT NULL DEFAULT 0, next_reminder_ms BIGINT, wake_ms BIGINT) \
        WITH (fillfactor = 80)" \
    -c "INSERT INTO game_clocks (id) SELECT generate_series(1, 200)" \
    -c "CREATE TABLE moves_wide (LIKE moves INCLUDING ALL, deadline_ms BIGINT, \
        next_reminder_ms BIGINT, draw_offer TEXT, illegal_white BIGINT NOT NULL, \
        illegal_black BIGINT NOT NULL, FOREIGN KEY (game_id) REFERENCES games (id))"
psql -d $db -qc "ALTER TABLE games SET (fillfactor = ${GAMES_FILLFACTOR:-80})" \
    -c "VACUUM FULL games" -c "VACUUM ANALYZE"

NOW="(extract(epoch from now())*1000)::bigint"
CHECK="ALTER TABLE games ADD CONSTRAINT games_wake_early CHECK ( \
(deadline_ms IS NULL OR (wake_ms IS NOT NULL AND wake_ms <= deadline_ms)) \
AND (next_reminder_ms IS NULL OR (wake_ms IS NOT NULL AND wake_ms <= next_reminder_ms)))"
CONTEXT="(COALESCE((SELECT concat_ws('|', s.xmin::TEXT, COALESCE(w.xmin::TEXT, '-'), \
COALESCE(b.xmin::TEXT, '-')) FROM servers s \
LEFT JOIN players w ON w.server_id = s.id AND w.user_id = games.white_id \
LEFT JOIN players b ON b.server_id = s.id AND b.user_id = games.black_id \
WHERE s.id = games.server_id), '-') || '|' || COALESCE((SELECT string_agg(v.id::TEXT || ':' \
|| v.xmin::TEXT, ',' ORDER BY v.id) FROM vacations v WHERE v.server_id = games.server_id \
AND v.user_id IN (games.white_id, games.black_id) AND v.ends_ms > 0), '-') || '|' \
|| (SELECT COUNT(*) FROM conditional_moves c WHERE c.game_id = games.id))"
XIDS="(SELECT s.xmin FROM servers s WHERE s.id = games.server_id) <> '1'::xid \
AND (SELECT w.xmin FROM players w WHERE w.server_id = games.server_id \
AND w.user_id = games.white_id) IS DISTINCT FROM '1'::xid \
AND (SELECT b.xmin FROM players b WHERE b.server_id = games.server_id \
AND b.user_id = games.black_id) IS DISTINCT FROM '1'::xid \
AND (SELECT array_agg(v.xmin ORDER BY v.id) FROM vacations v WHERE v.server_id = games.server_id \
AND v.user_id IN (games.white_id, games.black_id) AND v.ends_ms > 0) IS NULL \
AND (SELECT COUNT(*) FROM conditional_moves c WHERE c.game_id = games.id) = 0"
VACATION="AND ('w1'::TEXT IS NULL OR (0::BIGINT = 1) = EXISTS (SELECT 1 FROM vacations v \
WHERE v.server_id = games.server_id AND v.user_id = 'w1' AND v.starts_ms <= 5 AND v.ends_ms > 5))"

# variant name, check, table the move goes into
statement() {
    cat > "$TMP/$1.sql" <<SQL
\set g random(1, 200)
WITH g AS ( UPDATE games SET version = version + 1, result = NULL, termination = NULL, draw_offer = NULL, illegal_white = 0, illegal_black = 0, deadline_ms = $NOW + 259200000, ended_ms = NULL, bonus_ms = 0, next_reminder_ms = $NOW + 172800000, wake_ms = LEAST(wake_ms, $NOW + 259200000, $NOW + 172800000) WHERE id = :g AND result IS NULL AND xmin::TEXT <> 'x' $2 RETURNING id, version, server_id, xmin::TEXT AS stamp ), m AS ( INSERT INTO $3 (game_id, ply, uci, san, played_ms) SELECT :g, nextval('plyseq'), 'e2e4', 'e4', 0 FROM g WHERE 1::BIGINT IS NOT NULL ) SELECT g.version, g.stamp FROM g;
SQL
}
statement L "AND COALESCE((SELECT c.stamp FROM game_context c WHERE c.game_id = games.id), 0)::TEXT <> 'x'" moves
statement K "AND COALESCE((SELECT c.stamp FROM game_context c WHERE c.game_id = games.id), 0)::TEXT <> 'x' $VACATION" moves
statement A "AND $CONTEXT <> 'x' $VACATION" moves
statement B "AND $CONTEXT <> 'x'" moves
statement X "AND $XIDS" moves
statement C "" moves
statement N "" moves_fk
statement Q "AND COALESCE((SELECT c.stamp FROM game_context c WHERE c.game_id = games.id), 0)::TEXT <> 'x'" moves
cat > "$TMP/V.sql" <<SQL
\set g random(1, 200)
WITH g AS ( UPDATE game_clocks SET version = version + 1, result = NULL, draw_offer = NULL, illegal_white = 0, illegal_black = 0, deadline_ms = $NOW + 259200000, bonus_ms = 0, next_reminder_ms = $NOW + 172800000, wake_ms = LEAST(wake_ms, $NOW + 259200000, $NOW + 172800000) WHERE id = :g AND result IS NULL AND xmin::TEXT <> 'x' RETURNING id, version, xmin::TEXT AS stamp ), m AS ( INSERT INTO moves (game_id, ply, uci, san, played_ms) SELECT :g, nextval('plyseq'), 'e2e4', 'e4', 0 FROM g ) SELECT g.version, g.stamp FROM g;
SQL
cat > "$TMP/U.sql" <<SQL
\set g random(1, 200)
UPDATE games SET version = version + 1, result = NULL, termination = NULL, draw_offer = NULL, illegal_white = 0, illegal_black = 0, deadline_ms = $NOW + 259200000, ended_ms = NULL, bonus_ms = 0, next_reminder_ms = $NOW + 172800000, wake_ms = LEAST(wake_ms, $NOW + 259200000, $NOW + 172800000) WHERE id = :g AND result IS NULL AND xmin::TEXT <> 'x';
SQL
cat > "$TMP/I.sql" <<SQL
\set g random(1, 200)
INSERT INTO moves (game_id, ply, uci, san, played_ms) VALUES (:g, nextval('plyseq'), 'e2e4', 'e4', 0);
SQL
cat > "$TMP/H.sql" <<SQL
\set g random(1, 200)
INSERT INTO moves_wide (game_id, ply, uci, san, played_ms, deadline_ms, next_reminder_ms, draw_offer, illegal_white, illegal_black) SELECT id, nextval('plyseq'), 'e2e4', 'e4', 0, $NOW + 259200000, $NOW + 172800000, NULL, 0, 0 FROM games WHERE id = :g AND result IS NULL AND xmin::TEXT <> 'x' FOR SHARE;
SQL
cat > "$TMP/W.sql" <<SQL
\set g random(1, 200)
INSERT INTO moves_wide (game_id, ply, uci, san, played_ms, deadline_ms, next_reminder_ms, draw_offer, illegal_white, illegal_black) VALUES (:g, nextval('plyseq'), 'e2e4', 'e4', 0, $NOW + 259200000, $NOW + 172800000, NULL, 0, 0);
SQL
cat > "$TMP/S.sql" <<SQL
SELECT 1;
SQL
cat > "$TMP/F.sql" <<SQL
\set g random(1, 200)
INSERT INTO floor_moves (game_id, ply, uci, san, played_ms) VALUES (:g, nextval('plyseq'), 'e2e4', 'e4', 0);
SQL

# The whole machine's busy CPU time so far, in ticks (user, nice, system,
# irq, softirq).
busy_ticks() {
    awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat
}

r=0
while [ $r -lt "$ROUNDS" ]; do
    r=$((r + 1))
    for v in ${VARIANTS:-L Q K A B X C N V U I H W F S}; do
        if [ $v = Q ]; then psql -d $db -qc "$CHECK"; fi
        printf '%s round %s: ' $v $r
        if [ "$MODE" = load ]; then
            before=$(busy_ticks)
            tps=$(pgbench -n -M prepared -c 4 -j 2 -t 2000 -f "$TMP/$v.sql" $db 2>&1 \
                | awk '/^tps/ { print int($3) }')
            after=$(busy_ticks)
            awk -v t="$tps" -v d=$((after - before)) -v hz="$(getconf CLK_TCK)" \
                'BEGIN { printf "%d tps, CPU %.3f ms a transaction\n", t, d / hz * 1000 / 8000 }'
        else
            PGOPTIONS='-c synchronous_commit=off' pgbench -n -M prepared -c 1 -T "$SECONDS_EACH" \
                -f "$TMP/$v.sql" $db 2>&1 | grep 'latency average'
        fi
        if [ $v = Q ]; then psql -d $db -qc "ALTER TABLE games DROP CONSTRAINT games_wake_early"; fi
    done
done
psql -d postgres -qc "DROP DATABASE $db"
rm -r "$TMP"
