//! Committing a change to a game ([`Store::apply`]): the version check, the
//! game's new state, the move, the end of the mover's vacation and, for a
//! rated ending, both players' points, all or nothing.
//!
//! The game part is one SQL statement on either backend, so that a move
//! (the bot's most frequent write) is one round trip to the database:
//!
//! - SQLite: an `INSERT` into the view `game_changes`, whose trigger
//!   (`migrations/sqlite/0004_game_changes.sql`) does the work; a stale
//!   version aborts it with a message this module recognises.
//! - PostgreSQL: `UPDATE games … RETURNING` with the move's `INSERT` and the
//!   vacation's `UPDATE` as data-modifying CTEs that run only if it matched
//!   (and, for a change computed on a kept view, the check of that view's
//!   stamps: [`Store::apply_checked`]). The other processes are told after
//!   the commit, not by the statement (see [`postgres_apply`]).
//!
//! A rated ending wraps that statement and the settlement in a transaction.
//! On SQLite, moves arriving together share one transaction and one sync
//! to disk (`group.rs`).

use std::sync::LazyLock;

use sqlx::{Any, AnyConnection, Row, Transaction};

use super::{
    on_unique_violation, Applied, Backend, GameChange, RatingChangeRecord, Score, Settle, Store,
    StoreError, Variant, ViewCheck,
};

/// The rated game being settled: its server, variant (which ladder) and
/// players (White, Black).
#[derive(Clone, Copy)]
struct Rated<'a> {
    server: &'a str,
    variant: Variant,
    players: [&'a str; 2],
}

/// Where a variant's ladder is kept: standard chess in `players` (its rows
/// from before variants existed), every other variant in `variant_ratings`.
/// The variant's key is bound as the last parameter where the table has
/// the column.
struct Ladder {
    /// Whether the statements take the variant's key.
    keyed: bool,
    /// `$1` server, `$2` user, `$3` variant.
    points_sql: &'static str,
    /// `$1` server, `$2` user, `$3` delta, `$4`–`$6` win/draw/loss, `$7`
    /// variant.
    settle_sql: &'static str,
}

impl Ladder {
    fn of(variant: Variant) -> Ladder {
        match variant {
            Variant::Standard => Ladder {
                keyed: false,
                points_sql: "SELECT points FROM players WHERE server_id = $1 AND user_id = $2",
                settle_sql: "INSERT INTO players (server_id, user_id, display_name, points, \
                     rated_games, wins, draws, losses) VALUES ($1, $2, $2, $3, 1, $4, $5, $6) \
                     ON CONFLICT (server_id, user_id) DO UPDATE SET points = players.points + $3, \
                     rated_games = players.rated_games + 1, wins = players.wins + $4, \
                     draws = players.draws + $5, losses = players.losses + $6",
            },
            _ => Ladder {
                keyed: true,
                points_sql: "SELECT points FROM variant_ratings WHERE server_id = $1 \
                             AND user_id = $2 AND variant = $3",
                settle_sql: "INSERT INTO variant_ratings (server_id, user_id, variant, points, \
                     rated_games, wins, draws, losses) VALUES ($1, $2, $7, $3, 1, $4, $5, $6) \
                     ON CONFLICT (server_id, variant, user_id) DO UPDATE SET \
                     points = variant_ratings.points + $3, \
                     rated_games = variant_ratings.rated_games + 1, \
                     wins = variant_ratings.wins + $4, draws = variant_ratings.draws + $5, \
                     losses = variant_ratings.losses + $6",
            },
        }
    }
}

/// What the trigger says when the version (or the mover's vacation) is not
/// what the change was computed on.
const STALE: &str = "chessbot: stale game";

const SQLITE_APPLY: &str = "INSERT INTO game_changes (game_id, expected_version, result, \
     termination, draw_offer, illegal_white, illegal_black, deadline_ms, ended_ms, bonus_ms, \
     next_reminder_ms, ply, uci, san, played_ms, mover_id, vacation_running, at_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)";

