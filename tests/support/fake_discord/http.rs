//! The REST API under `/api/v10` (`reference`, `resources/*`,
//! `interactions/receiving-and-responding`,
//! `interactions/application-commands#registering-a-command`), plus the
//! WebSocket upgrade on `/` and a tiny CDN for uploaded attachments.
//!
//! serenity is pointed here with `HttpBuilder::proxy`, which rewrites
//! `https://discord.com` to this server, so every path arrives as
//! `/api/v10/...`. Routing is a `match` on the path segments, so that every
//! route this fake knows is visible in one place ([`route`]); anything else
//! is printed loudly, remembered in `unknown_routes`, and answered with a
//! Discord-style 404 JSON error so the client sees a failure it can report.
//!
//! Discord behaviour reproduced because bots get it wrong in practice:
//! - one initial response per interaction (a second one gets 400, code 40060),
//!   and none after 3 s (404, code 10062, "Unknown interaction");
//! - follow-ups only after the initial response (404, code 10015);
//! - message limits (2000 content chars, 10 embeds and their text limits,
//!   5 action rows of 5 buttons, custom ids ≤ 100 chars, labels ≤ 80) and
//!   autocomplete limits (≤ 25 choices, names 1–100 chars) answered with
//!   400 code 50035 "Invalid Form Body";
//! - `@original` of a component interaction is the message the component is on;
//! - the first follow-up after a deferred message response (type 5) edits the
//!   "thinking…" placeholder instead of posting (so it keeps the deferral's
//!   visibility and notifies nobody); later follow-ups, and those after the
//!   placeholder was edited or deleted, are new messages;
//! - injected failures ([`super::FakeDiscord::fail_next`],
//!   [`super::FakeDiscord::fail_times`]): 5xx answers, as during Discord's
//!   incidents, optionally after the request took effect.
//!
//! Not reproduced: rate limits, permissions (but see
//! [`super::FakeDiscord::fail_next`] to inject a 403), audit-log reasons,
//! message history paging, reactions, pins.

use std::{collections::HashMap, sync::Arc, time::Instant};

use axum::{
    body::Bytes,
    extract::{State, WebSocketUpgrade},
    http::{HeaderMap, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use serde_json::{json, Value};

use super::{
    gateway,
    model::{self, APP_ID, GUILD_ID},
    multipart::{self, Body},
    recorder::{
        Failure, MessageSource, Outgoing, RecordedCallback, RecordedMessage, RecordedRegistration,
        RecordedRequest, Shared, UploadedFile, World,
    },
};

/// Status + JSON body (`Value::Null` means an empty body, as for 204).
type Reply = (StatusCode, Value);

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(ws_upgrade))
        .fallback(handle)
        .with_state(shared)
}

async fn ws_upgrade(State(shared): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    let ws_url = shared.read(|w| w.base_url.replacen("http://", "ws://", 1));
    ws.on_upgrade(move |socket| gateway::run(shared, socket, ws_url))
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    bytes: Bytes,
) -> Response {
    let path = uri.path().to_owned();
    if let Some(rest) = path.strip_prefix("/attachments/") {
        return cdn(&shared, rest);
    }
    let (status, body) = answer(&shared, &method, &path, &headers, bytes).await;
    shared.with(|w| {
        w.requests.push(RecordedRequest {
            method: method.to_string(),
            path: path.clone(),
            status: status.as_u16(),
            at: Instant::now(),
        })
    });
    if body.is_null() {
        status.into_response()
    } else {
        (status, Json(body)).into_response()
    }
}

async fn answer(
    shared: &Shared,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    bytes: Bytes,
) -> Reply {
    let Some(api_path) = path.strip_prefix("/api/v10/") else {
        return unknown(shared, method, path);
    };
    if let Some(reply) = oauth(shared, method, api_path, headers, &bytes) {
        return reply;
    }
    let authorized = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bot "));
    if !authorized || !shared.read(|w| w.token_valid) {
        return (
            StatusCode::UNAUTHORIZED,
            json!({"message": "401: Unauthorized", "code": 0}),
        );
    }
    let injected = shared.with(|w| {
        let pos = w.failures.iter().position(|f| {
            f.method.eq_ignore_ascii_case(method.as_str()) && path.contains(f.path_part.as_str())
        })?;
        let failure = w.failures[pos].clone();
        w.failures[pos].times -= 1;
        if w.failures[pos].times == 0 {
            w.failures.remove(pos);
        }
        Some(failure)
    });
    let injected = match injected {
        Some(f) if !f.after_effect => return failure_reply(&f),
        other => other,
    };
    let body = match multipart::decode(headers, bytes).await {
        Ok(b) => b,
        Err(e) => return form_error(&e),
    };
    let segments: Vec<&str> = api_path.trim_end_matches('/').split('/').collect();
    let reply = match shared.with(|w| route(w, method, &segments, body)) {
        Some(reply) => reply,
        None => unknown(shared, method, path),
    };
    match injected {
        Some(f) => failure_reply(&f),
        None => reply,
    }
}

