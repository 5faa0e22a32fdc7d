//! Servers' settings and the players on each server's ladder.

use sqlx::{any::AnyRow, Row};

use super::{flag, PlayerRecord, RatingChangeRecord, ServerSettings, Store, StoreError, WebPages};

pub(super) const PLAYER_COLUMNS: &str =
    "server_id, user_id, display_name, points, rated_games, wins, draws, losses, notify_dm, \
     board_white, locale, title";

pub(super) const SERVER_COLUMNS: &str = "id, default_time_control, threads, theme, \
     strict_illegal_moves, challenge_ttl_ms, rated_games_per_pair_daily, \
     vacation_days_per_year, reminder_hours, language, discord_locale, notation, spectators, \
     web_pages, web_slug, session_hours, utc_offset_minutes, puzzle_channel_id, puzzle_hour, \
     puzzle_mining_since_ms";

pub(super) fn player_from_row(row: &AnyRow) -> Result<PlayerRecord, sqlx::Error> {
    player_from_prefixed(row, "")
}

/// A player row read under column names that start with `prefix` (a join
/// reads several players' rows side by side).
pub(super) fn player_from_prefixed(
    row: &AnyRow,
    prefix: &str,
) -> Result<PlayerRecord, sqlx::Error> {
    let column = |name: &str| format!("{prefix}{name}");
    Ok(PlayerRecord {
        server_id: row.try_get(column("server_id").as_str())?,
        user_id: row.try_get(column("user_id").as_str())?,
        display_name: row.try_get(column("display_name").as_str())?,
        points: row.try_get(column("points").as_str())?,
        rated_games: row.try_get(column("rated_games").as_str())?,
        wins: row.try_get(column("wins").as_str())?,
        draws: row.try_get(column("draws").as_str())?,
        losses: row.try_get(column("losses").as_str())?,
        notify_dm: row.try_get::<i64, _>(column("notify_dm").as_str())? != 0,
        board_white: row.try_get::<i64, _>(column("board_white").as_str())? != 0,
        locale: row.try_get(column("locale").as_str())?,
        title: row.try_get(column("title").as_str())?,
    })
}

/// A server's settings read under column names that start with `prefix`.
pub(super) fn settings_from_prefixed(
    row: &AnyRow,
    prefix: &str,
) -> Result<ServerSettings, sqlx::Error> {
    let column = |name: &str| format!("{prefix}{name}");
    Ok(ServerSettings {
        server_id: row.try_get(column("id").as_str())?,
        default_time_control: row.try_get(column("default_time_control").as_str())?,
        threads: row.try_get::<i64, _>(column("threads").as_str())? != 0,
        theme: row.try_get(column("theme").as_str())?,
        strict_illegal_moves: row.try_get::<i64, _>(column("strict_illegal_moves").as_str())? != 0,
        challenge_ttl_ms: row.try_get(column("challenge_ttl_ms").as_str())?,
        rated_games_per_pair_daily: row.try_get(column("rated_games_per_pair_daily").as_str())?,
        vacation_days_per_year: row.try_get(column("vacation_days_per_year").as_str())?,
        reminder_hours: parse_hours(&row.try_get::<String, _>(column("reminder_hours").as_str())?),
        language: row.try_get(column("language").as_str())?,
        discord_locale: row.try_get(column("discord_locale").as_str())?,
        notation: row.try_get(column("notation").as_str())?,
        spectators: row.try_get::<i64, _>(column("spectators").as_str())? != 0,
        web_pages: WebPages::from_id(&row.try_get::<String, _>(column("web_pages").as_str())?)
            .unwrap_or(WebPages::Off),
        web_slug: row.try_get(column("web_slug").as_str())?,
        session_hours: row.try_get(column("session_hours").as_str())?,
        utc_offset_minutes: row.try_get(column("utc_offset_minutes").as_str())?,
        puzzle_channel: row.try_get(column("puzzle_channel_id").as_str())?,
        puzzle_hour: row.try_get(column("puzzle_hour").as_str())?,
        puzzle_mining_since_ms: row.try_get(column("puzzle_mining_since_ms").as_str())?,
    })
}