/// PostgreSQL's statement: `UPDATE games … RETURNING` with the move's
/// `INSERT` and the vacation's `UPDATE` as data-modifying CTEs that run only
/// if it matched. Made in variants, each prepared once per connection:
///
/// - `ending`: the change ends the game and so sets its `status` (the
///   triggers that clean up after an ending fire on `UPDATE OF status`, so a
///   move that does not end the game leaves the column out: a game with no
///   result is always `active`);
/// - `vacation`: the mover's running vacation ends (otherwise that CTE would
///   match nothing);
/// - `checked`: the change was computed on a kept [`PlayView`] and checks its
///   stamps ($19 the game row's `xmin`, $20 the context stamp): nothing is
///   written if the game row or its context changed. The mover's vacation
///   is then not tested again: the view's vacations are part of that
///   context.
///
/// The statement lowers the game's scheduler bound (`wake_ms`, migration
/// 0019) only if the new deadline or reminder falls before it; otherwise
/// `LEAST` yields the stored value unchanged, so a move that does not end the
/// game changes no indexed column of `games` and PostgreSQL can make the
/// update heap-only (no new entry in any of the table's indexes).
///
/// The statement does not `NOTIFY` the other processes: a transaction that
/// notifies holds PostgreSQL's one notification lock from before its commit
/// until the commit has reached the disk, so every notifying commit of the
/// whole server waits for the one before (measured: 4 moves in flight went
/// 4× slower). The service announces committed changes right after, in
/// batches, from a task of its own (`service/live.rs`).
///
/// [`PlayView`]: super::PlayView
fn postgres_apply(ending: bool, vacation: bool, checked: bool) -> String {
    let status = match ending {
        true => ", status = CASE WHEN $3::TEXT IS NULL THEN 'active' ELSE 'finished' END",
        false => "",
    };
    let check = match checked {
        true => format!(
            " AND xmin::TEXT = $19 AND {} = $20",
            super::play::context_stamp("games")
        ),
        false => String::new(),
    };
    // Whether the mover's vacation is running at $18 is the service's word
    // ($17). A change computed on a kept view took it from the vacations
    // read with the view, and every change to either player's vacations
    // moves the context stamp checked above, so that answer still holds;
    // any other change has it tested here.
    let vacation_test = match checked {
        true => "",
        false => {
            " AND ($16::TEXT IS NULL OR ($17::BIGINT = 1) = EXISTS ( \
               SELECT 1 FROM vacations v WHERE v.server_id = games.server_id AND v.user_id = $16 \
                 AND v.starts_ms <= $18 AND v.ends_ms > $18))"
        }
    };
    let vacation_end = match vacation {
        true => {
            ", v AS ( \
           UPDATE vacations SET ends_ms = $18 FROM g \
           WHERE $17::BIGINT = 1 AND vacations.server_id = g.server_id AND vacations.user_id = $16 \
             AND vacations.starts_ms <= $18 AND vacations.ends_ms > $18 \
           RETURNING 1 )"
        }
        false => "",
    };
    format!(
        "WITH g AS ( \
           UPDATE games SET version = version + 1, result = $3, termination = $4, draw_offer = $5, \
             illegal_white = $6, illegal_black = $7, deadline_ms = $8, ended_ms = $9, bonus_ms = $10, \
             next_reminder_ms = $11, wake_ms = LEAST(wake_ms, $8, $11){status} \
           WHERE id = $1 AND version = $2 AND result IS NULL{check}{vacation_test} \
           RETURNING id, version, server_id, xmin::TEXT AS stamp \
         ), m AS ( \
           INSERT INTO moves (game_id, ply, uci, san, played_ms) \
           SELECT $1, $12, $13, $14, $15 FROM g WHERE $12::BIGINT IS NOT NULL \
         ){vacation_end} SELECT g.version, g.stamp FROM g"
    )
}

/// The variants of [`postgres_apply`], by `ending + 2 × vacation + 4 ×
/// checked`.
static POSTGRES_APPLY: LazyLock<[String; 8]> =
    LazyLock::new(|| std::array::from_fn(|i| postgres_apply(i & 1 != 0, i & 2 != 0, i & 4 != 0)));

impl Store {
    /// Commits one action on a game: version check, the new move (if any),
    /// the game's new state, the end of the mover's vacation and, for a
    /// rated ending, both players' points and records. All or nothing.
    pub async fn apply(&self, change: &GameChange) -> Result<Applied, StoreError> {
        self.apply_with(change, None).await
    }

