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
//! (`Reply::edits`: an analysis's progress) edits the message this process
//! posted for it, or posts one the first time.

use std::{collections::HashMap, sync::Arc, time::Duration};

use poise::serenity_prelude as serenity;

use super::reply::{Capabilities, Message};
use crate::service::{Notice, Service};

/// How often due deadlines are looked for: a live flag falls at most this
/// late (the recorded time of the loss is the exact flag time regardless).
pub const TICK: Duration = Duration::from_secs(1);

/// Starts the scheduler; abort the handle to stop it.
pub fn spawn(http: Arc<serenity::Http>, service: Service) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut edited = Edited::default();
        for notice in service.startup().await {
            post(&http, &notice, &mut edited).await;
        }
        let mut every = tokio::time::interval(TICK);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let notices = tokio::select! {
                _ = every.tick() => service.tick().await,
                () = service.notices_ready() => service.take_notices(),
            };
            for notice in latest_edits(notices) {
                post(&http, &notice, &mut edited).await;
            }
        }
    })
}

/// The messages this process keeps editing, by key (a finished
/// analysis's key stays: a later edit would find its message).
type Edited = HashMap<String, (serenity::ChannelId, serenity::MessageId)>;

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

async fn post(http: &serenity::Http, notice: &Notice, edited: &mut Edited) {
    let message = Message::from_reply(&notice.reply, Capabilities::ALL);
    if let (Some(key), None) = (&notice.reply.edits, &notice.dm_user) {
        if let Some((channel, id)) = edited.get(key).copied() {
            match channel
                .edit_message(http, id, message.clone().to_message_edit())
                .await
            {
                Ok(_) => return,
                Err(e) => {
                    tracing::warn!(error = %super::errors::describe(&e), "could not edit a progress message; posting a new one");
                }
            }
        }
        let Some(channel) = notice
            .channel
            .as_deref()
            .and_then(|c| c.parse::<u64>().ok())
            .filter(|id| *id != 0)
            .map(serenity::ChannelId::new)
        else {
            return;
        };
        match channel.send_message(http, message.to_message()).await {
            Ok(sent) => {
                if edited.len() >= 1000 {
                    edited.clear();
                }
                edited.insert(key.clone(), (channel, sent.id));
            }
            Err(e) => {
                tracing::warn!(error = %super::errors::describe(&e), channel = ?notice.channel, "could not post a progress message");
            }
        }
        return;
    }
    let message = message.to_message();
    let sent = match (&notice.dm_user, &notice.channel) {
        (Some(user), _) => match user.parse::<u64>() {
            Ok(id) if id != 0 => match serenity::UserId::new(id).create_dm_channel(http).await {
                Ok(dm) => dm.send_message(http, message).await.map(|_| ()),
                Err(e) => Err(e),
            },
            _ => return,
        },
        (None, Some(channel)) => match channel.parse::<u64>() {
            Ok(id) if id != 0 => serenity::ChannelId::new(id)
                .send_message(http, message)
                .await
                .map(|_| ()),
            _ => return,
        },
        (None, None) => return,
    };
    if let Err(e) = sent {
        tracing::warn!(error = %super::errors::describe(&e), channel = ?notice.channel, "could not post a scheduler notice");
    }
}
