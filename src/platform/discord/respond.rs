//! Answering one interaction (a slash command or a button click) with the
//! service's reply, within Discord's 3-second limit.
//!
//! The service is given [`Data::defer_after`] to answer. Quick answers
//! (nearly all: a move is a few milliseconds) go out as the interaction's
//! one response, in a single request, public or private as the reply says.
//! Slower ones are deferred first: a command shows "thinking…" and is then
//! edited into the answer, buttons and all. That edit is the one message
//! the answer makes: on Discord the first follow-up after a deferral would
//! edit the placeholder too (so posting the answer as a follow-up and then
//! deleting the placeholder deletes the answer). Discord notifies nobody
//! of the mentions in an edit, so an answer that must ping someone is
//! followed by a short second message carrying the ping and a link to the
//! answer. If the answer turns out private, the public placeholder is
//! removed and a private follow-up sent, since a deferred response's
//! visibility cannot change. A click is acknowledged silently and answered
//! with a follow-up (after a click's acknowledgement follow-ups are new
//! messages). A reply that opens a thread continues in [`super::threads`].

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
    /// The server, for links to messages (`None` in direct messages).
    pub guild_id: Option<serenity::GuildId>,
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
            guild_id: i.guild_id,
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
            guild_id: i.guild_id,
            app_permissions: i.app_permissions,
            lang: Lang::from_locale(Some(i.locale.as_str())),
        }
    }
}

impl From<&serenity::ModalInteraction> for Target {
    /// A form sent from a button's modal: answered as the button would be.
    fn from(i: &serenity::ModalInteraction) -> Self {
        Target {
            id: i.id,
            token: i.token.clone(),
            kind: Kind::Component,
            channel_id: i.channel_id,
            guild_id: i.guild_id,
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
        super::retry::callback(|| response.clone().execute(http, (self.id, &self.token))).await
    }

    /// A follow-up message on the interaction's webhook.
    pub async fn follow_up(
        &self,
        http: &serenity::Http,
        message: CreateInteractionResponseFollowup,
    ) -> serenity::Result<serenity::Message> {
        super::retry::retried("follow-up", |_| {
            message.clone().execute(http, (None, &self.token))
        })
        .await
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
        (Kind::Command, false) => match edit_original(ctx, target, message.to_edit()).await {
            Ok(answer) => {
                if notifies(reply) {
                    ping(ctx, target, reply, &answer).await;
                }
                Ok(())
            }
            Err(e) => Err(e),
        },
        (Kind::Command, true) => {
            // The public "thinking…" placeholder cannot become private.
            if let Err(e) = super::retry::retried("removal of the placeholder", |_| {
                ctx.http.delete_original_interaction_response(&target.token)
            })
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

/// Edits the interaction's response (the deferred placeholder), retried.
async fn edit_original(
    ctx: &serenity::Context,
    target: &Target,
    edit: serenity::EditInteractionResponse,
) -> serenity::Result<serenity::Message> {
    super::retry::retried("edit of the answer", |_| {
        edit.clone().execute(&ctx.http, &target.token)
    })
    .await
}

/// Pings the users a deferred answer mentions: the answer is an edit of
/// the placeholder, which notifies nobody, so the ping is a new message
/// (a follow-up, which needs no permission in the channel) that links to
/// the answer. Better an answer without its ping than none: a failure
/// here is only logged.
async fn ping(ctx: &serenity::Context, target: &Target, reply: &Reply, answer: &serenity::Message) {
    let users = super::reply::mentioned_users(reply);
    let mentions: Vec<String> = users.iter().map(|u| format!("<@{u}>")).collect();
    let place = target
        .guild_id
        .map_or_else(|| "@me".to_owned(), |g| g.to_string());
    let link = format!(
        "https://discord.com/channels/{place}/{}/{}",
        answer.channel_id, answer.id
    );
    let text = t!(
        target.lang,
        "discord-ping",
        mentions = mentions.join(" "),
        link = link
    );
    let note = CreateInteractionResponseFollowup::new()
        .content(text)
        .allowed_mentions(
            serenity::CreateAllowedMentions::new()
                .users(users)
                .replied_user(false),
        );
    if let Err(e) = target.follow_up(&ctx.http, note).await {
        tracing::warn!(interaction = %target.id, error = %describe(&e), "could not ping the players a deferred answer mentions");
    }
}

/// Whether a public reply mentions a user Discord would notify.
fn notifies(reply: &Reply) -> bool {
    !super::reply::mentioned_users(reply).is_empty()
}

/// Discord kept failing on the interaction (5xx or no answer, retries
/// spent), so it may never be answered: a public reply (a board after a
/// move, a challenge) goes to the channel as a message of its own, so that
/// the opponent, mentioned there, still hears of it. A private reply has
/// nowhere else to go.
async fn post_in_channel(ctx: &serenity::Context, target: &Target, reply: &Reply) {
    if reply.ephemeral {
        return;
    }
    let message = Message::from_reply_in(reply, target.capabilities(), target.lang).to_message();
    match super::retry::send_message(&ctx.http, target.channel_id, message).await {
        Ok(_) => {
            tracing::info!(interaction = %target.id, channel = %target.channel_id, "the reply went to the channel instead")
        }
        Err(e) => {
            tracing::error!(interaction = %target.id, channel = %target.channel_id, error = %describe(&e), "could not post the reply in the channel either")
        }
    }
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
    if super::retry::is_transient(e) || super::retry::is_timed_out(e) {
        post_in_channel(ctx, target, reply).await;
        return;
    }
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
