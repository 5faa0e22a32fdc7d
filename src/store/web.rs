//! What the web board keeps in the database: the secret its links are
//! signed with, and (PostgreSQL) the notices that tell every process a game
//! changed (`NOTIFY` on the channel [`CHANGES_CHANNEL`], the game id as
//! payload; delivered only once the change's transaction has committed).

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

    /// Tells the other processes that game `game_id` changed (PostgreSQL;
    /// nothing to do on SQLite, which one process serves). [`Store::apply`]
    /// does this itself, in its own statement; this is for the changes
    /// written otherwise (a takeback, a time loss, a rematch).
    pub async fn announce_change(&self, game_id: i64) -> Result<(), StoreError> {
        if self.backend != Backend::Postgres {
            return Ok(());
        }
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANGES_CHANNEL)
            .bind(game_id.to_string())
            .execute(&self.pool)
            .await?;
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
