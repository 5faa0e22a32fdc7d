//! A fake Discord that runs inside the test process on 127.0.0.1, so the
//! **real** serenity/poise client can be driven end to end without the
//! internet.
//!
//! One port serves both halves of Discord's API:
//! - the REST API under `/api/v10` ([`http`]), reached by serenity through
//!   `HttpBuilder::proxy` (which only takes effect with the rate limiter
//!   disabled: [`FakeDiscord::http`] does both);
//! - the WebSocket gateway on `/` ([`gateway`]), whose URL the client learns
//!   from `GET /api/v10/gateway`.
//!
//! The world is fixed and small ([`model`]): one guild ([`GUILD_ID`]) with
//! text channels `#chess` ([`CHESS_CHANNEL`]) and `#general`, members
//! [`ALICE`] (owner, Manage Server), [`BOB`] and [`CAROL`], and the bot user
//! whose id is the application id [`APP_ID`].
//!
//! Tests play the users: [`FakeDiscord::send_slash`],
//! [`FakeDiscord::send_autocomplete`] and [`FakeDiscord::click_button`] push
//! INTERACTION_CREATE dispatches with a fresh id and token, and the
//! `wait_*` methods return what the bot answered ([`recorder`]). Every wait
//! is bounded and panics with a summary of everything recorded, so a test
//! that goes wrong says what *did* happen.
//!
//! ```ignore
//! let fake = FakeDiscord::start().await;
//! let client = ClientHandle::spawn(fake.client_builder(intents).framework(framework).await?);
//! fake.wait_commands(Duration::from_secs(10)).await;
//! let i = fake.send_slash(&ALICE, CHESS_CHANNEL, "ping", json!([])).await;
//! let cb = fake.wait_callback(&i, Duration::from_secs(5)).await;
//! assert_eq!(cb.content(), "pong");
//! client.stop().await;
//! ```

pub mod gateway;
mod http;
pub mod model;
mod multipart;
pub mod recorder;

use std::{
    collections::{BTreeMap, HashMap},
    net::SocketAddr,
    sync::Arc,
    time::{Duration, Instant},
};

use serde_json::{json, Value};
use serenity::all::{Client, ClientBuilder, GatewayIntents, Http, HttpBuilder, ShardManager};
use tokio::task::JoinHandle;

use self::recorder::{Failure, Outgoing, SentInteraction, Shared, World};
pub use self::{
    model::{
        opt_attachment, opt_bool, opt_channel, opt_focused, opt_int, opt_str, opt_sub, opt_user,
        TestUser, ALICE, APP_ID, BOB, CAROL, CHESS_CHANNEL, GENERAL_CHANNEL, GUILD_ID, MEMBERS,
        TOKEN,
    },
    recorder::{
        MessageSource, RecordedCallback, RecordedIdentify, RecordedMessage, RecordedRegistration,
        RecordedRequest, UploadedFile,
    },
};

/// Used by the helpers that do not take a timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// Discord's limit for the initial response to an interaction.
pub const INTERACTION_DEADLINE: Duration = Duration::from_secs(3);

/// An interaction the fake sent: its id and its token (the token names the
/// interaction's webhook for follow-ups and `@original`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InteractionId {
    pub id: u64,
    pub token: String,
}

/// A thread the bot created.
#[derive(Clone, Debug)]
pub struct RecordedThread {
    pub id: u64,
    pub parent_id: u64,
    pub name: String,
    /// 11 public, 12 private.
    pub kind: u64,
    /// The channel object as stored.
    pub json: Value,
}