/// OAuth2, as an Activity's sign-in uses it: `POST /oauth2/token` (a
/// form: the application's id and secret, `authorization_code`, a code
/// from [`FakeDiscord::oauth_code`], valid once) and `GET /users/@me` with
/// the `Bearer` token it gave. `None`: not an OAuth2 request.
fn oauth(
    shared: &Shared,
    method: &Method,
    api_path: &str,
    headers: &HeaderMap,
    bytes: &Bytes,
) -> Option<Reply> {
    let auth = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if method == Method::GET && api_path == "users/@me" {
        let token = auth.strip_prefix("Bearer ")?;
        let user = shared.read(|w| w.oauth_tokens.get(token).copied());
        return Some(match user.and_then(model::member_by_id) {
            Some(u) => (StatusCode::OK, model::user(u.id, u.name, false)),
            None => (
                StatusCode::UNAUTHORIZED,
                json!({"message": "401: Unauthorized", "code": 0}),
            ),
        });
    }
    if !(method == Method::POST && api_path == "oauth2/token") {
        return None;
    }
    let form: HashMap<String, String> = String::from_utf8_lossy(bytes)
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode_form(k), decode_form(v)))
        .collect();
    let field = |name: &str| form.get(name).map(String::as_str).unwrap_or_default();
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !content_type.starts_with("application/x-www-form-urlencoded") {
        return Some((
            StatusCode::BAD_REQUEST,
            json!({"error": "invalid_request", "error_description": "form body expected"}),
        ));
    }
    if field("client_id") != model::APP_ID.to_string()
        || field("client_secret") != model::CLIENT_SECRET
    {
        return Some((StatusCode::UNAUTHORIZED, json!({"error": "invalid_client"})));
    }
    if field("grant_type") != "authorization_code" {
        return Some((
            StatusCode::BAD_REQUEST,
            json!({"error": "unsupported_grant_type"}),
        ));
    }
    Some(shared.with(|w| match w.oauth_codes.remove(field("code")) {
        Some(user) => {
            let token = format!("token-{user}-{}", w.new_id());
            w.oauth_tokens.insert(token.clone(), user);
            (
                StatusCode::OK,
                json!({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                       "refresh_token": format!("refresh-{token}"), "scope": "identify"}),
            )
        }
        None => (
            StatusCode::BAD_REQUEST,
            json!({"error": "invalid_grant", "error_description": "Invalid \"code\" in request."}),
        ),
    }))
}

