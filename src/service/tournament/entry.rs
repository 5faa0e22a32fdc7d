//! Entering and leaving: `/tournament join` and `leave` before the start,
//! `withdraw` after it (not paired again; games still pending are lost by
//! forfeit), and the moderators' `remove`, which is one or the other.

use super::Loaded;
use crate::{
    msg,
    service::{
        display_name,
        error::{refuse_msg, ServiceError},
        Actor, Reply, Service, TournamentRef, UserRef,
    },
    store::{Entrant, StoreError, TournamentStatus},
    t,
    tournament::event::Format,
};

impl Service {
    pub(super) async fn join_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
    ) -> Result<Reply, ServiceError> {
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.clone();
        if t.format() == Format::Team {
            return refuse_msg(msg!("tournament-join-team", name = name.as_str()));
        }
        if t.entrant(&actor.user).is_some() {
            return refuse_msg(msg!("tournament-joined-already", name = name.as_str()));
        }
        refuse_unless_open(&t)?;
        if t.entrants.len() as i64 >= t.record.tournament.max_players {
            return refuse_msg(msg!(
                "tournament-full",
                name = name.as_str(),
                limit = t.record.tournament.max_players
            ));
        }
        let entrant = Entrant {
            user_id: actor.user.clone(),
            name: display_name(&actor.name),
            points: self.points_of(&actor.server, &actor.user).await?,
            pno: None,
            section: None,
            board: None,
            joined_ms: self.now_ms(),
            withdrawn_after: None,
        };
        match self.store().join_tournament(t.record.id, &entrant).await {
            Ok(()) => {}
            // Full, started or joined in the meantime: read it again to say which.
            Err(StoreError::Conflict) => {
                return refuse_msg(msg!("tournament-join-raced", name = name.as_str()))
            }
            Err(e) => return Err(e.into()),
        }
        let lang = self.server_lang(&actor.server).await;
        Ok(Reply::text(t!(
            lang,
            "tournament-joined",
            player = entrant.name.as_str(),
            name = name.as_str(),
            count = t.entrants.len() + 1,
            limit = t.record.tournament.max_players
        )))
    }

    pub(super) async fn leave_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
    ) -> Result<Reply, ServiceError> {
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.as_str();
        if t.entrant(&actor.user).is_none() {
            return refuse_msg(msg!("tournament-not-entered", name = name));
        }
        if t.format() == Format::Team {
            return refuse_msg(msg!("tournament-leave-team", name = name));
        }
        if t.record.status != TournamentStatus::Open {
            return refuse_msg(msg!("tournament-leave-started", name = name));
        }
        if !self
            .store()
            .leave_tournament(t.record.id, &actor.user)
            .await?
        {
            return refuse_msg(msg!("tournament-leave-started", name = name));
        }
        let lang = self.server_lang(&actor.server).await;
        Ok(Reply::text(t!(
            lang,
            "tournament-left",
            player = display_name(&actor.name),
            name = name
        )))
    }

    pub(super) async fn withdraw_from_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
    ) -> Result<Reply, ServiceError> {
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.clone();
        let Some(entrant) = t.entrant(&actor.user) else {
            return refuse_msg(msg!("tournament-not-entered", name = name.as_str()));
        };
        if t.record.status == TournamentStatus::Open {
            return refuse_msg(msg!("tournament-withdraw-open", name = name.as_str()));
        }
        if !t.record.status.is_live() {
            return refuse_msg(msg!("tournament-over", name = name.as_str()));
        }
        if entrant.withdrawn_after.is_some() {
            return refuse_msg(msg!("tournament-withdrawn-already", name = name.as_str()));
        }
        self.withdraw(actor, &t, &actor.user).await
    }

    pub(super) async fn remove_from_tournament(
        &self,
        actor: &Actor,
        which: TournamentRef,
        player: &UserRef,
    ) -> Result<Reply, ServiceError> {
        self.moderators_only(actor)?;
        let t = self.find_tournament(actor, &which).await?;
        let name = t.record.tournament.name.clone();
        let Some(entrant) = t.entrant(&player.id) else {
            return refuse_msg(msg!(
                "tournament-player-not-entered",
                player = display_name(&player.name),
                name = name.as_str()
            ));
        };
        if !t.record.status.is_live() {
            return refuse_msg(msg!("tournament-over", name = name.as_str()));
        }
        if t.record.status == TournamentStatus::Open {
            if t.format() == Format::Team {
                return refuse_msg(msg!("tournament-leave-team", name = name.as_str()));
            }
            if !self
                .store()
                .leave_tournament(t.record.id, &player.id)
                .await?
            {
                return refuse_msg(msg!("tournament-join-raced", name = name.as_str()));
            }
            let lang = self.server_lang(&actor.server).await;
            return Ok(Reply::text(t!(
                lang,
                "tournament-removed",
                player = entrant.name.as_str(),
                name = name.as_str()
            )));
        }
        if entrant.withdrawn_after.is_some() {
            return refuse_msg(msg!("tournament-withdrawn-already", name = name.as_str()));
        }
        self.withdraw(actor, &t, &player.id).await
    }

    /// Withdraws `user` after the current round; their pending boards are
    /// lost by forfeit (their games ended), and the tournament moves on.
    async fn withdraw(&self, actor: &Actor, t: &Loaded, user: &str) -> Result<Reply, ServiceError> {
        let id = t.record.id;
        let name = t.record.tournament.name.as_str();
        let player = t.entrant(user).map_or(user, |e| e.name.as_str()).to_owned();
        if !self
            .store()
            .withdraw_entrant(id, user, t.record.current_round)
            .await?
        {
            return refuse_msg(msg!("tournament-withdrawn-already", name = name));
        }
        let forfeited = self.forfeit_pending(t, user, &actor.user).await?;
        let lang = self.server_lang(&actor.server).await;
        let text = t!(
            lang,
            "tournament-withdrawn",
            player = player.as_str(),
            name = name,
            round = t.record.current_round,
            games = forfeited
        );
        self.advance_later(id);
        Ok(Reply::text(text))
    }
}

/// Refuses entries to a tournament that has started or ended.
fn refuse_unless_open(t: &Loaded) -> Result<(), ServiceError> {
    let name = t.record.tournament.name.as_str();
    match t.record.status {
        TournamentStatus::Open => Ok(()),
        TournamentStatus::Running | TournamentStatus::Paused => {
            refuse_msg(msg!("tournament-join-started", name = name))
        }
        TournamentStatus::Finished | TournamentStatus::Cancelled => {
            refuse_msg(msg!("tournament-over", name = name))
        }
    }
}
