//! The service's scheduler in the Discord process: start-up recovery once
//! (time the bot was down is not charged), then a tick every second that
//! fires due deadlines and reminders. Each notice is posted in its game's
//! channel, or sent as a direct message to players who chose that.
//!
//! Ticking is safe in every process of a sharded deployment: the store
//! makes each deadline and reminder fire once (see `service::time`).
//!
//! Background work (the computer's moves, analyses) wakes the loop at once
//! rather than at the next tick. A notice that names a message to edit
//! (`Reply::edits`: an analysis's progress) edits that message (the
//! command's response, see [`super::progress`]), or posts one the first
//! time.

use std::{sync::Arc, time::Duration};

use poise::serenity_prelude as serenity;

use super::{
    progress::Progress,
    reply::{Capabilities, Message},
};
use crate::service::{Notice, Service};

/// How often due deadlines are looked for: a live flag falls at most this
/// late (the recorded time of the loss is the exact flag time regardless).
pub const TICK: Duration = Duration::from_secs(1);

/// Starts the scheduler; abort the handle to stop it.
pub fn spawn(
    http: Arc<serenity::Http>,
    service: Service,
    progress: Arc<Progress>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        for notice in service.startup().await {
            post(&http, &service, &notice, &progress).await;
        }
        let mut every = tokio::time::interval(TICK);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let notices = tokio::select! {
                _ = every.tick() => service.tick().await,
                () = service.notices_ready() => service.take_notices(),
            };
            for notice in latest_edits(notices) {
                post(&http, &service, &notice, &progress).await;
            }
        }
    })
}

/// Of several notices editing one message, only the last matters: the
/// others are dropped, so progress costs at most one edit per wake-up.
fn latest_edits(notices: Vec<Notice>) -> Vec<Notice> {
    let mut kept: Vec<Notice> = Vec::with_capacity(notices.len());
    for notice in notices {
        if let Some(key) = &notice.reply.edits {
            kept.retain(|n| n.reply.edits.as_ref() != Some(key) || n.channel != notice.channel);
        }
        kept.push(notice);
    }
    kept
}

async fn post(http: &serenity::Http, service: &Service, notice: &Notice, progress: &Progress) {
    let message = Message::from_reply(&notice.reply, Capabilities::ALL);
    if let (Some(key), None) = (&notice.reply.edits, &notice.dm_user) {
        let channel = notice
            .channel
            .as_deref()
            .and_then(|c| c.parse::<u64>().ok())
            .filter(|id| *id != 0)
            .map(serenity::ChannelId::new);
        progress.show(http, key, channel, message).await;
        return;
    }
    let reply = &notice.reply;
    // A tournament game's thread: opened in the channel, with no message
    // of its own when the notice carries nothing else.
    if let (Some(request), None, Some(channel)) = (
        &reply.open_thread,
        &notice.dm_user,
        notice
            .channel
            .as_deref()
            .and_then(|c| c.parse::<u64>().ok()),
    ) {
        if channel != 0 {
            let parent = serenity::ChannelId::new(channel);
            if (!reply.text.is_empty() || reply.card.is_some() || reply.image.is_some())
                && let Err(e) = super::retry::send_message(http, parent, message.to_message()).await
            {
                tracing::warn!(error = %super::errors::describe(&e), channel = ?notice.channel, "could not post a scheduler notice");
            }
            super::threads::open_for_notice(http, service, parent, request).await;
        }
        return;
    }
    let message = message.to_message();
    let sent = match (&notice.dm_user, &notice.channel) {
        (Some(user), _) => match user.parse::<u64>() {
            Ok(id) if id != 0 => match serenity::UserId::new(id).create_dm_channel(http).await {
                Ok(dm) => super::retry::send_message(http, dm.id, message)
                    .await
                    .map(|_| ()),
                Err(e) => Err(e),
            },
            _ => return,
        },
        (None, Some(channel)) => match channel.parse::<u64>() {
            Ok(id) if id != 0 => {
                super::retry::send_message(http, serenity::ChannelId::new(id), message)
                    .await
                    .map(|_| ())
            }
            _ => return,
        },
        (None, None) => return,
    };
    if let Err(e) = sent {
        tracing::warn!(error = %super::errors::describe(&e), channel = ?notice.channel, "could not post a scheduler notice");
    }
}
