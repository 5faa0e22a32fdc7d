#!/bin/sh
# The move's statement alone on PostgreSQL, before and after migration 0019
# (docs/benchmarks.md, "Issue 24: heap-only updates for a move"): two fresh
# databases, one migrated to 0018 and one to 0019, 200 games each; pgbench
# runs the statement a move sends (deadline and reminder moving forward with
# the clock) on each in turn, with synchronous_commit off so that only the
# work counts; then the HOT counters and the sizes of `games`.
#
#   bench/pg_move_hot.sh [rounds] [seconds]      (PGHOST etc. as for psql;
#                                                 default 127.0.0.1, postgres)
set -eu
ROUNDS=${1:-4}
SECONDS_EACH=${2:-6}
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres}
DIR=$(cd "$(dirname "$0")/.." && pwd)/migrations/postgres
TMP=$(mktemp -d)
NOW="(extract(epoch from now())*1000)::bigint"
for v in before after; do
    db=chessbot_hot_$v
    psql -d postgres -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" 2>/dev/null
    for f in "$DIR"/*.sql; do
        if [ "$v" = before ] && [ "$(basename "$f")" = 0019_wake.sql ]; then continue; fi
        psql -d $db -v ON_ERROR_STOP=1 -q -1 -f "$f" >/dev/null
    done
    psql -d $db -qc "INSERT INTO servers (id) VALUES ('s')" \
        -c "INSERT INTO games (server_id, home_channel_id, channel_id, white_id, black_id, rated, \
            time_control, created_ms, deadline_ms, next_reminder_ms) \
            SELECT 's', 'h', 'c' || i, 'w' || i, 'b' || i, 0, '3d', 0, \
            1767268800000 + 259200000, 1767268800000 + 172800000 FROM generate_series(1, 200) i" \
        -c "CREATE SEQUENCE plyseq"
    wake=""
    if [ "$v" = after ]; then
        psql -d $db -qc "UPDATE games SET wake_ms = LEAST(deadline_ms, next_reminder_ms)"
        wake=", wake_ms = LEAST(wake_ms, $NOW + 259200000, $NOW + 172800000)"
    fi
    psql -d $db -qc "VACUUM FULL games" -c "VACUUM ANALYZE"
    cat > "$TMP/$v.sql" <<SQL
\set g random(1, 200)
WITH g AS ( UPDATE games SET version = version + 1, result = NULL, termination = NULL, draw_offer = NULL, illegal_white = 0, illegal_black = 0, deadline_ms = $NOW + 259200000, ended_ms = NULL, bonus_ms = 0, next_reminder_ms = $NOW + 172800000$wake WHERE id = :g AND result IS NULL RETURNING id, version, server_id, xmin::TEXT AS stamp ), m AS ( INSERT INTO moves (game_id, ply, uci, san, played_ms) SELECT :g, nextval('plyseq'), 'e2e4', 'e4', 0 FROM g ) SELECT g.version, g.stamp FROM g;
SQL
done
r=0
while [ $r -lt "$ROUNDS" ]; do
    r=$((r + 1))
    for v in before after; do
        printf '%s round %s: ' $v $r
        PGOPTIONS='-c synchronous_commit=off' pgbench -n -M prepared -c 1 -T "$SECONDS_EACH" \
            -f "$TMP/$v.sql" chessbot_hot_$v 2>&1 | grep 'latency average'
    done
done
sleep 1
for v in before after; do
    psql -d chessbot_hot_$v -Atc "SELECT '$v: updates ' || n_tup_upd || ', HOT ' || n_tup_hot_upd \
        || ', heap pages ' || pg_relation_size('games') / 8192 || ', index pages ' \
        || (SELECT (sum(pg_relation_size(indexrelid)) / 8192)::BIGINT FROM pg_stat_user_indexes \
            WHERE relname = 'games') FROM pg_stat_user_tables WHERE relname = 'games'"
    psql -d postgres -qc "DROP DATABASE chessbot_hot_$v"
done
rm -r "$TMP"
