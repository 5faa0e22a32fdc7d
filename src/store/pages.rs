//! What the club's web pages look servers up by: the slug in their
//! addresses, and the list of servers whose pages are public.

use super::{
    players::{settings_from_prefixed, SERVER_COLUMNS},
    ServerSettings, Store, StoreError,
};

impl Store {
    /// The server whose pages live under `slug`, if they are on (`link` or
    /// `public`); `None` for an unknown slug and for pages turned off alike.
    pub async fn server_by_slug(&self, slug: &str) -> Result<Option<ServerSettings>, StoreError> {
        let select = format!(
            "SELECT {SERVER_COLUMNS} FROM servers WHERE web_slug = $1 AND web_pages <> 'off'"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(slug.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| settings_from_prefixed(&r, "")).transpose()?)
    }

    /// The servers whose pages are public, at most `limit`, by id.
    pub async fn public_servers(&self, limit: i64) -> Result<Vec<ServerSettings>, StoreError> {
        let select = format!(
            "SELECT {SERVER_COLUMNS} FROM servers WHERE web_pages = 'public' \
             AND web_slug IS NOT NULL ORDER BY id LIMIT $1"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(select))
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| settings_from_prefixed(r, ""))
            .collect::<Result<_, _>>()?)
    }
}
