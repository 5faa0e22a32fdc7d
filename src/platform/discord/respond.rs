//! Answering one interaction (a slash command or a button click) with the
//! service's reply, within Discord's 3-second limit.
//!
//! The service is given [`Data::defer_after`] to answer. Quick answers
//! (nearly all: a move is a few milliseconds) go out as the interaction's
//! one response, in a single request, public or private as the reply says.
//! Slower ones are deferred first: a command shows "thinking…" and is then
//! edited (or, if the answer turns out private, the placeholder is removed
//! and a private follow-up sent, since a deferred response's visibility
//! cannot change; and if it mentions someone, it goes out as a follow-up
//! too, since Discord notifies nobody of mentions added by an edit); a
//! click is acknowledged silently and answered with a follow-up. A reply that opens a thread continues in [`super::threads`].

use std::pin::pin;

use poise::serenity_prelude as serenity;
use serenity::{
    Builder, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, InteractionId, Permissions,
};

use super::{
    errors::{describe, is_missing_permission},
    reply::{Capabilities, Message},
    Data,
};
use crate::{
    i18n::Lang,
    service::{Actor, Command, Reply},
    t,
};

/// The interaction being answered, whatever its kind.
#[derive(Clone, Debug)]
pub struct Target {
    pub id: InteractionId,
    pub token: String,
    pub kind: Kind,
    pub channel_id: serenity::ChannelId,
    /// The bot's permissions in the channel, as Discord sent them.
    pub app_permissions: Option<Permissions>,
    /// The language of the person who sent the interaction (for the
    /// adapter's own notes: missing permissions, restarts).
    pub lang: Lang,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A slash command: a deferred answer edits the "thinking…" response.
    Command,
    /// A button click: answers are new messages, never edits of the board.
    Component,
}

impl From<&serenity::CommandInteraction> for Target {
    fn from(i: &serenity::CommandInteraction) -> Self {
        Target {
            id: i.id,
            token: i.token.clone(),
            kind: Kind::Command,
            channel_id: i.channel_id,
            app_permissions: i.app_permissions,
            lang: Lang::from_locale(Some(i.locale.as_str())),
        }
    }
}

impl From<&serenity::ComponentInteraction> for Target {
    fn from(i: &serenity::ComponentInteraction) -> Self {
        Target {
            id: i.id,
            token: i.token.clone(),
            kind: Kind::Component,
            channel_id: i.channel_id,
            app_permissions: i.app_permissions,
            lang: Lang::from_locale(Some(i.locale.as_str())),
        }
    }
}

impl Target {
    pub fn capabilities(&self) -> Capabilities {
        Capabilities::from_permissions(self.app_permissions)
    }

    /// The interaction's one response.
    pub async fn respond(
        &self,
        http: &serenity::Http,
        response: CreateInteractionResponse,
    ) -> serenity::Result<()> {
        response.execute(http, (self.id, &self.token)).await
    }

    /// A follow-up message on the interaction's webhook.
    pub async fn follow_up(
        &self,
        http: &serenity::Http,
        message: CreateInteractionResponseFollowup,
    ) -> serenity::Result<serenity::Message> {
        message.execute(http, (None, &self.token)).await
    }

    /// A private note to the user, after the response was sent.
    pub async fn tell(&self, http: &serenity::Http, text: &str) {
        let note = CreateInteractionResponseFollowup::new()
            .content(super::reply::cut(text, super::reply::limits::CONTENT))
            .ephemeral(true);
        if let Err(e) = self.follow_up(http, note).await {
            tracing::warn!(interaction = %self.id, error = %describe(&e), "could not send a private note");
        }
    }

    /// Answers with a private text as the interaction's one response.
    pub async fn refuse(&self, http: &serenity::Http, text: &str) {
        let msg = CreateInteractionResponseMessage::new()
            .content(text)
            .ephemeral(true);
        if let Err(e) = self
            .respond(http, CreateInteractionResponse::Message(msg))
            .await
        {
            tracing::warn!(interaction = %self.id, error = %describe(&e), "could not answer");
        }
    }
}

/// Runs `command` for `actor` and answers the interaction; then opens the
/// game's thread if the reply asks for one.
pub async fn answer(
    ctx: &serenity::Context,
    data: &Data,
    target: &Target,
    actor: &Actor,
    command: Command,
) {
    let Some(_pass) = data.inflight.enter() else {
        target
            .refuse(&ctx.http, &t!(target.lang, "discord-restarting"))
            .await;
        return;
    };
    let started = std::time::Instant::now();
    let mut work = pin!(data.service.handle(actor, command));
    // Zero means "always defer" (tests use it to take the slow path).
    let ready = if data.defer_after.is_zero() {
        None
    } else {
        tokio::time::timeout(data.defer_after, work.as_mut())
            .await
            .ok()
    };
    let reply = match ready {
        Some(reply) => {
            let worked = started.elapsed();
            let progress = starts_progress(data, target, &reply);
            let sent = send_now(ctx, target, &reply).await;
            if let Some(key) = progress {
                data.progress.delivered(key, sent);
            }
            tracing::debug!(interaction = %target.id, work_us = worked.as_micros() as u64, total_us = started.elapsed().as_micros() as u64, "answered");
            reply
        }
        None => {
            let deferred = match target.kind {
                Kind::Command => {
                    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
                }
                Kind::Component => CreateInteractionResponse::Acknowledge,
            };
            if let Err(e) = target.respond(&ctx.http, deferred).await {
                tracing::warn!(interaction = %target.id, error = %describe(&e), "could not defer");
            }
            let reply = work.await;
            let progress = starts_progress(data, target, &reply);
            let sent = send_deferred(ctx, target, &reply).await;
            if let Some(key) = progress {
                data.progress.delivered(key, sent);
            }
            reply
        }
    };
    // Event received → answer sent (the thread, opened after, is not part
    // of the answer the user waits for).
    crate::metrics::observe_interaction(started);
    if let Some(thread) = &reply.open_thread {
        super::threads::open(ctx, data, target, actor, thread).await;
    }
}

