//! Messages the bot keeps editing: an analysis answers `/analyze` with its
//! progress ("Analysing game #12: move 20 of 61…") and later notices carry
//! the same key (`Reply::edits`) to edit that one message into the next
//! step and, at the end, into the result with its chart.
//!
//! The first message is the command's own response, so the progress shows
//! where the user asked. It is edited through the interaction's token
//! (`PATCH /webhooks/{app}/{token}/messages/@original`) while the token is
//! valid (Discord allows 15 minutes), which needs no permission in the
//! channel; after that through the channel (the message's id is learnt
//! from the first edit). A notice whose key no response started (a job
//! resumed after a restart) posts a message in the channel, and later
//! notices edit that one.
//!
//! The background work can finish before the response is delivered (a
//! very short game), so an edit waits, briefly, for a response that is
//! on its way.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use poise::serenity_prelude as serenity;
use serenity::Builder;

use super::{errors::describe, reply::Message};

/// How long an interaction token may be used to edit its response: Discord
/// allows 15 minutes; the margin covers a slow request.
const TOKEN_LIFETIME: Duration = Duration::from_secs(14 * 60);
/// How long an edit waits for the response it edits to be delivered.
const WAIT_FOR_RESPONSE: Duration = Duration::from_secs(5);
/// Keys remembered at most (a finished analysis's key stays, so that a
/// late edit still finds its message; the oldest go first).
const MAX_KEYS: usize = 1000;

/// The messages being edited, by key (shared by the command handlers and
/// the scheduler of one process).
#[derive(Default)]
pub struct Progress {
    entries: Mutex<HashMap<String, Entry>>,
}

#[derive(Clone, Debug)]
struct Entry {
    /// The interaction whose response shows the progress, and when it
    /// arrived.
    token: Option<(String, Instant)>,
    /// The message, once known.
    message: Option<(serenity::ChannelId, serenity::MessageId)>,
    /// The response is being sent: edits wait for it.
    pending: bool,
    since: Instant,
}

impl Progress {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn insert(&self, key: &str, entry: Entry) {
        let mut entries = self.lock();
        if entries.len() >= MAX_KEYS
            && !entries.contains_key(key)
            && let Some(oldest) = entries
                .iter()
                .min_by_key(|(_, e)| e.since)
                .map(|(k, _)| k.clone())
        {
            entries.remove(&oldest);
        }
        entries.insert(key.to_owned(), entry);
    }

    /// A command's response, about to be sent, starts the message `key`.
    pub fn expect(&self, key: &str, token: &str) {
        let now = Instant::now();
        self.insert(
            key,
            Entry {
                token: Some((token.to_owned(), now)),
                message: None,
                pending: true,
                since: now,
            },
        );
    }

    /// The response of [`Self::expect`] was delivered (`true`) or not.
    pub fn delivered(&self, key: &str, ok: bool) {
        let mut entries = self.lock();
        if ok {
            if let Some(entry) = entries.get_mut(key) {
                entry.pending = false;
            }
        } else {
            entries.remove(key);
        }
    }

    /// The entry of `key` once no response is on its way (`None`: none).
    async fn settled(&self, key: &str) -> Option<Entry> {
        let started = Instant::now();
        loop {
            match self.lock().get(key) {
                Some(entry) if entry.pending && started.elapsed() < WAIT_FOR_RESPONSE => {}
                other => return other.cloned(),
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Shows `message` as the message `key`: an edit of it if there is
    /// one, else a new message in `channel`.
    pub async fn show(
        &self,
        http: &serenity::Http,
        key: &str,
        channel: Option<serenity::ChannelId>,
        message: Message,
    ) {
        let entry = self.settled(key).await;
        if let Some(entry) = &entry {
            if let Some((token, at)) = &entry.token
                && at.elapsed() < TOKEN_LIFETIME
            {
                match message.clone().to_edit().execute(http, token).await {
                    Ok(sent) => {
                        self.learn(key, sent.channel_id, sent.id);
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(error = %describe(&e), "could not edit a progress response; trying the channel");
                    }
                }
            }
            if let Some((channel, id)) = entry.message {
                match channel
                    .edit_message(http, id, message.clone().to_message_edit())
                    .await
                {
                    Ok(_) => return,
                    Err(e) => {
                        tracing::warn!(error = %describe(&e), "could not edit a progress message; posting a new one");
                    }
                }
            }
        }
        let Some(channel) = channel else {
            return;
        };
        match super::retry::send_message(http, channel, message.to_message()).await {
            Ok(sent) => self.insert(
                key,
                Entry {
                    token: None,
                    message: Some((channel, sent.id)),
                    pending: false,
                    since: Instant::now(),
                },
            ),
            Err(e) => {
                tracing::warn!(error = %describe(&e), %channel, "could not post a progress message");
            }
        }
    }

    /// The message `key` is `id` in `channel` (learnt from an edit).
    fn learn(&self, key: &str, channel: serenity::ChannelId, id: serenity::MessageId) {
        if let Some(entry) = self.lock().get_mut(key) {
            entry.message = Some((channel, id));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_edit_waits_for_the_response_it_edits() {
        let progress = std::sync::Arc::new(Progress::default());
        progress.expect("analysis:1", "token");
        let waiting = {
            let progress = progress.clone();
            tokio::spawn(async move { progress.settled("analysis:1").await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        progress.delivered("analysis:1", true);
        let entry = waiting.await.expect("task").expect("an entry");
        assert!(!entry.pending);
        assert_eq!(entry.token.map(|(t, _)| t).as_deref(), Some("token"));
        // A response that was not delivered leaves nothing to edit.
        progress.expect("analysis:2", "other");
        progress.delivered("analysis:2", false);
        assert!(progress.settled("analysis:2").await.is_none());
    }

    #[test]
    fn old_keys_make_room() {
        let progress = Progress::default();
        for i in 0..MAX_KEYS + 5 {
            progress.expect(&format!("k{i}"), "t");
        }
        assert_eq!(progress.lock().len(), MAX_KEYS);
        assert!(progress.lock().contains_key(&format!("k{}", MAX_KEYS + 4)));
    }
}