    /// [`Store::apply`] for a change computed on a [`PlayView`] kept from an
    /// earlier read (PostgreSQL): also checks, in the same statement, that
    /// none of the rows the view was read from has changed since (see
    /// [`ViewCheck`]). If one has, nothing is written and the answer is
    /// [`StoreError::Conflict`], as for a stale version. On SQLite, which
    /// has no such stamps, the same as [`Store::apply`].
    ///
    /// [`PlayView`]: super::PlayView
    pub async fn apply_checked(
        &self,
        change: &GameChange,
        check: &ViewCheck,
    ) -> Result<Applied, StoreError> {
        self.apply_with(change, Some(check)).await
    }

    async fn apply_with(
        &self,
        change: &GameChange,
        check: Option<&ViewCheck>,
    ) -> Result<Applied, StoreError> {
        let check = check.filter(|_| self.backend == Backend::Postgres);
        if change.rating.is_none() {
            // The common case (every move that does not end a rated game):
            // one statement, committed with whatever other changes arrive
            // at the same time on SQLite (`group.rs`), on its own on
            // PostgreSQL (which groups commits itself).
            return match self.backend {
                Backend::Sqlite => self.apply_grouped(change).await,
                Backend::Postgres => {
                    let mut conn = self.hot_connection().await?;
                    let applied = self.apply_game(conn.conn(), change, check).await;
                    // A conflict is an answer like any other: the statement
                    // ran to its end. Any other failure leaves the connection
                    // to the pool's test.
                    if matches!(applied, Ok(_) | Err(StoreError::Conflict)) {
                        conn.finished();
                    }
                    applied
                }
            };
        }
        let (_gate, mut tx) = self.begin_write().await?;
        let applied = one_game_row(self, &mut tx, change, check).await?;
        tx.commit().await?;
        Ok(applied)
    }

    /// The game part of [`Store::apply`], in one statement on `conn`; with
    /// `check`, only if the rows of a kept view have not changed
    /// (PostgreSQL).
    pub(super) async fn apply_game(
        &self,
        conn: &mut AnyConnection,
        change: &GameChange,
        check: Option<&ViewCheck>,
    ) -> Result<Applied, StoreError> {
        let s = &change.state;
        let m = change.new_move.as_ref();
        let mover = change.mover.as_ref();
        let vacation_running = mover.is_some_and(|m| m.vacation_running);
        let sql = match self.backend {
            Backend::Sqlite => SQLITE_APPLY,
            Backend::Postgres => {
                let variant = usize::from(s.result.is_some())
                    + 2 * usize::from(vacation_running)
                    + 4 * usize::from(check.is_some());
                POSTGRES_APPLY[variant].as_str()
            }
        };
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(change.game_id)
            .bind(change.expected_version)
            .bind(s.result.clone())
            .bind(s.termination.clone())
            .bind(s.draw_offer.clone())
            .bind(s.illegal_white)
            .bind(s.illegal_black)
            .bind(s.deadline_ms)
            .bind(s.ended_ms)
            .bind(s.bonus_ms)
            .bind(s.next_reminder_ms)
            .bind(m.map(|m| m.ply))
            .bind(m.map(|m| m.uci.clone()))
            .bind(m.map(|m| m.san.clone()))
            .bind(m.map(|m| m.played_ms))
            .bind(mover.map(|m| m.user_id.clone()))
            .bind(i64::from(vacation_running))
            .bind(change.at_ms);
        if let Some(check) = check {
            query = query.bind(check.game.clone()).bind(check.context.clone());
        }
        let (version, stamp) = match self.backend {
            Backend::Sqlite => {
                query.execute(&mut *conn).await.map_err(stale_or_unique)?;
                (change.expected_version + 1, None)
            }
            Backend::Postgres => {
                let row = query
                    .fetch_optional(&mut *conn)
                    .await
                    .map_err(stale_or_unique)?
                    .ok_or(StoreError::Conflict)?;
                (row.try_get("version")?, Some(row.try_get("stamp")?))
            }
        };
        Ok(Applied {
            version,
            ratings: None,
            vacation_ended: vacation_running,
            stamp,
        })
    }