pub(super) fn rating_change_from_row(row: &AnyRow) -> Result<RatingChangeRecord, sqlx::Error> {
    Ok(RatingChangeRecord {
        game_id: row.try_get("game_id")?,
        user_id: row.try_get("user_id")?,
        before: row.try_get("before")?,
        delta: row.try_get("delta")?,
        after: row.try_get("after")?,
        at_ms: row.try_get("at_ms")?,
    })
}

impl Store {
    /// The server's settings, creating the server with defaults on first use.
    pub async fn server(&self, server_id: &str) -> Result<ServerSettings, StoreError> {
        let select = format!("SELECT {SERVER_COLUMNS} FROM servers WHERE id = $1");
        // Read first: the server nearly always exists, and a read does not
        // queue behind the one SQLite writer as an INSERT would.
        let found = sqlx::query(sqlx::AssertSqlSafe(select.clone()))
            .bind(server_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        let row = match found {
            Some(row) => row,
            None => {
                let d = &self.defaults;
                sqlx::query(
                    "INSERT INTO servers (id, default_time_control, threads, theme, strict_illegal_moves, \
                     challenge_ttl_ms, rated_games_per_pair_daily, vacation_days_per_year, reminder_hours, \
                     language, notation, spectators) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING",
                )
                .bind(server_id.to_owned())
                .bind(d.default_time_control.clone())
                .bind(flag(d.threads))
                .bind(d.theme.clone())
                .bind(flag(d.strict_illegal_moves))
                .bind(d.challenge_ttl_ms)
                .bind(d.rated_games_per_pair_daily)
                .bind(d.vacation_days_per_year)
                .bind(join_hours(&d.reminder_hours))
                .bind(d.language.clone())
                .bind(d.notation.clone())
                .bind(flag(d.spectators))
                .execute(&self.pool)
                .await?;
                sqlx::query(sqlx::AssertSqlSafe(select))
                    .bind(server_id.to_owned())
                    .fetch_one(&self.pool)
                    .await?
            }
        };
        Ok(settings_from_prefixed(&row, "")?)
    }

    /// Writes a server's settings (the server must exist: see [`Store::server`]).
    pub async fn save_settings(&self, s: &ServerSettings) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        update_settings(&mut conn, s).await
    }

