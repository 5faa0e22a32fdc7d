//! What the fake remembers: every message, interaction callback, command
//! registration, thread and HTTP request the bot made, each stamped with an
//! `Instant`, plus the small amount of live state (channels, open gateway
//! sessions) the routes need to answer like Discord.
//!
//! All of it sits behind one `std::sync::Mutex` that is never held across an
//! `.await`; a `watch` channel carries a change counter so that waiters wake
//! on every new record without polling and without missing an update
//! (`watch` remembers the last version a receiver has seen).

use std::{
    collections::{BTreeMap, HashMap},
    fmt::Write as _,
    sync::Mutex,
    time::{Duration, Instant},
};

use serde_json::Value;
use tokio::sync::{mpsc, watch};

use super::model;

/// A file the bot uploaded (multipart `files[N]`), decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadedFile {
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// Where a recorded message came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageSource {
    /// `POST /channels/{id}/messages`.
    Channel,
    /// The original response of an interaction (callback type 4 or 5).
    InteractionResponse { interaction_id: u64 },
    /// `POST /webhooks/{app}/{token}`.
    Followup { interaction_id: u64 },
}

/// A message as Discord would store it, with the files that came with it.
#[derive(Clone, Debug)]
pub struct RecordedMessage {
    pub id: u64,
    pub channel_id: u64,
    /// The full message object the fake returns for it (also usable as the
    /// `message` of a component interaction).
    pub json: Value,
    pub files: Vec<UploadedFile>,
    pub source: MessageSource,
    pub created_at: Instant,
    /// Set by every edit (`PATCH`, callback type 7).
    pub edited_at: Option<Instant>,
    /// How many times it was edited.
    pub edits: u32,
    /// Its content when created and after each edit, oldest first.
    pub versions: Vec<String>,
    /// True while it is the placeholder of a deferred response (type 5) that
    /// has not been edited yet.
    pub deferred: bool,
    /// Users Discord notified when the message was created: its `<@id>`
    /// mentions that `allowed_mentions` lets through, none for an ephemeral
    /// message. An edit notifies nobody (mentions it adds only render), so
    /// this never changes after creation.
    pub notified: Vec<u64>,
}