/// The running fake. Dropping it stops the server.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    addr: SocketAddr,
    server: JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeDiscord {
    /// Binds 127.0.0.1:0 and serves HTTP + gateway until dropped.
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("fake discord: cannot bind 127.0.0.1:0");
        let addr = listener
            .local_addr()
            .expect("fake discord: bound socket has an address");
        let mut channels = BTreeMap::new();
        channels.insert(
            CHESS_CHANNEL,
            model::text_channel(CHESS_CHANNEL, "chess", 0),
        );
        channels.insert(
            GENERAL_CHANNEL,
            model::text_channel(GENERAL_CHANNEL, "general", 1),
        );
        let shared = Arc::new(Shared::new(World {
            started: Instant::now(),
            base_url: format!("http://{addr}"),
            next_id: 0,
            channels,
            messages: Vec::new(),
            callbacks: Vec::new(),
            interactions: HashMap::new(),
            registrations: Vec::new(),
            global_commands: Vec::new(),
            guild_commands: BTreeMap::new(),
            threads: Vec::new(),
            requests: Vec::new(),
            unknown_routes: Vec::new(),
            identifies: Vec::new(),
            sessions: Vec::new(),
            token_valid: true,
            interaction_deadline: INTERACTION_DEADLINE,
            failures: Vec::new(),
            payloads: Vec::new(),
            cdn: HashMap::new(),
            oauth_codes: HashMap::new(),
            oauth_tokens: HashMap::new(),
        }));
        let app = http::router(Arc::clone(&shared));
        let server = tokio::spawn(serve(listener, app));
        FakeDiscord {
            shared,
            addr,
            server,
        }
    }

    /// `http://127.0.0.1:PORT`, for `HttpBuilder::proxy`.
    pub fn http_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `ws://127.0.0.1:PORT`, what `GET /gateway` returns.
    pub fn ws_url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// A serenity `Http` that talks to this fake. The rate limiter must be
    /// off: serenity's rate limiter builds its own URLs and ignores `proxy`.
    pub fn http(&self) -> Http {
        HttpBuilder::new(TOKEN)
            .proxy(self.http_url())
            .ratelimiter_disabled(true)
            .application_id(APP_ID.into())
            .build()
    }

    /// A serenity `ClientBuilder` wired to this fake (add a framework and
    /// event handler, then `.await` it).
    pub fn client_builder(&self, intents: GatewayIntents) -> ClientBuilder {
        ClientBuilder::new_with_http(self.http(), intents)
    }

    // ---- the world -------------------------------------------------------

    /// Adds a guild text channel and returns its id. Must be called before
    /// the client identifies for it to appear in GUILD_CREATE; later, it is
    /// dispatched as CHANNEL_CREATE.
    pub fn add_text_channel(&self, name: &str) -> u64 {
        self.shared.with(|w| {
            let id = w.new_id();
            let channel = model::text_channel(id, name, w.channels.len() as u16);
            w.channels.insert(id, channel.clone());
            http::dispatch(w, "CHANNEL_CREATE", channel);
            id
        })
    }

    /// The channel object the fake holds for `id` (text channel or thread).
    /// A file a user attaches to a command: stored on the fake CDN, and
    /// returned as the attachment object for [`opt_attachment`].
    pub fn upload(&self, filename: &str, bytes: &[u8]) -> Value {
        self.shared.with(|w| {
            let id = w.new_id();
            let file = recorder::UploadedFile {
                filename: filename.to_owned(),
                content_type: Some("application/vnd.chess-pgn".to_owned()),
                bytes: bytes.to_vec(),
            };
            w.cdn.insert(id, file);
            model::attachment(
                id,
                filename,
                "application/vnd.chess-pgn",
                bytes.len(),
                &w.base_url,
            )
        })
    }

    pub fn channel(&self, id: u64) -> Option<Value> {
        self.shared.read(|w| w.channels.get(&id).cloned())
    }

    /// Pushes any gateway dispatch to the client (for events the harness
    /// has no helper for). Returns false when no session is ready.
    pub fn dispatch(&self, event: &str, data: Value) -> bool {
        self.shared.read(|w| http::dispatch(w, event, data))
    }

    // ---- failure injection ----------------------------------------------

    /// Makes the token invalid (HTTP 401, gateway close 4004) or valid again.
    pub fn set_token_valid(&self, valid: bool) {
        self.shared.with(|w| w.token_valid = valid);
    }

    /// Changes the 3-second interaction deadline (e.g. to test deferral).
    pub fn set_interaction_deadline(&self, deadline: Duration) {
        self.shared.with(|w| w.interaction_deadline = deadline);
    }

    /// An OAuth2 authorization code for `user`, as Discord's client hands
    /// one to an Activity after `authorize` (valid once).
    pub fn oauth_code(&self, user: &TestUser) -> String {
        self.shared.with(|w| {
            let code = format!("code-{}-{}", user.id, w.new_id());
            w.oauth_codes.insert(code.clone(), user.id);
            code
        })
    }

    /// The next request with this method whose path contains `path_part`
    /// gets `status` and `body` instead of its normal answer, once. For
    /// example a missing permission:
    /// `fail_next("POST", "/threads", 403, json!({"message": "Missing Permissions", "code": 50013}))`.
    pub fn fail_next(&self, method: &str, path_part: &str, status: u16, body: Value) {
        self.inject(Failure {
            method: method.to_owned(),
            path_part: path_part.to_owned(),
            status,
            body,
            times: 1,
            after_effect: false,
        });
    }

    /// The next `times` matching requests get a 500 Internal Server Error,
    /// as during Discord's incidents. With `after_effect` each request is
    /// carried out first and only its answer is the 500 (Discord did the
    /// work; a retried interaction callback then answers 40060).
    pub fn fail_times(&self, method: &str, path_part: &str, times: usize, after_effect: bool) {
        if times == 0 {
            return;
        }
        self.inject(Failure {
            method: method.to_owned(),
            path_part: path_part.to_owned(),
            status: 500,
            body: json!({"message": "500: Internal Server Error", "code": 0}),
            times,
            after_effect,
        });
    }

    fn inject(&self, failure: Failure) {
        self.shared.with(|w| w.failures.push(failure));
    }

    /// Closes every gateway connection with 4000 ("unknown error, reconnect"),
    /// as Discord does now and then. serenity then tries to RESUME, is told
    /// the session is invalid, and identifies again.
    pub fn drop_gateway(&self) {
        self.shared.read(|w| {
            for s in &w.sessions {
                let _ = s.tx.send(Outgoing::Close(4000, "fake: reconnect".into()));
            }
        });
    }

    // ---- gateway state --------------------------------------------------

    /// Waits until some connection has received READY + GUILD_CREATE.
    pub async fn wait_ready(&self, timeout: Duration) {
        self.wait("a READY gateway session", timeout, |w| {
            w.sessions
                .iter()
                .any(|s| s.ready && !s.tx.is_closed())
                .then_some(())
        })
        .await
    }

    /// Waits until `n` IDENTIFYs have been received in total and one of the
    /// sessions is ready (for "the second client is up").
    pub async fn wait_identified(&self, n: usize, timeout: Duration) -> RecordedIdentify {
        self.wait(
            &format!("{n} IDENTIFY(s) and a ready session"),
            timeout,
            |w| {
                let ready = w.sessions.iter().any(|s| s.ready && !s.tx.is_closed());
                (w.identifies.len() >= n && ready).then(|| w.identifies[n - 1].clone())
            },
        )
        .await
    }

    /// Waits until no gateway connection is open (after stopping a client).
    pub async fn wait_disconnected(&self, timeout: Duration) {
        self.wait("all gateway connections to close", timeout, |w| {
            w.sessions.is_empty().then_some(())
        })
        .await
    }

    /// All IDENTIFYs received so far.
    pub fn identifies(&self) -> Vec<RecordedIdentify> {
        self.shared.read(|w| w.identifies.clone())
    }

    // ---- driving interactions -------------------------------------------

    /// `user` runs `/name` in `channel`. `options` is the JSON array Discord
    /// would send (build it with [`opt_str`], [`opt_user`], ...); USER
    /// options get their `resolved` users and members filled in.
    pub async fn send_slash(
        &self,
        user: &TestUser,
        channel: u64,
        name: &str,
        options: Value,
    ) -> InteractionId {
        self.send_command(2, user, channel, name, options, "en-US")
            .await
    }

    /// [`Self::send_slash`] from a client set to `locale` (`zh-CN`): the
    /// interaction's `locale` is the user's language.
    pub async fn send_slash_in_locale(
        &self,
        user: &TestUser,
        channel: u64,
        name: &str,
        options: Value,
        locale: &str,
    ) -> InteractionId {
        self.send_command(2, user, channel, name, options, locale)
            .await
    }

    /// `user` runs `/name` (no options) in their direct messages with the
    /// bot: no `guild_id`, a `user` instead of a `member`, a DM channel
    /// (`interactions/receiving-and-responding#interaction-object`).
    pub async fn send_dm_slash(&self, user: &TestUser, name: &str) -> InteractionId {
        self.wait_ready(DEFAULT_TIMEOUT).await;
        let result = self.shared.with(|w| {
            let id = w.new_id();
            let dm_channel = w.new_id();
            let token = format!("fake-interaction-token-{id}");
            let command_id = w
                .global_commands
                .iter()
                .chain(w.guild_commands.values().flatten())
                .find(|c| c["name"] == json!(name))
                .and_then(|c| c["id"].as_str()?.parse().ok())
                .unwrap_or(id);
            let mut data = model::command_data(command_id, name, &json!([]));
            if let Some(d) = data.as_object_mut() {
                d.remove("guild_id");
            }
            let payload = json!({
                "id": id.to_string(),
                "application_id": model::APP_ID.to_string(),
                "type": 2,
                "channel_id": dm_channel.to_string(),
                "channel": {"id": dm_channel.to_string(), "type": 1},
                "user": model::user(user.id, user.name, false),
                "token": token,
                "version": 1,
                "app_permissions": model::BOT_PERMISSIONS.to_string(),
                "locale": "en-US",
                "entitlements": [],
                "authorizing_integration_owners": {"1": user.id.to_string()},
                "context": 1,
                "attachment_size_limit": model::ATTACHMENT_SIZE_LIMIT,
                "data": data,
            });
            w.interactions.insert(
                id,
                SentInteraction {
                    id,
                    token: token.clone(),
                    kind: 2,
                    name: name.to_owned(),
                    channel_id: dm_channel,
                    user_id: user.id,
                    sent_at: Instant::now(),
                    original: None,
                    component_message: None,
                    responded: false,
                },
            );
            if http::dispatch(w, "INTERACTION_CREATE", payload) {
                Ok(InteractionId { id, token })
            } else {
                Err("no gateway session to send it on".to_owned())
            }
        });
        result.unwrap_or_else(|e| panic!("cannot send interaction: {e}\n{}", self.summary()))
    }

    /// `user` types into an option of `/name`: `options` must contain one
    /// option with `focused: true` ([`opt_focused`]).
    pub async fn send_autocomplete(
        &self,
        user: &TestUser,
        channel: u64,
        name: &str,
        options: Value,
    ) -> InteractionId {
        assert!(
            options.to_string().contains("\"focused\":true"),
            "send_autocomplete: no option has focused: true in {options}"
        );
        self.send_command(4, user, channel, name, options, "en-US")
            .await
    }

    async fn send_command(
        &self,
        kind: u64,
        user: &TestUser,
        channel: u64,
        name: &str,
        options: Value,
        locale: &str,
    ) -> InteractionId {
        let name = name.to_owned();
        let locale = locale.to_owned();
        self.send_interaction(kind, user, channel, name.clone(), None, move |w| {
            let command_id = w
                .guild_commands
                .values()
                .flatten()
                .chain(w.global_commands.iter())
                .find(|c| c["name"] == json!(name))
                .and_then(|c| c["id"].as_str()?.parse().ok());
            let command_id = command_id.unwrap_or_else(|| {
                eprintln!("fake discord: /{name} was never registered; sending it anyway");
                w.new_id()
            });
            (model::command_data(command_id, &name, &options), locale)
        })
        .await
    }

    /// `user` clicks the button `custom_id` on `message`. Panics if the
    /// message has no such button or it is disabled: a real user could not
    /// click it. The interaction carries the message as the fake currently
    /// stores it (Discord sends the full message object, which serenity
    /// requires).
    pub async fn click_button(
        &self,
        user: &TestUser,
        channel: u64,
        message: &RecordedMessage,
        custom_id: &str,
    ) -> InteractionId {
        self.send_component(
            user,
            channel,
            message,
            custom_id,
            model::button_data(custom_id),
        )
        .await
    }

    /// `user` picks `values` in the select menu `custom_id` on `message`.
    pub async fn select(
        &self,
        user: &TestUser,
        channel: u64,
        message: &RecordedMessage,
        custom_id: &str,
        values: &[&str],
    ) -> InteractionId {
        self.send_component(
            user,
            channel,
            message,
            custom_id,
            model::select_data(custom_id, values),
        )
        .await
    }

    /// `user` submits the form (modal) `custom_id` with `fields` (each an
    /// input's custom id and the text typed), as Discord sends it after a
    /// button's `MODAL` callback.
    pub async fn submit_form(
        &self,
        user: &TestUser,
        channel: u64,
        custom_id: &str,
        fields: &[(&str, &str)],
    ) -> InteractionId {
        let rows: Vec<Value> = fields
            .iter()
            .map(|(id, value)| {
                json!({"type": 1, "components": [
                    {"type": 4, "custom_id": id, "value": value}
                ]})
            })
            .collect();
        let data = json!({"custom_id": custom_id, "components": rows});
        self.send_interaction(5, user, channel, custom_id.to_owned(), None, move |_| {
            (data, "en-US".to_owned())
        })
        .await
    }

    async fn send_component(
        &self,
        user: &TestUser,
        channel: u64,
        message: &RecordedMessage,
        custom_id: &str,
        data: Value,
    ) -> InteractionId {
        let current = self.message(message.id).unwrap_or_else(|| message.clone());
        let component =
            find_component(&current.json["components"], custom_id).unwrap_or_else(|| {
                panic!(
                    "click on {custom_id:?}: message {} has only {:?}",
                    current.id,
                    current.custom_ids()
                )
            });
        assert!(
            component["disabled"].as_bool() != Some(true),
            "click on {custom_id:?}: the component is disabled"
        );
        // `send_interaction` copies the message into the payload from the
        // world, so the click sees the message as last edited.
        self.send_interaction(
            3,
            user,
            channel,
            custom_id.to_owned(),
            Some(current.id),
            move |_| (data, "en-US".to_owned()),
        )
        .await
    }

    async fn send_interaction(
        &self,
        kind: u64,
        user: &TestUser,
        channel: u64,
        name: String,
        component_message: Option<u64>,
        data: impl FnOnce(&mut World) -> (Value, String),
    ) -> InteractionId {
        self.wait_ready(DEFAULT_TIMEOUT).await;
        let result = self.shared.with(|w| {
            let channel_json = w
                .channels
                .get(&channel)
                .cloned()
                .ok_or_else(|| format!("unknown channel {channel}"))?;
            let id = w.new_id();
            let token = format!("fake-interaction-token-{id}");
            let mut payload = model::interaction_base(kind, id, &token, user, &channel_json);
            let (data, locale) = data(w);
            payload["data"] = data;
            payload["locale"] = json!(locale);
            if let Some(mid) = component_message {
                let m = w
                    .message_mut(mid)
                    .ok_or_else(|| format!("unknown message {mid}"))?;
                payload["message"] = m.json.clone();
            }
            // Record before dispatching, so that a fast callback always
            // finds its interaction.
            w.interactions.insert(
                id,
                SentInteraction {
                    id,
                    token: token.clone(),
                    kind,
                    name,
                    channel_id: channel,
                    user_id: user.id,
                    sent_at: Instant::now(),
                    original: None,
                    component_message,
                    responded: false,
                },
            );
            if http::dispatch(w, "INTERACTION_CREATE", payload) {
                Ok(InteractionId { id, token })
            } else {
                Err("no gateway session to send it on".to_owned())
            }
        });
        result.unwrap_or_else(|e| panic!("cannot send interaction: {e}\n{}", self.summary()))
    }

    // ---- waiting for answers --------------------------------------------

    /// The first *accepted* (2xx) callback for the interaction. Rejected
    /// callbacks (a second response, a late one, an invalid body) are listed
    /// in the panic message if no accepted one arrives in time.
    pub async fn wait_callback(&self, id: &InteractionId, timeout: Duration) -> RecordedCallback {
        self.wait(
            &format!("a callback for interaction {}", id.id),
            timeout,
            |w| {
                w.callbacks
                    .iter()
                    .find(|c| c.interaction_id == id.id && c.status < 300)
                    .cloned()
            },
        )
        .await
    }

    /// Every callback the bot made for the interaction, accepted or not.
    pub fn callbacks_for(&self, id: &InteractionId) -> Vec<RecordedCallback> {
        self.shared.read(|w| {
            w.callbacks
                .iter()
                .filter(|c| c.interaction_id == id.id)
                .cloned()
                .collect()
        })
    }

    /// The interaction's original response once it is final: created by a
    /// type-4 callback, or a deferred one (type 5) after its `PATCH @original`.
    pub async fn wait_original(&self, id: &InteractionId, timeout: Duration) -> RecordedMessage {
        self.wait(
            &format!("the final original response of interaction {}", id.id),
            timeout,
            |w| {
                let mid = w.interactions.get(&id.id)?.original?;
                w.messages
                    .iter()
                    .find(|m| m.id == mid && !m.deferred)
                    .cloned()
            },
        )
        .await
    }

    /// Waits until the interaction has at least `n` follow-up messages and
    /// returns them all, oldest first.
    pub async fn wait_followups(
        &self,
        id: &InteractionId,
        n: usize,
        timeout: Duration,
    ) -> Vec<RecordedMessage> {
        self.wait(
            &format!("{n} follow-up(s) for interaction {}", id.id),
            timeout,
            |w| {
                let list: Vec<RecordedMessage> = w
                    .messages
                    .iter()
                    .filter(|m| {
                        m.source
                            == MessageSource::Followup {
                                interaction_id: id.id,
                            }
                    })
                    .cloned()
                    .collect();
                (list.len() >= n).then_some(list)
            },
        )
        .await
    }

    /// Every message in a channel or thread (channel posts, interaction
    /// responses, follow-ups, ephemeral ones included), oldest first.
    pub fn messages_in(&self, channel: u64) -> Vec<RecordedMessage> {
        self.shared.read(|w| {
            w.messages
                .iter()
                .filter(|m| m.channel_id == channel)
                .cloned()
                .collect()
        })
    }

    /// Waits for a message in `channel` that satisfies `pred`.
    pub async fn wait_message_in(
        &self,
        channel: u64,
        timeout: Duration,
        pred: impl Fn(&RecordedMessage) -> bool,
    ) -> RecordedMessage {
        self.wait(
            &format!("a matching message in channel {channel}"),
            timeout,
            |w| {
                w.messages
                    .iter()
                    .find(|m| m.channel_id == channel && pred(m))
                    .cloned()
            },
        )
        .await
    }

    /// The current state of a message (after edits), if it still exists.
    pub fn message(&self, id: u64) -> Option<RecordedMessage> {
        self.shared
            .read(|w| w.messages.iter().find(|m| m.id == id).cloned())
    }

    /// Threads the bot created, oldest first.
    pub fn threads(&self) -> Vec<RecordedThread> {
        self.shared.read(|w| {
            w.threads
                .iter()
                .filter_map(|id| w.channels.get(id))
                .map(|c| RecordedThread {
                    id: c["id"].as_str().and_then(|s| s.parse().ok()).unwrap_or(0),
                    parent_id: c["parent_id"]
                        .as_str()
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(0),
                    name: c["name"].as_str().unwrap_or("").to_owned(),
                    kind: c["type"].as_u64().unwrap_or(0),
                    json: c.clone(),
                })
                .collect()
        })
    }

    /// Waits until the bot has created `n` threads; returns them all.
    pub async fn wait_threads(&self, n: usize, timeout: Duration) -> Vec<RecordedThread> {
        self.wait(&format!("{n} thread(s)"), timeout, |w| {
            (w.threads.len() >= n).then_some(())
        })
        .await;
        self.threads()
    }

    /// The commands as Discord currently stores them (with ids), global
    /// ones first, then per guild.
    pub fn registered_commands(&self) -> Vec<Value> {
        self.shared.read(|w| {
            w.global_commands
                .iter()
                .chain(w.guild_commands.values().flatten())
                .cloned()
                .collect()
        })
    }

    /// Waits for the first command registration and returns the stored
    /// commands.
    pub async fn wait_commands(&self, timeout: Duration) -> Vec<Value> {
        self.wait("command registration", timeout, |w| {
            (!w.registrations.is_empty()).then_some(())
        })
        .await;
        self.registered_commands()
    }

    /// Every registration request, in order.
    pub fn registrations(&self) -> Vec<RecordedRegistration> {
        self.shared.read(|w| w.registrations.clone())
    }

    /// Every HTTP request, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.read(|w| w.requests.clone())
    }

    /// Routes the fake did not know (answered 404).
    pub fn unknown_routes(&self) -> Vec<String> {
        self.shared.read(|w| w.unknown_routes.clone())
    }

    /// Panics if the client called a route the fake does not implement.
    pub fn assert_no_unknown_routes(&self) {
        let unknown = self.unknown_routes();
        assert!(
            unknown.is_empty(),
            "the client called unknown routes: {unknown:?}"
        );
    }

    /// Panics if any message the bot sent (interaction responses, follow-ups,
    /// channel messages, and each of their edits) carries text cut to a
    /// Discord limit: the adapter's cut leaves exactly the limit's number of
    /// characters ending in `…`. (Over-long text Discord refuses outright:
    /// see the message checks of [`http`].)
    pub fn assert_nothing_cut(&self) {
        let cut = self.shared.read(|w| {
            let mut cut = Vec::new();
            for (what, payload) in &w.payloads {
                cut.extend(
                    recorder::cut_texts(payload)
                        .into_iter()
                        .map(|t| format!("{what}: {t}")),
                );
            }
            cut
        });
        assert!(cut.is_empty(), "text cut to Discord's limits: {cut:#?}");
    }

    /// A readable dump of everything recorded.
    pub fn summary(&self) -> String {
        self.shared.read(World::summary)
    }

    /// Waits until `check` returns `Some` (re-checked on every change of the
    /// world); panics with `what` and the summary after `timeout`.
    pub async fn wait<R>(
        &self,
        what: &str,
        timeout: Duration,
        check: impl FnMut(&World) -> Option<R>,
    ) -> R {
        match self.shared.wait_for(what, timeout, check).await {
            Ok(r) => r,
            Err(report) => panic!("{report}"),
        }
    }
}

