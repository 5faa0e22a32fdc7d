//! What a move needs to know, read in one query: the game, its server's
//! settings (rules, theme, reminder hours), both players (names and points
//! for the board) and their vacations (the next deadline, and whether the
//! move ends the mover's). One round trip under the game's lock instead of
//! four.
//!
//! On PostgreSQL the view also carries a [`ViewCheck`]: stamps of the rows
//! it was read from, so that a process may keep the view between moves and
//! skip this read. The next commit on it ([`Store::apply_checked`]) checks
//! the stamps in its own statement and applies nothing if any of those rows
//! changed since (another process moved, a setting or a vacation changed):
//! the caller then reads the view again and judges the move anew.

use std::sync::LazyLock;

use sqlx::Row;

use super::{
    games::{game_from_row, GAME_COLUMNS},
    players::{player_from_prefixed, settings_from_prefixed, PLAYER_COLUMNS, SERVER_COLUMNS},
    Backend, GameRecord, PlayerRecord, ServerSettings, Store, StoreError, Vacation,
};

/// A game with everything a move on it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayView {
    pub record: GameRecord,
    pub settings: ServerSettings,
    /// White's and Black's ladder rows, if they have one.
    pub players: [Option<PlayerRecord>; 2],
    /// White's and Black's vacations that end after the time asked for,
    /// earliest start first.
    pub vacations: [Vec<Vacation>; 2],
    /// Whether a player has conditional moves stored for the game (the
    /// move path looks them up only then).
    pub conditional: bool,
    /// Whether the players' vacations pause this game's deadlines: always,
    /// but for a tournament game whose tournament says otherwise.
    pub vacations_pause: bool,
    /// Whether the game was ever adjourned (the move path reads its
    /// adjournments only then).
    pub adjourned: bool,
    /// What a commit checks to trust this view later without reading it
    /// again (PostgreSQL; `None` on SQLite).
    pub check: Option<ViewCheck>,
}

/// Stamps of what a [`PlayView`] was read from, checked by
/// [`Store::apply_checked`] in the commit's own statement.
///
/// PostgreSQL writes a new version of a row for every change, with the id
/// of the writing transaction in the row's `xmin`; a row that still has the
/// `xmin` it was read with has not changed since (a transaction's rows are
/// seen only once it has committed, so no later change can carry the same
/// id). The stamps are the game row's `xmin` and the game's context stamp:
/// its row in `game_context`, to which every change to the server's row,
/// either player's row, their vacations or the game's conditional moves
/// adds one in its own transaction (triggers of
/// `migrations/postgres/0020_context_stamps.sql`). A tournament game's
/// pause rule is fixed when the game is made; adjournments change the game
/// row with them (`adjourn.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewCheck {
    /// The game row's `xmin`.
    pub game: String,
    /// The game's context stamp ([`context_stamp`]).
    pub context: String,
    /// The view holds the vacations that end after this time (what the
    /// service may take from it; any change to a vacation moves the
    /// context stamp, whenever it ends).
    pub since_ms: i64,
}

/// The SQL of the context stamp of the game row `g`: the same text in the
/// read and in the commit's check, so both compute the same value. A game
/// whose context never changed has no row: its stamp is 0.
pub(super) fn context_stamp(g: &str) -> String {
    format!("(COALESCE((SELECT c.stamp FROM game_context c WHERE c.game_id = {g}.id), 0)::TEXT)")
}

/// `t.a AS pa, t.b AS pb, …` for a comma-separated column list.
fn aliased(table: &str, columns: &str, prefix: &str) -> String {
    columns
        .split(',')
        .map(|c| format!("{table}.{c} AS {prefix}{c}", c = c.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The read: `stamps` adds the [`ViewCheck`]'s columns (PostgreSQL).
fn play_view_sql(stamps: bool) -> String {
    let stamps = match stamps {
        true => format!(
            "g.xmin::TEXT AS g_stamp, {} AS ctx_stamp, ",
            context_stamp("g")
        ),
        false => String::new(),
    };
    format!(
        "SELECT {game}, {server}, {white}, {black}, {stamps}\
           v.user_id AS v_user_id, v.id AS v_id, v.starts_ms AS v_starts_ms, v.ends_ms AS v_ends_ms, \
           (SELECT COUNT(*) FROM conditional_moves c WHERE c.game_id = g.id) AS c_trees, \
           (SELECT COUNT(*) FROM tournament_games tg JOIN tournaments t \
             ON t.id = tg.tournament_id WHERE tg.game_id = g.id AND t.vacations_pause = 0) \
             AS t_no_pause, \
           (SELECT COUNT(*) FROM adjournments a WHERE a.game_id = g.id) AS a_count \
         FROM games g \
         LEFT JOIN servers s ON s.id = g.server_id \
         LEFT JOIN players w ON w.server_id = g.server_id AND w.user_id = g.white_id \
         LEFT JOIN players b ON b.server_id = g.server_id AND b.user_id = g.black_id \
         LEFT JOIN vacations v ON v.server_id = g.server_id \
           AND v.user_id IN (g.white_id, g.black_id) AND v.ends_ms > $2 \
         WHERE g.id = $1",
        game = aliased("g", GAME_COLUMNS, ""),
        server = aliased("s", SERVER_COLUMNS, "s_"),
        white = aliased("w", PLAYER_COLUMNS, "w_"),
        black = aliased("b", PLAYER_COLUMNS, "b_"),
    )
}

static PLAY_VIEW_SQL: LazyLock<String> = LazyLock::new(|| play_view_sql(false));
static PLAY_VIEW_STAMPED_SQL: LazyLock<String> = LazyLock::new(|| play_view_sql(true));
/// [`Store::view_is_current`]'s statement: `$1` the game, `$2` and `$3` the
/// view's stamps.
static VIEW_IS_CURRENT_SQL: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT 1 FROM games WHERE id = $1 AND xmin::TEXT = $2 AND {} = $3",
        context_stamp("games")
    )
});

