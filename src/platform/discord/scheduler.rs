//! The service's scheduler in the Discord process: start-up recovery once
//! (time the bot was down is not charged), then a tick every second that
//! fires due deadlines and reminders. Each notice is posted in its game's
//! channel, or sent as a direct message to players who chose that.
//!
//! Ticking is safe in every process of a sharded deployment: the store
//! makes each deadline and reminder fire once (see `service::time`).

use std::{sync::Arc, time::Duration};

use poise::serenity_prelude as serenity;

use super::reply::{Capabilities, Message};
use crate::service::{Notice, Service};

/// How often due deadlines are looked for: a live flag falls at most this
/// late (the recorded time of the loss is the exact flag time regardless).
pub const TICK: Duration = Duration::from_secs(1);

/// Starts the scheduler; abort the handle to stop it.
pub fn spawn(http: Arc<serenity::Http>, service: Service) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        for notice in service.startup().await {
            post(&http, &notice).await;
        }
        let mut every = tokio::time::interval(TICK);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            for notice in service.tick().await {
                post(&http, &notice).await;
            }
        }
    })
}

async fn post(http: &serenity::Http, notice: &Notice) {
    let message = Message::from_reply(&notice.reply, Capabilities::ALL).to_message();
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
