//! `/privacy show` and `/privacy forget`: what the bot stores about the
//! asker (a JSON attachment), and erasing it on request, after a
//! confirmation button. Neither records the asker first, so someone the
//! bot knows nothing about leaves no trace by asking.

use super::{
    buttons::ButtonAction,
    error::{refuse, ServiceError},
    Actor, Button, ButtonStyle, Image, Reply, Service,
};
use crate::store::Forget;

impl Service {
    pub(super) async fn privacy_show(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let Some(data) = self.store().personal_data(&actor.user).await? else {
            return Ok(Reply::private(
                "I store nothing about you: no games, challenges, points or settings.",
            ));
        };
        let export = serde_json::json!({
            "user_id": actor.user,
            "note": "Everything chessbot stores about this user, table by table. \
                     Moves are stored per game (ask /pgn for a game's moves).",
            "tables": data,
        });
        let bytes = serde_json::to_vec_pretty(&export)
            .map_err(|e| ServiceError::Internal(format!("privacy export: {e}")))?;
        Ok(Reply {
            text: "Everything I store about you is in the attached file. `/privacy forget` erases it.".to_owned(),
            image: Some(Image {
                file_name: "my-chessbot-data.json".to_owned(),
                png: bytes,
            }),
            ephemeral: true,
            ..Reply::default()
        })
    }

    pub(super) async fn privacy_forget(
        &self,
        actor: &Actor,
        confirmed: bool,
    ) -> Result<Reply, ServiceError> {
        if !confirmed {
            // Look before asking: someone with nothing stored, or with games
            // still running, hears so now rather than after confirming.
            if self.store().personal_data(&actor.user).await?.is_none() {
                return refuse("I store nothing about you, so there is nothing to erase.");
            }
            let active = self.store().active_games_of(&actor.user).await?;
            if active > 0 {
                return refuse(active_games_message(active));
            }
            return Ok(Reply {
                text: "This erases your id and name from every server I keep data for: your points, rating history, challenges and vacations go, and your finished games stay for your opponents as played by \"deleted player\". It cannot be undone. Erase everything?".to_owned(),
                buttons: vec![Button {
                    id: ButtonAction::PrivacyForget.id(),
                    label: "Erase my data".to_owned(),
                    style: ButtonStyle::Danger,
                }],
                ephemeral: true,
                ..Reply::default()
            });
        }
        match self.store().forget_user(&actor.user, self.now_ms()).await? {
            Forget::ActiveGames(n) => refuse(active_games_message(n)),
            Forget::NothingStored => {
                refuse("I store nothing about you, so there is nothing to erase.")
            }
            Forget::Done { servers, .. } => {
                self.inner.known_players.forget_user(&actor.user);
                tracing::info!(servers = servers.len(), "a user's data was erased on request");
                Ok(Reply::private(
                    "Done: everything I stored about you is erased. If you use a command again, you start afresh.",
                ))
            }
        }
    }
}

fn active_games_message(n: i64) -> String {
    format!(
        "You have {n} game{} in progress. Finish or resign {} first (`/games` lists them), then ask again.",
        if n == 1 { "" } else { "s" },
        if n == 1 { "it" } else { "them" }
    )
}