impl Store {
    /// The game `game_id` with its settings, players and the vacations of
    /// both players that end after `since_ms`; `None` if there is no such
    /// game. (One row per vacation found, or one row.)
    pub async fn play_view(
        &self,
        game_id: i64,
        since_ms: i64,
    ) -> Result<Option<PlayView>, StoreError> {
        let stamped = self.backend == Backend::Postgres;
        let sql = match stamped {
            true => PLAY_VIEW_STAMPED_SQL.as_str(),
            false => PLAY_VIEW_SQL.as_str(),
        };
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(game_id)
            .bind(since_ms)
            .fetch_all(&self.pool)
            .await?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let record = game_from_row(first)?;
        let settings = match first.try_get::<Option<String>, _>("s_id")? {
            Some(_) => settings_from_prefixed(first, "s_")?,
            // Every game's server is stored; this only guards the join.
            None => self.server(&record.game.server_id).await?,
        };
        let player = |prefix: &str| -> Result<Option<PlayerRecord>, sqlx::Error> {
            match first.try_get::<Option<String>, _>(format!("{prefix}user_id").as_str())? {
                Some(_) => Ok(Some(player_from_prefixed(first, prefix)?)),
                None => Ok(None),
            }
        };
        let players = [player("w_")?, player("b_")?];
        let mut vacations: [Vec<Vacation>; 2] = Default::default();
        for row in &rows {
            let Some(user) = row.try_get::<Option<String>, _>("v_user_id")? else {
                continue;
            };
            let vacation = Vacation {
                id: row.try_get("v_id")?,
                starts_ms: row.try_get("v_starts_ms")?,
                ends_ms: row.try_get("v_ends_ms")?,
            };
            if user == record.game.white_id {
                vacations[0].push(vacation);
            }
            if user == record.game.black_id {
                vacations[1].push(vacation);
            }
        }
        // Sorted here rather than by the query, which would sort every
        // move's rows through a temporary b-tree.
        for list in &mut vacations {
            list.sort_by_key(|v| (v.starts_ms, v.id));
        }
        let conditional = first.try_get::<i64, _>("c_trees")? > 0;
        let vacations_pause = first.try_get::<i64, _>("t_no_pause")? == 0;
        let adjourned = first.try_get::<i64, _>("a_count")? > 0;
        let check = match stamped {
            true => Some(ViewCheck {
                game: first.try_get("g_stamp")?,
                context: first.try_get("ctx_stamp")?,
                since_ms,
            }),
            false => None,
        };
        Ok(Some(PlayView {
            record,
            settings,
            players,
            vacations,
            conditional,
            vacations_pause,
            adjourned,
            check,
        }))
    }

    /// Whether a view of game `game_id` with the stamps `check` is still
    /// what a read would give: neither the game row nor any row of its
    /// context has changed since (the same test [`Store::apply_checked`]
    /// makes, without writing). One small statement, where a read joins the
    /// game with its server, players and vacations and counts its
    /// conditional moves, tournament rule and adjournments. Always `false`
    /// on SQLite, which keeps no stamps.
    pub async fn view_is_current(
        &self,
        game_id: i64,
        check: &ViewCheck,
    ) -> Result<bool, StoreError> {
        if self.backend != Backend::Postgres {
            return Ok(false);
        }
        let found = sqlx::query(sqlx::AssertSqlSafe(VIEW_IS_CURRENT_SQL.as_str()))
            .bind(game_id)
            .bind(check.game.as_str())
            .bind(check.context.as_str())
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    /// Whether vacations pause game `game_id`'s deadlines (see
    /// [`PlayView::vacations_pause`]).
    pub async fn vacations_pause(&self, game_id: i64) -> Result<bool, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM tournament_games tg JOIN tournaments t \
             ON t.id = tg.tournament_id WHERE tg.game_id = $1 AND t.vacations_pause = 0",
        )
        .bind(game_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(n == 0)
    }
}
