//! `/privacy show` and `/privacy forget`: what the bot stores about the
//! asker (a JSON attachment), and erasing it on request, after a
//! confirmation button. Neither records the asker first, so someone the
//! bot knows nothing about leaves no trace by asking.

use super::{
    buttons::ButtonAction,
    error::{refuse_msg, ServiceError},
    Actor, Button, ButtonStyle, Image, Reply, Service,
};
use crate::{msg, store::Forget, t};

impl Service {
    pub(super) async fn privacy_show(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let Some(data) = self.store().personal_data(&actor.user).await? else {
            return Ok(Reply::private(t!(actor.lang(), "privacy-nothing-stored")));
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
            text: t!(actor.lang(), "privacy-show-attached"),
            image: Some(Image {
                file_name: "my-chessbot-data.json".to_owned(),
                png: bytes,
                description: t!(actor.lang(), "alt-privacy-export"),
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
                return refuse_msg(msg!("privacy-nothing-to-erase"));
            }
            let active = self.store().active_games_of(&actor.user).await?;
            if active > 0 {
                return refuse_msg(msg!("privacy-active-games", count = active));
            }
            return Ok(Reply {
                text: t!(actor.lang(), "privacy-forget-confirm"),
                buttons: vec![Button {
                    id: ButtonAction::PrivacyForget.id(),
                    label: t!(actor.lang(), "privacy-forget-button"),
                    style: ButtonStyle::Danger,
                }],
                ephemeral: true,
                ..Reply::default()
            });
        }
        match self.store().forget_user(&actor.user, self.now_ms()).await? {
            Forget::ActiveGames(n) => refuse_msg(msg!("privacy-active-games", count = n)),
            Forget::NothingStored => refuse_msg(msg!("privacy-nothing-to-erase")),
            Forget::Done { servers, .. } => {
                self.inner.known_players.forget_user(&actor.user);
                tracing::info!(
                    servers = servers.len(),
                    "a user's data was erased on request"
                );
                Ok(Reply::private(t!(actor.lang(), "privacy-forget-done")))
            }
        }
    }
}