impl RecordedMessage {
    pub fn content(&self) -> &str {
        self.json["content"].as_str().unwrap_or("")
    }
    pub fn embeds(&self) -> Vec<Value> {
        self.json["embeds"].as_array().cloned().unwrap_or_default()
    }
    pub fn components(&self) -> Vec<Value> {
        self.json["components"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }
    /// The `custom_id` of every button and select in the message.
    pub fn custom_ids(&self) -> Vec<String> {
        custom_ids(&self.json["components"])
    }
    pub fn flags(&self) -> u64 {
        self.json["flags"].as_u64().unwrap_or(0)
    }
    /// EPHEMERAL is flag bit 6 (`resources/message#message-object-message-flags`).
    pub fn flags_ephemeral(&self) -> bool {
        self.flags() & 64 != 0
    }
    /// The uploaded files as `(filename, bytes)`.
    pub fn attachments(&self) -> Vec<(String, Vec<u8>)> {
        self.files
            .iter()
            .map(|f| (f.filename.clone(), f.bytes.clone()))
            .collect()
    }
    /// Ids of the users the content mentions.
    pub fn mentions(&self) -> Vec<u64> {
        ids_of(&self.json["mentions"])
    }
}

/// One `POST /interactions/{id}/{token}/callback`.
#[derive(Clone, Debug)]
pub struct RecordedCallback {
    pub interaction_id: u64,
    pub token: String,
    /// Callback type (`interactions/receiving-and-responding#interaction-response-object-interaction-callback-type`):
    /// 4 message, 5 deferred message, 6 deferred update, 7 update message,
    /// 8 autocomplete result, 9 modal.
    pub kind: u64,
    /// The `data` of the callback (message payload, choices, modal).
    pub data: Value,
    pub files: Vec<UploadedFile>,
    /// When the INTERACTION_CREATE was handed to the gateway connection.
    pub sent_at: Instant,
    pub received_at: Instant,
    /// The HTTP status the fake answered (204, or 400/404 for a second
    /// callback or one after the 3-second deadline, as Discord does).
    pub status: u16,
    /// The message this callback created or edited (types 4, 5, 7).
    pub message: Option<RecordedMessage>,
}

impl RecordedCallback {
    pub fn content(&self) -> &str {
        self.data["content"].as_str().unwrap_or("")
    }
    pub fn embeds(&self) -> Vec<Value> {
        self.data["embeds"].as_array().cloned().unwrap_or_default()
    }
    pub fn components(&self) -> Vec<Value> {
        self.data["components"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }
    pub fn custom_ids(&self) -> Vec<String> {
        custom_ids(&self.data["components"])
    }
    pub fn flags_ephemeral(&self) -> bool {
        self.data["flags"].as_u64().unwrap_or(0) & 64 != 0
    }
    pub fn attachments(&self) -> Vec<(String, Vec<u8>)> {
        self.files
            .iter()
            .map(|f| (f.filename.clone(), f.bytes.clone()))
            .collect()
    }
    /// Autocomplete choices as `(name, value)`; values are rendered as
    /// strings whatever their JSON type.
    pub fn choices(&self) -> Vec<(String, String)> {
        self.data["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                let name = c["name"].as_str().unwrap_or("").to_owned();
                let value = match &c["value"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (name, value)
            })
            .collect()
    }
    /// Gateway send → callback received.
    pub fn latency(&self) -> Duration {
        self.received_at.saturating_duration_since(self.sent_at)
    }
    /// The message the callback produced, for clicking its buttons.
    pub fn message(&self) -> &RecordedMessage {
        self.message.as_ref().unwrap_or_else(|| {
            panic!(
                "callback type {} of interaction {} created no message",
                self.kind, self.interaction_id
            )
        })
    }
}

/// A command registration request (`PUT`/`POST` on the commands routes).
#[derive(Clone, Debug)]
pub struct RecordedRegistration {
    /// `None` for global commands.
    pub guild_id: Option<u64>,
    /// The commands as sent by the bot.
    pub commands: Vec<Value>,
    pub at: Instant,
}

/// One HTTP request, whatever the route.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub at: Instant,
}

/// One IDENTIFY received on the gateway.
#[derive(Clone, Debug)]
pub struct RecordedIdentify {
    pub intents: u64,
    pub shard: Option<Value>,
    pub session_id: String,
    pub at: Instant,
}

/// An interaction the fake sent.
#[derive(Clone, Debug)]
pub struct SentInteraction {
    pub id: u64,
    pub token: String,
    pub kind: u64,
    /// Command name (slash and autocomplete) or custom id (components).
    pub name: String,
    pub channel_id: u64,
    pub user_id: u64,
    pub sent_at: Instant,
    /// Id of the original response message, once there is one.
    pub original: Option<u64>,
    /// The message a component interaction was clicked on.
    pub component_message: Option<u64>,
    pub responded: bool,
}

/// A failure the fake answers instead of (or after) doing what a request
/// asks: Discord's 5xx during its incidents, a missing permission.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The HTTP method, case-insensitive.
    pub method: String,
    /// A substring of the path (`/callback`, `/channels/{id}/messages`).
    pub path_part: String,
    pub status: u16,
    pub body: Value,
    /// How many more matching requests fail.
    pub times: usize,
    /// The request takes effect first and the failure is answered after, as
    /// when Discord did the work but its answer was lost (a retry then
    /// finds it done: a second callback answers 40060).
    pub after_effect: bool,
}

/// What a gateway connection task receives from the harness.
#[derive(Debug)]
pub enum Outgoing {
    /// A dispatch (op 0) `t` + `d`; the connection adds the sequence number.
    Dispatch(String, Value),
    /// Close the WebSocket with this code (4000 = "unknown error, reconnect").
    Close(u16, String),
}