    /// Records the locale Discord reports for a server (`guild_locale`), the
    /// default language of its public messages.
    pub async fn set_discord_locale(
        &self,
        server_id: &str,
        locale: Option<&str>,
    ) -> Result<(), StoreError> {
        // Unchanged, nothing is written: the first command of every process
        // start records the locale, and a write would move the context stamp
        // of every active game on the server (migration 0020).
        sqlx::query(
            "UPDATE servers SET discord_locale = $2 \
             WHERE id = $1 AND discord_locale IS DISTINCT FROM $2",
        )
        .bind(server_id.to_owned())
        .bind(locale.map(str::to_owned))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records the client locale a player last used.
    pub async fn set_player_locale(
        &self,
        server_id: &str,
        user_id: &str,
        locale: Option<&str>,
    ) -> Result<(), StoreError> {
        // Unchanged, nothing is written (as for the server's locale).
        sqlx::query(
            "UPDATE players SET locale = $3 \
             WHERE server_id = $1 AND user_id = $2 AND locale IS DISTINCT FROM $3",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .bind(locale.map(str::to_owned))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records a player on a server (or refreshes their display name; the
    /// same name again writes nothing, so the player's games' context
    /// stamps stay as they are).
    pub async fn touch_player(
        &self,
        server_id: &str,
        user_id: &str,
        display_name: &str,
    ) -> Result<(), StoreError> {
        self.server(server_id).await?;
        sqlx::query(
            "INSERT INTO players (server_id, user_id, display_name) VALUES ($1, $2, $3) \
             ON CONFLICT (server_id, user_id) DO UPDATE SET display_name = excluded.display_name \
             WHERE players.display_name IS DISTINCT FROM excluded.display_name",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .bind(display_name.to_owned())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A player's record, if they have ever played or been challenged here.
    pub async fn player(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Option<PlayerRecord>, StoreError> {
        let sql =
            format!("SELECT {PLAYER_COLUMNS} FROM players WHERE server_id = $1 AND user_id = $2");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(user_id.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(player_from_row).transpose()?)
    }

    /// Two players' records at once (a board shows both), in the order
    /// asked; `None` for one who has no record.
    pub async fn player_pair(
        &self,
        server_id: &str,
        users: [&str; 2],
    ) -> Result<[Option<PlayerRecord>; 2], StoreError> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE server_id = $1 AND user_id IN ($2, $3)"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(users[0].to_owned())
            .bind(users[1].to_owned())
            .fetch_all(&self.pool)
            .await?;
        let records = rows
            .iter()
            .map(player_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(users.map(|user| records.iter().find(|r| r.user_id == user).cloned()))
    }

    /// One page of the ladder: most points first, then most rated games,
    /// then name. Players who have not played a rated game are left out.
    pub async fn leaderboard(
        &self,
        server_id: &str,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<PlayerRecord>, StoreError> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE server_id = $1 AND rated_games > 0 \
             ORDER BY points DESC, rated_games DESC, display_name ASC, user_id ASC \
             LIMIT $2 OFFSET $3"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(server_id.to_owned())
            .bind(limit)
            .bind(offset)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(player_from_row).collect::<Result<_, _>>()?)
    }

    /// How many players are on the ladder.
    pub async fn ladder_size(&self, server_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM players WHERE server_id = $1 AND rated_games > 0",
        )
        .bind(server_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// The sum of all points on a server: always exactly 0.
    pub async fn points_total(&self, server_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS total FROM players WHERE server_id = $1",
        )
        .bind(server_id.to_owned())
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("total")?)
    }

    /// A player's rating changes on the standard ladder, oldest first.
    pub async fn rating_history(
        &self,
        server_id: &str,
        user_id: &str,
    ) -> Result<Vec<RatingChangeRecord>, StoreError> {
        self.rating_history_in(server_id, user_id, super::Variant::Standard)
            .await
    }

    /// A player's rating changes on `variant`'s ladder, oldest first.
    pub async fn rating_history_in(
        &self,
        server_id: &str,
        user_id: &str,
        variant: super::Variant,
    ) -> Result<Vec<RatingChangeRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, user_id, before, delta, after, at_ms FROM rating_changes \
             WHERE server_id = $1 AND user_id = $2 AND variant = $3 \
             ORDER BY at_ms ASC, game_id ASC",
        )
        .bind(server_id.to_owned())
        .bind(user_id.to_owned())
        .bind(variant.key().to_owned())
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(rating_change_from_row)
            .collect::<Result<_, _>>()?)
    }
}

/// Writes a server's settings on `conn` (a transaction or a connection).
pub(super) async fn update_settings(
    conn: &mut sqlx::AnyConnection,
    s: &ServerSettings,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE servers SET default_time_control = $2, threads = $3, theme = $4, \
         strict_illegal_moves = $5, challenge_ttl_ms = $6, rated_games_per_pair_daily = $7, \
         vacation_days_per_year = $8, reminder_hours = $9, language = $10, notation = $11, \
         spectators = $12, web_pages = $13, web_slug = $14, session_hours = $15, \
         utc_offset_minutes = $16, puzzle_channel_id = $17, puzzle_hour = $18, \
         puzzle_mining_since_ms = $19 WHERE id = $1",
    )
    .bind(s.server_id.clone())
    .bind(s.default_time_control.clone())
    .bind(flag(s.threads))
    .bind(s.theme.clone())
    .bind(flag(s.strict_illegal_moves))
    .bind(s.challenge_ttl_ms)
    .bind(s.rated_games_per_pair_daily)
    .bind(s.vacation_days_per_year)
    .bind(join_hours(&s.reminder_hours))
    .bind(s.language.clone())
    .bind(s.notation.clone())
    .bind(flag(s.spectators))
    .bind(s.web_pages.id())
    .bind(s.web_slug.clone())
    .bind(s.session_hours)
    .bind(s.utc_offset_minutes)
    .bind(s.puzzle_channel.clone())
    .bind(s.puzzle_hour)
    .bind(s.puzzle_mining_since_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// `[24, 1]` → `"24,1"`.
fn join_hours(hours: &[i64]) -> String {
    hours
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// `"24,1"` → `[24, 1]` (largest first; bad parts are skipped).
fn parse_hours(text: &str) -> Vec<i64> {
    let mut hours: Vec<i64> = text
        .split(',')
        .filter_map(|h| h.trim().parse().ok())
        .filter(|h| *h > 0)
        .collect();
    hours.sort_unstable_by(|a, b| b.cmp(a));
    hours.dedup();
    hours
}
