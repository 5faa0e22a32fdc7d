//! What the web board keeps in the database: the secret its links are
//! signed with, and (PostgreSQL) the notices that tell every process a game
//! changed (`NOTIFY` on the channel [`CHANGES_CHANNEL`], the game id as
//! payload), sent once the change has committed, in a statement of their
//! own: a transaction that notifies holds PostgreSQL's notification lock
//! until its commit is on disk, so notifying in the change's own
//! transaction would make every such commit wait for the one before.

use super::{Backend, Store, StoreError};

/// The PostgreSQL notification channel of game changes.
pub const CHANGES_CHANNEL: &str = "chessbot_game_changed";

impl Store {
    /// The secret the web board's links are signed with: made on first use
    /// (32 random bytes, hexadecimal) and kept, so links outlive restarts
    /// and every process of a deployment signs alike.
    pub async fn web_secret(&self) -> Result<String, StoreError> {
        let found: Option<String> =
            sqlx::query_scalar("SELECT secret FROM web_secret WHERE id = 1")
                .fetch_optional(&self.pool)
                .await?;
        if let Some(secret) = found {
            return Ok(secret);
        }
        let bytes: [u8; 32] = rand::random();
        let fresh: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let _writer = self.write_gate.lock().await;
        // Two processes starting together: the first row wins, both read it.
        sqlx::query(
            "INSERT INTO web_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING",
        )
        .bind(fresh)
        .execute(&self.pool)
        .await?;
        Ok(
            sqlx::query_scalar("SELECT secret FROM web_secret WHERE id = 1")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Tells the other processes that the games `game_ids` changed
    /// (PostgreSQL; nothing to do on SQLite, which one process serves), in
    /// one statement (one notice each; PostgreSQL drops repeats within a
    /// transaction). Called after the changes have committed (the service
    /// does it for every change, from one task: `service/live.rs`), on a
    /// connection kept between statements as a move's is (`hot.rs`): under
    /// load one goes every 10 ms, and the pool's test of a connection as it
    /// gives it out and takes it back would add two round trips to each.
    pub async fn announce_changes(&self, game_ids: &[i64]) -> Result<(), StoreError> {
        if self.backend != Backend::Postgres || game_ids.is_empty() {
            return Ok(());
        }
        let ids = game_ids
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let mut conn = self.hot_connection().await?;
        sqlx::query("SELECT pg_notify($1, id) FROM unnest(string_to_array($2, ',')) AS id")
            .bind(CHANGES_CHANNEL)
            .bind(ids)
            .execute(conn.conn())
            .await?;
        conn.finished();
        Ok(())
    }

    /// Calls `heard` with each game id another process announces, until the
    /// process ends (PostgreSQL; returns at once on SQLite). A lost
    /// connection is reopened; since notices sent meanwhile are lost,
    /// `heard(None)` then says "any game may have changed".
    pub async fn listen_changes(
        &self,
        heard: impl Fn(Option<i64>) + Send + 'static,
    ) -> Result<(), StoreError> {
        if self.backend != Backend::Postgres {
            return Ok(());
        }
        let mut listener = sqlx::postgres::PgListener::connect(&self.url).await?;
        listener.listen(CHANGES_CHANNEL).await?;
        tokio::spawn(async move {
            loop {
                match listener.try_recv().await {
                    Ok(Some(notice)) => match notice.payload().parse() {
                        Ok(id) => heard(Some(id)),
                        Err(_) => {
                            tracing::warn!(payload = notice.payload(), "unreadable change notice")
                        }
                    },
                    // The connection was lost; the next call reconnects.
                    Ok(None) => heard(None),
                    Err(e) => {
                        tracing::warn!(error = %e, "change listener failed; retrying");
                        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    }
                }
            }
        });
        Ok(())
    }
}