/// A connected gateway client.
#[derive(Debug)]
pub struct Session {
    pub conn_id: u64,
    pub tx: mpsc::UnboundedSender<Outgoing>,
    /// READY has been sent.
    pub ready: bool,
}

/// Everything the fake knows. Only touched through [`Shared::with`].
#[derive(Debug)]
pub struct World {
    pub started: Instant,
    pub base_url: String,
    pub next_id: u64,
    /// Guild channels and threads by id (channel objects).
    pub channels: BTreeMap<u64, Value>,
    pub messages: Vec<RecordedMessage>,
    pub callbacks: Vec<RecordedCallback>,
    pub interactions: HashMap<u64, SentInteraction>,
    pub registrations: Vec<RecordedRegistration>,
    /// Current command set, as Discord stores it (with ids), per scope.
    pub global_commands: Vec<Value>,
    pub guild_commands: BTreeMap<u64, Vec<Value>>,
    pub threads: Vec<u64>,
    pub requests: Vec<RecordedRequest>,
    pub unknown_routes: Vec<String>,
    pub identifies: Vec<RecordedIdentify>,
    pub sessions: Vec<Session>,
    /// When false, HTTP answers 401 and IDENTIFY is closed with 4004.
    pub token_valid: bool,
    /// Discord's limit on the first response to an interaction.
    pub interaction_deadline: Duration,
    /// Injected failures, matched against each request in order.
    pub failures: Vec<Failure>,
    /// Every message payload the bot sent (creations and edits), with the
    /// route it came by, for checks over all of them.
    pub payloads: Vec<(String, Value)>,
    /// Attachment bytes served by the fake CDN, by attachment id.
    pub cdn: HashMap<u64, UploadedFile>,
    /// OAuth2 (the Activity's sign-in): the codes handed out by
    /// [`FakeDiscord::oauth_code`] and the access tokens they became, each
    /// a user's id; a code works once, as on Discord.
    pub oauth_codes: HashMap<String, u64>,
    pub oauth_tokens: HashMap<String, u64>,
}

impl World {
    pub fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        model::snowflake(self.next_id)
    }

    pub fn message_mut(&mut self, id: u64) -> Option<&mut RecordedMessage> {
        self.messages.iter_mut().find(|m| m.id == id)
    }

    pub fn interaction_by_token(&self, token: &str) -> Option<&SentInteraction> {
        self.interactions.values().find(|i| i.token == token)
    }

    /// A short human summary of everything recorded, for timeout messages.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let t = |at: Instant| at.saturating_duration_since(self.started).as_millis();
        let _ = writeln!(s, "--- fake Discord recorded ---");
        let _ = writeln!(
            s,
            "gateway: {} identify(s), {} open session(s) ({} ready)",
            self.identifies.len(),
            self.sessions.len(),
            self.sessions.iter().filter(|x| x.ready).count()
        );
        for r in &self.registrations {
            let names: Vec<&str> = r
                .commands
                .iter()
                .filter_map(|c| c["name"].as_str())
                .collect();
            let _ = writeln!(
                s,
                "[{:>6} ms] registered {:?} in {:?}",
                t(r.at),
                names,
                r.guild_id
            );
        }
        let mut sent: Vec<&SentInteraction> = self.interactions.values().collect();
        sent.sort_by_key(|i| i.sent_at);
        for i in sent {
            let _ = writeln!(
                s,
                "[{:>6} ms] sent interaction {} type {} by {} in {} (responded: {})",
                t(i.sent_at),
                i.id,
                i.kind,
                i.user_id,
                i.channel_id,
                i.responded
            );
        }
        for c in &self.callbacks {
            let _ = writeln!(
                s,
                "[{:>6} ms] callback for {} type {} status {} data {} files {:?}",
                t(c.received_at),
                c.interaction_id,
                c.kind,
                c.status,
                truncate(&c.data.to_string(), 300),
                c.files.iter().map(|f| &f.filename).collect::<Vec<_>>()
            );
        }
        for m in &self.messages {
            let _ = writeln!(
                s,
                "[{:>6} ms] message {} in {} ({:?}, edits {}): {:?} embeds {} files {:?}",
                t(m.created_at),
                m.id,
                m.channel_id,
                m.source,
                m.edits,
                truncate(m.content(), 200),
                m.embeds().len(),
                m.files.iter().map(|f| &f.filename).collect::<Vec<_>>()
            );
        }
        for id in &self.threads {
            let name = self
                .channels
                .get(id)
                .and_then(|c| c["name"].as_str())
                .unwrap_or("?");
            let _ = writeln!(s, "thread {id} {name:?}");
        }
        let _ = writeln!(s, "{} HTTP request(s); last ones:", self.requests.len());
        for r in self.requests.iter().rev().take(15).rev() {
            let _ = writeln!(
                s,
                "[{:>6} ms] {} {} -> {}",
                t(r.at),
                r.method,
                r.path,
                r.status
            );
        }
        if !self.unknown_routes.is_empty() {
            let _ = writeln!(s, "UNKNOWN ROUTES: {:?}", self.unknown_routes);
        }
        s
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

