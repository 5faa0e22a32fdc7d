//! `/board-orientation auto|white`: a player's own choice of how boards
//! are drawn when it is their move. `auto` (the default) shows the board
//! from the side of the player to move, as over a real board; `white`
//! always puts White at the bottom, as in diagrams and books.

use super::{
    error::{refuse_msg, ServiceError},
    Actor, Reply, Service,
};
use crate::{msg, store::StoreError, t};

impl Service {
    pub(super) async fn board_orientation(
        &self,
        actor: &Actor,
        white: bool,
    ) -> Result<Reply, ServiceError> {
        match self
            .store()
            .set_board_white(&actor.server, &actor.user, white)
            .await
        {
            Ok(()) => {}
            // The row is created by every command before it runs; it can
            // only be missing if it was deleted in between.
            Err(StoreError::NotFound) => return refuse_msg(msg!("features-orientation-retry")),
            Err(e) => return Err(e.into()),
        }
        Ok(Reply::private(if white {
            t!(actor.lang(), "features-orientation-white")
        } else {
            t!(actor.lang(), "features-orientation-auto")
        }))
    }
}