/// A reply that the background will keep editing (`Reply::edits`) and
/// that becomes the command's own response: its key, registered so the
/// edits go to that response (see [`super::progress`]). A click's answer
/// is a follow-up, and a ping needs a new message, so those are left to
/// the scheduler to post.
fn starts_progress<'r>(data: &Data, target: &Target, reply: &'r Reply) -> Option<&'r str> {
    let key = reply.edits.as_deref()?;
    if target.kind != Kind::Command || reply.ephemeral || notifies(reply) {
        return None;
    }
    data.progress.expect(key, &target.token);
    Some(key)
}

/// Sends the interaction's one response; `false` if it failed.
async fn send_now(ctx: &serenity::Context, target: &Target, reply: &Reply) -> bool {
    let message = Message::from_reply_in(reply, target.capabilities(), target.lang).to_response();
    if let Err(e) = target
        .respond(&ctx.http, CreateInteractionResponse::Message(message))
        .await
    {
        report_send_failure(ctx, target, &e, reply, false).await;
        return false;
    }
    true
}

/// Completes a deferred answer; `false` if it failed.
async fn send_deferred(ctx: &serenity::Context, target: &Target, reply: &Reply) -> bool {
    let message = Message::from_reply_in(reply, target.capabilities(), target.lang);
    let result = match (target.kind, reply.ephemeral) {
        (Kind::Command, false) if notifies(reply) => {
            // Discord notifies nobody of mentions an edit adds, so an
            // answer that must ping someone (the player now to move) goes
            // out as a new message, and the placeholder is removed after.
            match target
                .follow_up(&ctx.http, message.clone().to_followup())
                .await
            {
                Ok(_) => {
                    if let Err(e) = ctx
                        .http
                        .delete_original_interaction_response(&target.token)
                        .await
                    {
                        tracing::warn!(interaction = %target.id, error = %describe(&e), "could not remove the placeholder");
                    }
                    Ok(())
                }
                // Better an answer without its ping than none.
                Err(e) => {
                    tracing::warn!(interaction = %target.id, error = %describe(&e), "could not post the answer as a new message; editing the placeholder");
                    message
                        .to_edit()
                        .execute(&ctx.http, &target.token)
                        .await
                        .map(drop)
                }
            }
        }
        (Kind::Command, false) => message
            .to_edit()
            .execute(&ctx.http, &target.token)
            .await
            .map(drop),
        (Kind::Command, true) => {
            // The public "thinking…" placeholder cannot become private.
            if let Err(e) = ctx
                .http
                .delete_original_interaction_response(&target.token)
                .await
            {
                tracing::warn!(interaction = %target.id, error = %describe(&e), "could not remove the placeholder");
            }
            target
                .follow_up(&ctx.http, message.to_followup())
                .await
                .map(drop)
        }
        (Kind::Component, _) => target
            .follow_up(&ctx.http, message.to_followup())
            .await
            .map(drop),
    };
    if let Err(e) = result {
        report_send_failure(ctx, target, &e, reply, true).await;
        return false;
    }
    true
}

/// Whether a public reply mentions a user Discord would notify.
fn notifies(reply: &Reply) -> bool {
    !reply.ephemeral
        && reply
            .mentions
            .iter()
            .any(|id| id.parse::<u64>().is_ok_and(|id| id != 0))
}

/// The answer could not be delivered: the action itself was committed
/// (replies come after the commit), so say what is missing if we can.
async fn report_send_failure(
    ctx: &serenity::Context,
    target: &Target,
    e: &serenity::Error,
    reply: &Reply,
    responded: bool,
) {
    tracing::error!(interaction = %target.id, channel = %target.channel_id, error = %describe(e), "could not deliver a reply");
    if !is_missing_permission(e) {
        return;
    }
    let permission = if reply.image.is_some() {
        "Attach Files"
    } else {
        "Embed Links"
    };
    let text = super::errors::missing_permission_text(
        target.lang,
        permission,
        &t!(target.lang, "discord-what-show-answer"),
    );
    if responded {
        target.tell(&ctx.http, &text).await;
    } else {
        target.refuse(&ctx.http, &text).await;
    }
}