/// The texts of a message payload that the adapter cut to a limit: as
/// long as the limit and ending in `…` (its cut mark).
pub fn cut_texts(payload: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |text: &Value, limit: usize| {
        if let Some(t) = text.as_str()
            && t.ends_with('…')
            && t.chars().count() == limit
        {
            out.push(truncate(t, 80));
        }
    };
    check(&payload["content"], 2000);
    for e in payload["embeds"].as_array().into_iter().flatten() {
        check(&e["title"], 256);
        check(&e["description"], 4096);
        check(&e["footer"]["text"], 2048);
        for f in e["fields"].as_array().into_iter().flatten() {
            check(&f["name"], 256);
            check(&f["value"], 1024);
        }
    }
    fn labels(components: &Value, out: &mut Vec<Value>) {
        for c in components.as_array().into_iter().flatten() {
            out.push(c["label"].clone());
            labels(&c["components"], out);
        }
    }
    let mut found = Vec::new();
    labels(&payload["components"], &mut found);
    for label in &found {
        check(label, 80);
    }
    out
}

fn custom_ids(components: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for row in components.as_array().into_iter().flatten() {
        if let Some(id) = row["custom_id"].as_str() {
            out.push(id.to_owned());
        }
        out.extend(custom_ids(&row["components"]));
    }
    out
}

fn ids_of(users: &Value) -> Vec<u64> {
    users
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u["id"].as_str()?.parse().ok())
        .collect()
}

/// The state shared by the HTTP routes, the gateway connections and the
/// test-facing [`super::FakeDiscord`].
#[derive(Debug)]
pub struct Shared {
    world: Mutex<World>,
    changed: watch::Sender<u64>,
}

impl Shared {
    pub fn new(world: World) -> Self {
        Shared {
            world: Mutex::new(world),
            changed: watch::channel(0).0,
        }
    }

    /// Runs `f` on the world and wakes every waiter.
    pub fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        // A panic while holding the lock poisons it; the data is still
        // consistent enough to report on, so keep going.
        let mut guard = self.world.lock().unwrap_or_else(|e| e.into_inner());
        let r = f(&mut guard);
        drop(guard);
        self.changed.send_modify(|v| *v += 1);
        r
    }

    /// Reads the world without waking waiters.
    pub fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        let guard = self.world.lock().unwrap_or_else(|e| e.into_inner());
        f(&guard)
    }

    /// Waits until `check` returns `Some`, re-checking on every change, or
    /// fails after `timeout` with `what` and a summary of the records.
    pub async fn wait_for<R>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&World) -> Option<R>,
    ) -> Result<R, String> {
        let mut rx = self.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            // Mark the current version as seen *before* checking, so a change
            // that lands between the check and the wait still wakes us.
            rx.borrow_and_update();
            if let Some(r) = self.read(&mut check) {
                return Ok(r);
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => {
                    return Err(format!(
                        "timed out after {timeout:?} waiting for {what}\n{}",
                        self.read(World::summary)
                    ))
                }
            }
        }
    }
}
