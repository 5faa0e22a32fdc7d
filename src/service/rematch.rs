//! Rematches: every finished board carries a Rematch button. The first
//! player to click offers the rematch (stored with the finished game, so it
//! survives a restart); the opponent's click starts it: same settings
//! (rated or not, time control, starting position), colours swapped, in
//! the same channel or thread. Both must agree; a second click by the same
//! player, or any click once the rematch has started, changes nothing.

use shakmaty::Color;

use super::{
    buttons::{ButtonAction, GameButton},
    error::{refuse_msg, ServiceError},
    Actor, Button, ButtonStyle, Reply, Service,
};
use crate::{
    i18n::join_sentences,
    msg,
    store::{NewGame, StoreError},
    t,
};

impl Service {
    /// A click on Rematch under the finished game `game_id`.
    pub(super) async fn rematch(&self, actor: &Actor, game_id: i64) -> Result<Reply, ServiceError> {
        let _guard = self.lock_game(game_id).await;
        let record = match self.store().game(game_id).await? {
            Some(r) if r.game.server_id == actor.server => r,
            _ => return refuse_msg(msg!("features-rematch-not-found")),
        };
        if record.is_active() {
            return refuse_msg(msg!("features-rematch-active"));
        }
        self.refuse_in_tournament(game_id, msg!("tournament-no-rematch"))
            .await?;
        let side = if record.game.white_id == actor.user {
            Color::White
        } else if record.game.black_id == actor.user {
            Color::Black
        } else {
            return refuse_msg(msg!("features-rematch-not-player"));
        };
        let opponent = match side {
            Color::White => record.game.black_id.clone(),
            Color::Black => record.game.white_id.clone(),
        };
        if opponent == crate::store::DELETED_PLAYER {
            return refuse_msg(msg!("features-rematch-erased"));
        }
        if let Some(started) = record.offers.rematch_game_id {
            return refuse_msg(msg!("features-rematch-started", game = started));
        }
        let name = super::display_name(&actor.name);
        // Offers and the new game are posted for both: the server's language.
        let lang = self.server_lang(&actor.server).await;
        let opponent_name = self.name_in(&actor.server, &opponent, lang).await?;
        match record.offers.rematch_by.as_deref() {
            Some(by) if by == actor.user => refuse_msg(msg!(
                "features-rematch-already-offered",
                opponent = opponent_name
            )),
            None => {
                match self.store().offer_rematch(game_id, &actor.user).await {
                    Ok(()) => self.game_changed(game_id),
                    Err(StoreError::Conflict) => return answered(),
                    Err(e) => return Err(e.into()),
                }
                let button = Button {
                    id: ButtonAction::Game {
                        id: game_id,
                        action: GameButton::Rematch,
                        version: record.version,
                    }
                    .id(),
                    label: t!(lang, "features-button-rematch"),
                    style: ButtonStyle::Primary,
                };
                Ok(Reply {
                    text: t!(
                        lang,
                        "features-rematch-offer",
                        name = name,
                        opponent = opponent_name
                    ),
                    buttons: vec![button],
                    mentions: vec![opponent],
                    ..Reply::default()
                })
            }
            Some(_) => {
                // The opponent offered: this click accepts.
                let Some(channel) = record.game.channel_id.clone() else {
                    return refuse_msg(msg!("features-rematch-no-thread"));
                };
                let settings = self.store().server(&actor.server).await?;
                if record.game.rated {
                    self.check_pair_limit(actor, &opponent, settings.rated_games_per_pair_daily)
                        .await?;
                }
                let now = self.now_ms();
                let new_game = NewGame {
                    server_id: record.game.server_id.clone(),
                    home_channel_id: record.game.home_channel_id.clone(),
                    channel_id: Some(channel),
                    white_id: record.game.black_id.clone(),
                    black_id: record.game.white_id.clone(),
                    rated: record.game.rated,
                    time_control: record.game.time_control.clone(),
                    initial_fen: record.game.initial_fen.clone(),
                    // The same start again, colours swapped: each player has
                    // played both sides of a Chess960 position (help says so).
                    variant: record.game.variant,
                    start_number: record.game.start_number,
                    deadline_ms: super::time::first_deadline(&record.game.time_control, now),
                    created_ms: now,
                };
                let game = match self
                    .store()
                    .accept_rematch(game_id, &opponent, &new_game)
                    .await
                {
                    Ok(game) => game,
                    Err(StoreError::Conflict) => return answered(),
                    Err(StoreError::ChannelBusy) => {
                        return refuse_msg(msg!("features-rematch-busy"))
                    }
                    Err(e) => return Err(e.into()),
                };
                // The finished game's pages learn of the new game.
                self.game_changed(game_id);
                let game = self.arm_first_reminder(game, &settings, now).await?;
                let white = self
                    .name_in(&actor.server, &game.game.white_id, lang)
                    .await?;
                let black = self
                    .name_in(&actor.server, &game.game.black_id, lang)
                    .await?;
                let id = game.id;
                let session = self.load(game).await?;
                let mut reply = self.board_reply(&session, &session.game, None).await?;
                let accepted = t!(
                    lang,
                    "features-rematch-accepted",
                    name = name,
                    game = id,
                    white = white,
                    black = black
                );
                reply.text = join_sentences(lang, [accepted.as_str(), &reply.text]);
                Ok(reply)
            }
        }
    }
}

fn answered<T>() -> Result<T, ServiceError> {
    refuse_msg(msg!("features-rematch-answered"))
}