/// Serves `app` with TCP_NODELAY on every connection (the bot's own web
/// board's accept loop): with Nagle's algorithm on, a gateway frame waited
/// for the client's delayed ACK, a 40 ms tail in the latency figures.
async fn serve(listener: tokio::net::TcpListener, app: axum::Router) {
    chessbot::platform::web::serve_nodelay(listener, app).await;
}

fn find_component(components: &Value, custom_id: &str) -> Option<Value> {
    for c in components.as_array().into_iter().flatten() {
        if c["custom_id"].as_str() == Some(custom_id) {
            return Some(c.clone());
        }
        if let Some(found) = find_component(&c["components"], custom_id) {
            return Some(found);
        }
    }
    None
}

/// A serenity client running in a background task, with what is needed to
/// stop it cleanly.
pub struct ClientHandle {
    pub shard_manager: Arc<ShardManager>,
    task: JoinHandle<Result<(), serenity::Error>>,
}

impl ClientHandle {
    /// Starts the client (one shard) in a task.
    pub fn spawn(mut client: Client) -> ClientHandle {
        let shard_manager = Arc::clone(&client.shard_manager);
        let task = tokio::spawn(async move { client.start().await });
        ClientHandle {
            shard_manager,
            task,
        }
    }

    /// Shuts every shard down (closing the WebSocket with 1000) and waits
    /// for the client task to end.
    pub async fn stop(self) {
        self.shard_manager.shutdown_all().await;
        match tokio::time::timeout(DEFAULT_TIMEOUT, self.task).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => eprintln!("client ended with an error: {e}"),
            Ok(Err(e)) => panic!("client task panicked: {e}"),
            Err(_) => panic!("client did not stop within {DEFAULT_TIMEOUT:?}"),
        }
    }
}

/// Median and 99th percentile of latency samples.
#[derive(Clone, Copy, Debug)]
pub struct LatencyStats {
    pub count: usize,
    pub median: Duration,
    pub p99: Duration,
    pub max: Duration,
}

impl LatencyStats {
    /// Nearest-rank percentiles over `samples` (which must not be empty).
    pub fn of(samples: &[Duration]) -> LatencyStats {
        assert!(!samples.is_empty(), "no latency samples");
        let mut sorted = samples.to_vec();
        sorted.sort();
        let rank = |p: f64| {
            let r = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
            sorted[r.clamp(1, sorted.len()) - 1]
        };
        LatencyStats {
            count: sorted.len(),
            median: rank(50.0),
            p99: rank(99.0),
            max: sorted[sorted.len() - 1],
        }
    }
}

impl std::fmt::Display for LatencyStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} samples: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.count,
            self.median.as_secs_f64() * 1e3,
            self.p99.as_secs_f64() * 1e3,
            self.max.as_secs_f64() * 1e3
        )
    }
}