/// `a%20b+c` → `a b c` (application/x-www-form-urlencoded).
fn decode_form(text: &str) -> String {
    let bytes = text.replace('+', " ").into_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&String::from_utf8_lossy(&bytes[i + 1..i + 3]), 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn failure_reply(f: &Failure) -> Reply {
    (
        StatusCode::from_u16(f.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        f.body.clone(),
    )
}

fn unknown(shared: &Shared, method: &Method, path: &str) -> Reply {
    eprintln!("\n!!! fake discord: UNKNOWN ROUTE {method} {path} (answered 404) !!!\n");
    shared.with(|w| w.unknown_routes.push(format!("{method} {path}")));
    (
        StatusCode::NOT_FOUND,
        json!({"message": "404: Not Found", "code": 0}),
    )
}

/// `GET /attachments/{id}/{filename}`: the fake CDN, serving uploaded
/// bytes so that `Attachment::download()` works against the fake.
fn cdn(shared: &Shared, rest: &str) -> Response {
    let id = rest.split('/').next().and_then(|s| s.parse::<u64>().ok());
    match id.and_then(|id| shared.read(|w| w.cdn.get(&id).cloned())) {
        Some(f) => {
            let content_type = f
                .content_type
                .unwrap_or_else(|| "application/octet-stream".into());
            ([(axum::http::header::CONTENT_TYPE, content_type)], f.bytes).into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Every route the fake knows. `None` means "unknown route".
fn route(w: &mut World, method: &Method, seg: &[&str], body: Body) -> Option<Reply> {
    let id = |s: &str| s.parse::<u64>().ok();
    let m = method.as_str();
    Some(match (m, seg) {
        ("GET", ["gateway"]) => ok(json!({"url": ws_url(w)})),
        ("GET", ["gateway", "bot"]) => ok(json!({
            "url": ws_url(w),
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        })),
        ("GET", ["users", "@me"]) => ok(model::bot_user()),
        ("GET", ["users", user]) => match id(user).and_then(model::member_by_id) {
            Some(u) => ok(model::user(u.id, u.name, false)),
            None => error(StatusCode::NOT_FOUND, 10013, "Unknown User"),
        },
        ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => {
            ok(model::application_info())
        }

        // Application commands, global and per guild.
        ("GET", ["applications", _, "commands"]) => ok(Value::Array(w.global_commands.clone())),
        ("GET", ["applications", _, "guilds", g, "commands"]) => ok(Value::Array(
            w.guild_commands.get(&id(g)?).cloned().unwrap_or_default(),
        )),
        ("PUT", ["applications", _, "commands"]) => put_commands(w, None, body.json),
        ("PUT", ["applications", _, "guilds", g, "commands"]) => {
            put_commands(w, Some(id(g)?), body.json)
        }
        ("POST", ["applications", _, "commands"]) => post_command(w, None, body.json),
        ("POST", ["applications", _, "guilds", g, "commands"]) => {
            post_command(w, Some(id(g)?), body.json)
        }
        ("DELETE", ["applications", _, "commands", c]) => {
            let c = c.to_string();
            w.global_commands.retain(|x| x["id"] != json!(c));
            no_content()
        }

        // Interactions.
        ("POST", ["interactions", i, token, "callback"]) => callback(w, id(i)?, token, body),
        ("POST", ["webhooks", _, token]) => followup(w, token, body),
        ("GET", ["webhooks", _, token, "messages", msg]) => match webhook_message(w, token, msg) {
            Ok(mid) => ok(w
                .message_mut(mid)
                .map(|m| m.json.clone())
                .unwrap_or(Value::Null)),
            Err(e) => e,
        },
        ("PATCH", ["webhooks", _, token, "messages", msg]) => {
            match webhook_message(w, token, msg) {
                Ok(mid) => edit_message(w, mid, body),
                Err(e) => e,
            }
        }
        ("DELETE", ["webhooks", _, token, "messages", msg]) => match webhook_message(w, token, msg)
        {
            Ok(mid) => {
                w.messages.retain(|m| m.id != mid);
                no_content()
            }
            Err(e) => e,
        },

        // Channels, messages, threads.
        ("GET", ["channels", c]) => match w.channels.get(&id(c)?) {
            Some(ch) => ok(ch.clone()),
            None => unknown_channel(),
        },
        ("DELETE", ["channels", c]) => delete_thread(w, id(c)?),
        ("POST", ["channels", c, "messages"]) => channel_message(w, id(c)?, body),
        ("GET", ["channels", c, "messages"]) => {
            let c = id(c)?;
            // Newest first, as Discord returns them.
            ok(Value::Array(
                w.messages
                    .iter()
                    .rev()
                    .filter(|m| m.channel_id == c)
                    .map(|m| m.json.clone())
                    .collect(),
            ))
        }
        ("GET", ["channels", c, "messages", msg]) => {
            let (c, msg) = (id(c)?, id(msg)?);
            match w.messages.iter().find(|m| m.id == msg && m.channel_id == c) {
                Some(m) => ok(m.json.clone()),
                None => unknown_message(),
            }
        }
        ("PATCH", ["channels", c, "messages", msg]) => {
            let (c, msg) = (id(c)?, id(msg)?);
            if w.messages.iter().any(|m| m.id == msg && m.channel_id == c) {
                edit_message(w, msg, body)
            } else {
                unknown_message()
            }
        }
        ("DELETE", ["channels", c, "messages", msg]) => {
            let (c, msg) = (id(c)?, id(msg)?);
            w.messages.retain(|m| !(m.id == msg && m.channel_id == c));
            no_content()
        }
        ("POST", ["channels", c, "threads"]) => create_thread(w, id(c)?, None, body.json),
        ("POST", ["channels", c, "messages", msg, "threads"]) => {
            create_thread(w, id(c)?, Some(id(msg)?), body.json)
        }
        ("PUT", ["channels", _, "thread-members", _])
        | ("DELETE", ["channels", _, "thread-members", _]) => no_content(),
        ("POST", ["channels", _, "typing"]) => no_content(),
        ("PUT", ["channels", _, "messages", _, "reactions", _, "@me"]) => no_content(),

        // The guild.
        ("GET", ["guilds", g]) if id(g) == Some(GUILD_ID) => ok(model::rest_guild()),
        ("GET", ["guilds", g, "channels"]) if id(g) == Some(GUILD_ID) => ok(Value::Array(
            w.channels
                .values()
                .filter(|c| c.get("thread_metadata").is_none())
                .cloned()
                .collect(),
        )),
        ("GET", ["guilds", g, "roles"]) if id(g) == Some(GUILD_ID) => {
            ok(json!([model::everyone_role()]))
        }
        ("GET", ["guilds", g, "members", u]) if id(g) == Some(GUILD_ID) => match id(u) {
            Some(APP_ID) => ok(model::bot_member()),
            other => match other.and_then(model::member_by_id) {
                Some(u) => ok(model::member(&u)),
                None => error(StatusCode::NOT_FOUND, 10007, "Unknown Member"),
            },
        },
        _ => return None,
    })
}

fn ok(v: Value) -> Reply {
    (StatusCode::OK, v)
}

fn no_content() -> Reply {
    (StatusCode::NO_CONTENT, Value::Null)
}

/// A Discord JSON error (`topics/opcodes-and-status-codes#json`).
fn error(status: StatusCode, code: u64, message: &str) -> Reply {
    (status, json!({"message": message, "code": code}))
}

fn form_error(detail: &str) -> Reply {
    eprintln!("fake discord: rejecting request: {detail}");
    (
        StatusCode::BAD_REQUEST,
        json!({"message": "Invalid Form Body", "code": 50035, "errors": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": detail}]}}),
    )
}

fn unknown_channel() -> Reply {
    error(StatusCode::NOT_FOUND, 10003, "Unknown Channel")
}

fn unknown_message() -> Reply {
    error(StatusCode::NOT_FOUND, 10008, "Unknown Message")
}

fn unknown_interaction() -> Reply {
    error(StatusCode::NOT_FOUND, 10062, "Unknown interaction")
}

fn ws_url(w: &World) -> String {
    w.base_url.replacen("http://", "ws://", 1)
}

/// `PUT .../commands`: bulk overwrite. Discord keeps the id of a command
/// whose name and type are unchanged, and returns the stored commands.
fn put_commands(w: &mut World, guild: Option<u64>, body: Value) -> Reply {
    let Some(list) = body.as_array() else {
        return form_error("expected an array of commands");
    };
    let old = match guild {
        Some(g) => w.guild_commands.get(&g).cloned().unwrap_or_default(),
        None => w.global_commands.clone(),
    };
    let mut stored = Vec::new();
    for cmd in list {
        if let Err(e) = validate_command(cmd) {
            return form_error(&e);
        }
        let same = old.iter().find(|o| {
            o["name"] == cmd["name"] && o["type"] == cmd.get("type").cloned().unwrap_or(json!(1))
        });
        let cid = same
            .and_then(|o| o["id"].as_str()?.parse().ok())
            .unwrap_or_else(|| w.new_id());
        let version = w.new_id();
        stored.push(store_command(cmd, cid, version, guild));
    }
    w.registrations.push(RecordedRegistration {
        guild_id: guild,
        commands: list.clone(),
        at: Instant::now(),
    });
    match guild {
        Some(g) => {
            w.guild_commands.insert(g, stored.clone());
        }
        None => w.global_commands = stored.clone(),
    }
    ok(Value::Array(stored))
}

/// `POST .../commands`: create or overwrite one command by name.
fn post_command(w: &mut World, guild: Option<u64>, cmd: Value) -> Reply {
    if let Err(e) = validate_command(&cmd) {
        return form_error(&e);
    }
    let list = match guild {
        Some(g) => w.guild_commands.entry(g).or_default(),
        None => &mut w.global_commands,
    };
    let existing = list.iter().position(|o| o["name"] == cmd["name"]);
    let old_id = existing.and_then(|i| list[i]["id"].as_str()?.parse().ok());
    let cid = old_id.unwrap_or_else(|| w.new_id());
    let version = w.new_id();
    let stored = store_command(&cmd, cid, version, guild);
    let list = match guild {
        Some(g) => w.guild_commands.entry(g).or_default(),
        None => &mut w.global_commands,
    };
    match existing {
        Some(i) => list[i] = stored.clone(),
        None => list.push(stored.clone()),
    }
    w.registrations.push(RecordedRegistration {
        guild_id: guild,
        commands: vec![cmd],
        at: Instant::now(),
    });
    let status = if old_id.is_some() {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    (status, stored)
}

fn store_command(cmd: &Value, id: u64, version: u64, guild: Option<u64>) -> Value {
    let mut c = cmd.clone();
    c["id"] = json!(id.to_string());
    c["application_id"] = json!(APP_ID.to_string());
    c["version"] = json!(version.to_string());
    if c.get("type").is_none() {
        c["type"] = json!(1);
    }
    if c.get("description").is_none() {
        c["description"] = json!("");
    }
    if let Some(g) = guild {
        c["guild_id"] = json!(g.to_string());
    }
    c
}

/// The registration rules Discord enforces that a bot can trip over
/// (`interactions/application-commands#application-command-object`).
fn validate_command(cmd: &Value) -> Result<(), String> {
    let name = cmd["name"].as_str().ok_or("command without a name")?;
    let chat_input = cmd.get("type").and_then(Value::as_u64).unwrap_or(1) == 1;
    if name.is_empty() || name.chars().count() > 32 {
        return Err(format!("command name {name:?} must be 1-32 characters"));
    }
    if chat_input {
        if name.chars().any(|c| c.is_uppercase() || c.is_whitespace()) {
            return Err(format!(
                "command name {name:?} must be lowercase without spaces"
            ));
        }
        let description = cmd["description"].as_str().unwrap_or("");
        if description.is_empty() || description.chars().count() > 100 {
            return Err(format!(
                "command {name:?}: description must be 1-100 characters"
            ));
        }
    }
    validate_options(name, &cmd["options"])
}

fn validate_options(cmd: &str, options: &Value) -> Result<(), String> {
    let Some(list) = options.as_array() else {
        return Ok(());
    };
    if list.len() > 25 {
        return Err(format!("command {cmd:?}: more than 25 options"));
    }
    let mut seen_optional = false;
    for o in list {
        let name = o["name"].as_str().unwrap_or("");
        if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_uppercase) {
            return Err(format!(
                "command {cmd:?}: option name {name:?} must be 1-32 lowercase characters"
            ));
        }
        let description = o["description"].as_str().unwrap_or("");
        if description.is_empty() || description.chars().count() > 100 {
            return Err(format!(
                "command {cmd:?}: option {name:?} description must be 1-100 characters"
            ));
        }
        let kind = o["type"].as_u64().unwrap_or(0);
        if kind > 2 {
            // Discord: required options must come before optional ones.
            let required = o["required"].as_bool().unwrap_or(false);
            if required && seen_optional {
                return Err(format!(
                    "command {cmd:?}: required option {name:?} after an optional one"
                ));
            }
            seen_optional |= !required;
        }
        // poise sends `choices: []` next to `autocomplete: true`; Discord
        // only refuses a non-empty list.
        let has_choices = o["choices"].as_array().is_some_and(|c| !c.is_empty());
        if o["autocomplete"].as_bool() == Some(true) && has_choices {
            return Err(format!(
                "command {cmd:?}: option {name:?} has both choices and autocomplete"
            ));
        }
        if o["choices"].as_array().is_some_and(|c| c.len() > 25) {
            return Err(format!(
                "command {cmd:?}: option {name:?} has more than 25 choices"
            ));
        }
        validate_options(cmd, &o["options"])?;
    }
    Ok(())
}

/// Message limits (`resources/message#create-message-jsonform-params`,
/// `resources/message#embed-object-embed-limits`, `interactions/message-components`).
fn validate_message(p: &Value) -> Result<(), String> {
    let content = p["content"].as_str().unwrap_or("");
    if content.chars().count() > 2000 {
        return Err(format!(
            "content is {} characters (max 2000)",
            content.chars().count()
        ));
    }
    let embeds = p["embeds"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if embeds.len() > 10 {
        return Err(format!("{} embeds (max 10)", embeds.len()));
    }
    let mut total = 0;
    for e in embeds {
        let len = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
        let checks = [
            (len(&e["title"]), 256, "embed title"),
            (len(&e["description"]), 4096, "embed description"),
            (len(&e["footer"]["text"]), 2048, "embed footer"),
            (len(&e["author"]["name"]), 256, "embed author"),
        ];
        for (n, max, what) in checks {
            if n > max {
                return Err(format!("{what} is {n} characters (max {max})"));
            }
            total += n;
        }
        let fields = e["fields"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        if fields.len() > 25 {
            return Err(format!("{} embed fields (max 25)", fields.len()));
        }
        for f in fields {
            let (n, v) = (len(&f["name"]), len(&f["value"]));
            if n == 0 || n > 256 || v == 0 || v > 1024 {
                return Err(format!(
                    "embed field {f} must have a name of 1-256 and a value of 1-1024 characters"
                ));
            }
            total += n + v;
        }
    }
    if total > 6000 {
        return Err(format!("embeds hold {total} characters (max 6000)"));
    }
    let rows = p["components"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if rows.len() > 5 {
        return Err(format!("{} action rows (max 5)", rows.len()));
    }
    for row in rows {
        if row["type"].as_u64() != Some(1) {
            return Err("top-level components must be action rows (type 1)".into());
        }
        let items = row["components"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            return Err(format!(
                "an action row holds {} components (1-5)",
                items.len()
            ));
        }
        for c in items {
            let custom_id = c["custom_id"].as_str();
            if custom_id.is_some_and(|id| id.is_empty() || id.chars().count() > 100) {
                return Err(format!("custom_id {custom_id:?} must be 1-100 characters"));
            }
            if c["type"].as_u64() == Some(2) {
                let link = c["style"].as_u64() == Some(5);
                if link != c.get("url").is_some() || (!link && custom_id.is_none()) {
                    return Err(format!(
                        "button {c}: link buttons need a url, others a custom_id"
                    ));
                }
                if c["label"].as_str().is_some_and(|l| l.chars().count() > 80) {
                    return Err(format!("button label of {c} is over 80 characters"));
                }
            }
        }
    }
    Ok(())
}

fn validate_choices(data: &Value) -> Result<(), String> {
    let choices = data["choices"]
        .as_array()
        .ok_or("autocomplete result without choices")?;
    if choices.len() > 25 {
        return Err(format!("{} autocomplete choices (max 25)", choices.len()));
    }
    for c in choices {
        let n = c["name"].as_str().map_or(0, |s| s.chars().count());
        if n == 0 || n > 100 {
            return Err(format!("choice {c}: name must be 1-100 characters"));
        }
        if c["value"].as_str().is_some_and(|v| v.chars().count() > 100) {
            return Err(format!("choice {c}: string value over 100 characters"));
        }
    }
    Ok(())
}

/// Builds the stored message for a create-message payload: turns uploaded
/// files into attachment objects served by the fake CDN.
fn new_message(
    w: &mut World,
    channel_id: u64,
    payload: &Value,
    files: Vec<(u64, UploadedFile)>,
    source: MessageSource,
) -> RecordedMessage {
    let id = w.new_id();
    let attachments = attach(w, payload, &files);
    let mut json = model::message(id, channel_id, model::bot_user(), payload, attachments);
    if let MessageSource::InteractionResponse { interaction_id }
    | MessageSource::Followup { interaction_id } = source
    {
        // Interaction messages are sent through the application's webhook.
        json["webhook_id"] = json!(APP_ID.to_string());
        json["application_id"] = json!(APP_ID.to_string());
        if let Some(i) = w.interactions.get(&interaction_id)
            && i.kind == 2
        {
            json["type"] = json!(20); // CHAT_INPUT_COMMAND
            json["interaction"] = json!({
                "id": interaction_id.to_string(),
                "type": 2,
                "name": i.name,
                "user": model::member_by_id(i.user_id).map(|u| model::user(u.id, u.name, false)),
            });
        }
    }
    if let Some(ch) = w.channels.get_mut(&channel_id) {
        ch["last_message_id"] = json!(id.to_string());
    }
    let notified = notified_by(payload, &json);
    let versions = vec![json["content"].as_str().unwrap_or("").to_owned()];
    RecordedMessage {
        id,
        channel_id,
        json,
        files: files.into_iter().map(|(_, f)| f).collect(),
        source,
        created_at: Instant::now(),
        edited_at: None,
        edits: 0,
        versions,
        deferred: false,
        notified,
    }
}

/// Who a newly created message notifies: the users its content mentions,
/// as far as `allowed_mentions` allows (absent: everyone mentioned; `parse`
/// with `users`: everyone; else the `users` list), and nobody for an
/// ephemeral message (`channel#allowed-mentions-object`).
fn notified_by(payload: &Value, message: &Value) -> Vec<u64> {
    if payload["flags"].as_u64().unwrap_or(0) & 64 != 0 {
        return Vec::new();
    }
    let mentioned: Vec<u64> = message["mentions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| u["id"].as_str().and_then(|id| id.parse().ok()))
        .collect();
    let Some(allowed) = payload.get("allowed_mentions").filter(|a| a.is_object()) else {
        return mentioned;
    };
    let parse_users = allowed["parse"]
        .as_array()
        .is_some_and(|p| p.iter().any(|x| x == "users"));
    if parse_users {
        return mentioned;
    }
    let listed: Vec<u64> = allowed["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| {
            u.as_str()
                .and_then(|id| id.parse().ok())
                .or_else(|| u.as_u64())
        })
        .collect();
    mentioned
        .into_iter()
        .filter(|id| listed.contains(id))
        .collect()
}

fn attach(w: &mut World, payload: &Value, files: &[(u64, UploadedFile)]) -> Vec<Value> {
    let mut out = Vec::new();
    for (index, file) in files {
        let id = w.new_id();
        let content_type = file
            .content_type
            .clone()
            .unwrap_or_else(|| "application/octet-stream".into());
        let mut a = model::attachment(
            id,
            &file.filename,
            &content_type,
            file.bytes.len(),
            &w.base_url,
        );
        // The payload's `attachments[]` may describe the upload by its index.
        let described = payload["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|d| {
                d["id"].as_u64() == Some(*index) || d["id"].as_str() == Some(&index.to_string())
            });
        if let Some(desc) = described.and_then(|d| d.get("description")) {
            a["description"] = desc.clone();
        }
        w.cdn.insert(id, file.clone());
        out.push(a);
    }
    out
}

/// `POST /interactions/{id}/{token}/callback`.
fn callback(w: &mut World, interaction_id: u64, token: &str, body: Body) -> Reply {
    let Some(sent) = w
        .interactions
        .get(&interaction_id)
        .filter(|i| i.token == token)
        .cloned()
    else {
        return unknown_interaction();
    };
    let received_at = Instant::now();
    let kind = body.json["type"].as_u64().unwrap_or(0);
    let data = body.json.get("data").cloned().unwrap_or(Value::Null);
    let files = body.files;
    let validation = match kind {
        4 | 7 => validate_message(&data),
        8 => validate_choices(&data),
        // 12: LAUNCH_ACTIVITY (the application has Activities enabled).
        5 | 6 | 9 | 12 => Ok(()),
        other => Err(format!(
            "callback type {other} is not valid for a gateway interaction"
        )),
    };
    if matches!(kind, 4 | 7) {
        w.payloads
            .push(("interaction callback".into(), data.clone()));
    }
    let mut message = None;
    let reply = if sent.responded {
        error(
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        )
    } else if received_at.saturating_duration_since(sent.sent_at) > w.interaction_deadline {
        eprintln!(
            "fake discord: callback for interaction {interaction_id} came after {:?} (Discord allows {:?})",
            received_at.saturating_duration_since(sent.sent_at),
            w.interaction_deadline
        );
        unknown_interaction()
    } else if let Err(e) = validation {
        form_error(&e)
    } else {
        let source = MessageSource::InteractionResponse { interaction_id };
        let original = match kind {
            4 => {
                let m = new_message(w, sent.channel_id, &data, files.clone(), source);
                let id = m.id;
                message = Some(m.clone());
                w.messages.push(m);
                Some(id)
            }
            5 => {
                // Deferred: a "thinking…" placeholder (LOADING flag 128)
                // that a later `PATCH @original` fills in.
                let mut payload = json!({"content": ""});
                payload["flags"] = json!(data["flags"].as_u64().unwrap_or(0) | 128);
                let mut m = new_message(w, sent.channel_id, &payload, Vec::new(), source);
                m.deferred = true;
                let id = m.id;
                message = Some(m.clone());
                w.messages.push(m);
                Some(id)
            }
            7 => {
                let target = sent.component_message;
                if let Some(mid) = target {
                    let _ = edit_message(
                        w,
                        mid,
                        Body {
                            json: data.clone(),
                            files: files.clone(),
                        },
                    );
                    message = w.message_mut(mid).map(|m| m.clone());
                }
                target
            }
            _ => sent.component_message,
        };
        if let Some(i) = w.interactions.get_mut(&interaction_id) {
            i.responded = true;
            i.original = original;
        }
        no_content()
    };
    w.callbacks.push(RecordedCallback {
        interaction_id,
        token: token.to_owned(),
        kind,
        data,
        files: files.into_iter().map(|(_, f)| f).collect(),
        sent_at: sent.sent_at,
        received_at,
        status: reply.0.as_u16(),
        message,
    });
    reply
}

/// `POST /webhooks/{app}/{token}`: an interaction follow-up message.
fn followup(w: &mut World, token: &str, body: Body) -> Reply {
    let Some(i) = w.interaction_by_token(token).cloned() else {
        return error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
    };
    if !i.responded {
        return error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
    }
    w.payloads.push(("follow-up".into(), body.json.clone()));
    if let Err(e) = validate_message(&body.json) {
        return form_error(&e);
    }
    // The first follow-up after a deferred response (type 5) completes it:
    // Discord edits the "thinking…" message rather than posting a new one
    // (discord-api-docs discussion #4140; discord.py documents the same).
    // Its visibility is the deferral's, whatever the follow-up's flags say,
    // and like any edit it notifies nobody. A placeholder already edited
    // or deleted leaves later follow-ups to be new messages.
    if let Some(mid) = i
        .original
        .filter(|mid| w.messages.iter().any(|m| m.id == *mid && m.deferred))
    {
        let mut payload = body.json;
        if let Some(p) = payload.as_object_mut() {
            p.remove("flags");
        }
        return edit_message(
            w,
            mid,
            Body {
                json: payload,
                files: body.files,
            },
        );
    }
    let m = new_message(
        w,
        i.channel_id,
        &body.json,
        body.files,
        MessageSource::Followup {
            interaction_id: i.id,
        },
    );
    let json = m.json.clone();
    w.messages.push(m);
    ok(json)
}

/// Resolves `@original` or a follow-up id for an interaction token.
fn webhook_message(w: &World, token: &str, msg: &str) -> Result<u64, Reply> {
    let i = w
        .interaction_by_token(token)
        .ok_or_else(|| error(StatusCode::NOT_FOUND, 10015, "Unknown Webhook"))?;
    if msg == "@original" {
        return i.original.ok_or_else(unknown_message);
    }
    let id: u64 = msg.parse().map_err(|_| unknown_message())?;
    let belongs = w.messages.iter().any(|m| {
        m.id == id
            && match m.source {
                MessageSource::InteractionResponse { interaction_id }
                | MessageSource::Followup { interaction_id } => interaction_id == i.id,
                MessageSource::Channel => i.component_message == Some(id),
            }
    });
    if belongs {
        Ok(id)
    } else {
        Err(unknown_message())
    }
}

/// Edits a stored message with a PATCH payload: given fields replace the
/// old ones; `attachments`, when present, lists the old attachments to keep.
fn edit_message(w: &mut World, id: u64, body: Body) -> Reply {
    let p = body.json;
    w.payloads.push(("edit".into(), p.clone()));
    if let Err(e) = validate_message(&p) {
        return form_error(&e);
    }
    let new_attachments = attach(w, &p, &body.files);
    let Some(m) = w.message_mut(id) else {
        return unknown_message();
    };
    for key in ["content", "embeds", "components"] {
        if let Some(v) = p.get(key) {
            m.json[key] = if v.is_null() && key != "content" {
                json!([])
            } else {
                v.clone()
            };
        }
    }
    if p.get("content").is_some_and(Value::is_null) {
        m.json["content"] = json!("");
    }
    if let Some(keep) = p.get("attachments").and_then(Value::as_array) {
        let keep_ids: Vec<String> = keep
            .iter()
            .filter_map(|a| {
                a["id"]
                    .as_str()
                    .map(str::to_owned)
                    .or_else(|| a["id"].as_u64().map(|n| n.to_string()))
            })
            .collect();
        let kept: Vec<Value> = m.json["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|a| {
                a["id"]
                    .as_str()
                    .is_some_and(|s| keep_ids.iter().any(|k| k == s))
            })
            .cloned()
            .collect();
        let kept_names: Vec<String> = kept
            .iter()
            .filter_map(|a| a["filename"].as_str().map(str::to_owned))
            .collect();
        m.files.retain(|f| kept_names.contains(&f.filename));
        m.json["attachments"] = json!(kept);
    }
    if let Some(list) = m.json["attachments"].as_array_mut() {
        list.extend(new_attachments);
    }
    m.files.extend(body.files.into_iter().map(|(_, f)| f));
    if m.deferred {
        // Filling a deferred response clears LOADING; the ephemeral bit was
        // fixed by the deferral, as on Discord.
        let flags = m.json["flags"].as_u64().unwrap_or(0) & !128;
        m.json["flags"] = json!(flags);
        m.deferred = false;
    }
    m.json["edited_timestamp"] = json!(model::now_timestamp());
    m.edits += 1;
    let content = m.json["content"].as_str().unwrap_or("").to_owned();
    m.versions.push(content);
    m.edited_at = Some(Instant::now());
    ok(m.json.clone())
}

/// `POST /channels/{id}/messages`.
fn channel_message(w: &mut World, channel_id: u64, body: Body) -> Reply {
    if !w.channels.contains_key(&channel_id) {
        return unknown_channel();
    }
    let p = &body.json;
    w.payloads.push(("channel message".into(), p.clone()));
    let empty = p["content"].as_str().unwrap_or("").is_empty()
        && p["embeds"].as_array().is_none_or(Vec::is_empty)
        && p["components"].as_array().is_none_or(Vec::is_empty)
        && body.files.is_empty();
    if empty {
        return error(
            StatusCode::BAD_REQUEST,
            50006,
            "Cannot send an empty message",
        );
    }
    if let Err(e) = validate_message(p) {
        return form_error(&e);
    }
    let m = new_message(w, channel_id, p, body.files, MessageSource::Channel);
    let json = m.json.clone();
    w.messages.push(m);
    ok(json)
}

/// `POST /channels/{id}/threads` and `.../messages/{id}/threads`
/// (`resources/channel#start-thread-*`): creates the thread channel, records
/// it and dispatches THREAD_CREATE as Discord does.
fn create_thread(w: &mut World, parent: u64, from_message: Option<u64>, p: Value) -> Reply {
    match w.channels.get(&parent) {
        Some(c) if c.get("thread_metadata").is_none() => {}
        Some(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                50024,
                "Cannot execute action on this channel type",
            )
        }
        None => return unknown_channel(),
    }
    if let Some(mid) = from_message
        && !w
            .messages
            .iter()
            .any(|m| m.id == mid && m.channel_id == parent)
    {
        return unknown_message();
    }
    let name = p["name"].as_str().unwrap_or("");
    if name.is_empty() || name.chars().count() > 100 {
        return form_error("thread name must be 1-100 characters");
    }
    // A thread started from a message is public (11); otherwise the type is
    // whatever was asked, private (12) by default.
    let kind = if from_message.is_some() {
        11
    } else {
        p["type"].as_u64().unwrap_or(12)
    };
    // A thread started from a message takes that message's id.
    let id = from_message.unwrap_or_else(|| w.new_id());
    let auto_archive = p["auto_archive_duration"].as_u64().unwrap_or(1440);
    let thread = model::thread_channel(id, parent, name, kind, APP_ID, auto_archive);
    w.channels.insert(id, thread.clone());
    w.threads.push(id);
    let mut event = thread.clone();
    event["newly_created"] = json!(true);
    dispatch(w, "THREAD_CREATE", event);
    (StatusCode::CREATED, thread)
}

/// `DELETE /channels/{id}` of a thread (`resources/channel#deleteclose-channel`):
/// the thread and its messages go, and THREAD_DELETE is dispatched. The
/// fake's guild channels cannot be deleted.
fn delete_thread(w: &mut World, id: u64) -> Reply {
    match w.channels.get(&id) {
        Some(c) if c.get("thread_metadata").is_some() => {
            let thread = c.clone();
            w.channels.remove(&id);
            w.threads.retain(|t| *t != id);
            w.messages.retain(|m| m.channel_id != id);
            dispatch(
                w,
                "THREAD_DELETE",
                json!({"id": thread["id"], "guild_id": thread["guild_id"], "parent_id": thread["parent_id"], "type": thread["type"]}),
            );
            ok(thread)
        }
        Some(_) => error(StatusCode::FORBIDDEN, 50013, "Missing Permissions"),
        None => unknown_channel(),
    }
}

/// Sends a dispatch to the newest ready gateway session, if any.
pub fn dispatch(w: &World, t: &str, d: Value) -> bool {
    match w.sessions.iter().rev().find(|s| s.ready) {
        Some(s) => s.tx.send(Outgoing::Dispatch(t.to_owned(), d)).is_ok(),
        None => false,
    }
}