    async fn settle_in(
        &self,
        tx: &mut Transaction<'static, Any>,
        change: &GameChange,
        game: &Rated<'_>,
        score: Score,
        settle: Settle,
    ) -> Result<[RatingChangeRecord; 2], StoreError> {
        let Rated {
            server,
            variant,
            players,
        } = *game;
        let ladder = Ladder::of(variant);
        let mut before = [0i64; 2];
        for (i, user) in players.iter().enumerate() {
            let sql = format!("{}{}", ladder.points_sql, self.for_update());
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(server.to_owned())
                .bind((*user).to_owned());
            if ladder.keyed {
                query = query.bind(variant.key().to_owned());
            }
            let row = query.fetch_optional(&mut **tx).await?;
            before[i] = match row {
                Some(row) => row.try_get("points")?,
                None => 0,
            };
        }
        let (white_delta, black_delta) = settle(before[0], before[1], score);
        let deltas = [white_delta, black_delta];
        let outcome = |i: usize| -> (i64, i64, i64) {
            let won = match score {
                Score::WhiteWins => i == 0,
                Score::BlackWins => i == 1,
                Score::Draw => false,
            };
            let lost = !won && score != Score::Draw;
            (
                i64::from(won),
                i64::from(score == Score::Draw),
                i64::from(lost),
            )
        };
        let mut records = Vec::with_capacity(2);
        for (i, user) in players.iter().enumerate() {
            let (w, d, l) = outcome(i);
            let mut query = sqlx::query(ladder.settle_sql)
                .bind(server.to_owned())
                .bind((*user).to_owned())
                .bind(deltas[i])
                .bind(w)
                .bind(d)
                .bind(l);
            if ladder.keyed {
                query = query.bind(variant.key().to_owned());
                // A variant's ladder reads names from `players`: make sure
                // the player has a row there (they do whenever they
                // challenged or were challenged; a tournament game is the
                // exception worth the statement).
                sqlx::query(
                    "INSERT INTO players (server_id, user_id, display_name) VALUES ($1, $2, $2) \
                     ON CONFLICT (server_id, user_id) DO NOTHING",
                )
                .bind(server.to_owned())
                .bind((*user).to_owned())
                .execute(&mut **tx)
                .await?;
            }
            query.execute(&mut **tx).await?;
            let record = RatingChangeRecord {
                game_id: change.game_id,
                user_id: (*user).to_owned(),
                before: before[i],
                delta: deltas[i],
                after: before[i] + deltas[i],
                at_ms: change.at_ms,
            };
            sqlx::query(
                "INSERT INTO rating_changes (game_id, server_id, user_id, before, delta, after, at_ms, \
                 variant) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(record.game_id)
            .bind(server.to_owned())
            .bind(record.user_id.clone())
            .bind(record.before)
            .bind(record.delta)
            .bind(record.after)
            .bind(record.at_ms)
            .bind(variant.key().to_owned())
            .execute(&mut **tx)
            .await?;
            records.push(record);
        }
        let [white, black]: [RatingChangeRecord; 2] =
            records.try_into().map_err(|_| StoreError::NotFound)?;
        Ok([white, black])
    }
}

/// The game part of a change and, for a rated ending, the settlement, in
/// the transaction `tx` (which the caller commits).
pub(super) async fn one_game_row(
    store: &Store,
    tx: &mut Transaction<'static, Any>,
    change: &GameChange,
    check: Option<&ViewCheck>,
) -> Result<Applied, StoreError> {
    let mut applied = store.apply_game(tx, change, check).await?;
    let Some((score, settle)) = change.rating else {
        return Ok(applied);
    };
    let row = sqlx::query("SELECT server_id, white_id, black_id, variant FROM games WHERE id = $1")
        .bind(change.game_id)
        .fetch_one(&mut **tx)
        .await?;
    let variant = super::games::variant_from_row(&row)?;
    let server: String = row.try_get("server_id")?;
    let white: String = row.try_get("white_id")?;
    let black: String = row.try_get("black_id")?;
    applied.ratings = Some(
        store
            .settle_in(
                tx,
                change,
                &Rated {
                    server: &server,
                    variant,
                    players: [&white, &black],
                },
                score,
                settle,
            )
            .await?,
    );
    Ok(applied)
}

/// A stale version or a duplicate ply is a [`StoreError::Conflict`].
fn stale_or_unique(e: sqlx::Error) -> StoreError {
    match &e {
        sqlx::Error::Database(db) if db.message().contains(STALE) => StoreError::Conflict,
        _ => on_unique_violation(e, StoreError::Conflict),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_trigger_says_what_the_store_recognises() {
        let migration = include_str!("../../migrations/sqlite/0004_game_changes.sql");
        assert!(migration.contains(&format!("RAISE(ABORT, '{}')", super::STALE)));
    }
}
