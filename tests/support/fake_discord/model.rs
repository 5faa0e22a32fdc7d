//! JSON builders for the Discord objects the fake sends: users, members, the
//! test guild and its channels, threads, messages, attachments and the three
//! kinds of interaction (slash command, autocomplete, button click).
//!
//! Shapes follow Discord's API reference (`resources/user`, `resources/guild`,
//! `resources/channel`, `resources/message`,
//! `interactions/receiving-and-responding#interaction-object`), trimmed to
//! what serenity 0.12.5 needs to deserialize them. serenity is strict: many
//! fields that Discord documents as always present are *required* by its
//! serde derives (for example `attachment_size_limit` and `entitlements` on
//! interactions, `colors` on roles, `flags` on members). The smoke test
//! deserializes every builder into the matching serenity type, so a missing
//! field fails there with serde's message rather than as a silent hang of
//! the client (serenity logs and drops events it cannot parse).

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

/// The bot token the harness hands to serenity. Never a real one.
pub const TOKEN: &str = "fake-token.for.tests";
/// The application id (also the bot user's id, as on real Discord).
pub const APP_ID: u64 = 1_100_000_000_000_000_001;
/// The test guild.
pub const GUILD_ID: u64 = 1_100_000_000_000_000_100;
/// Name of the test guild.
pub const GUILD_NAME: &str = "Chess Club";
/// The `#chess` text channel of the test guild.
pub const CHESS_CHANNEL: u64 = 1_100_000_000_000_000_200;
/// A second text channel, `#general`, for tests that need two channels.
pub const GENERAL_CHANNEL: u64 = 1_100_000_000_000_000_201;
/// Permissions the bot has in the test guild (Discord's `app_permissions`):
/// view channel, send messages, embed links, attach files, read history,
/// create public threads, send in threads, use application commands.
pub const BOT_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38);
/// Permissions of an ordinary member (same set as the bot, without threads).
pub const MEMBER_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31);
/// Manage Server (`MANAGE_GUILD`), for commands gated on it.
pub const MANAGE_GUILD: u64 = 1 << 5;
/// Discord's epoch (2015-01-01) in Unix milliseconds, for snowflakes.
pub const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
/// Discord's default upload limit, echoed in `attachment_size_limit`.
pub const ATTACHMENT_SIZE_LIMIT: u64 = 10 * 1024 * 1024;

/// A member of the test guild.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestUser {
    pub id: u64,
    pub name: &'static str,
    /// Extra permission bits on top of [`MEMBER_PERMISSIONS`].
    pub extra_permissions: u64,
}

impl TestUser {
    /// `<@id>`, the mention syntax Discord renders as a ping.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }

    /// All permission bits this member has in the guild.
    pub fn permissions(&self) -> u64 {
        MEMBER_PERMISSIONS | self.extra_permissions
    }
}

/// Owner of the test guild; has Manage Server.
pub const ALICE: TestUser = TestUser {
    id: 1_100_000_000_000_001_001,
    name: "alice",
    extra_permissions: MANAGE_GUILD,
};
/// An ordinary member.
pub const BOB: TestUser = TestUser {
    id: 1_100_000_000_000_001_002,
    name: "bob",
    extra_permissions: 0,
};
/// A third member, for "someone else clicked the button" cases.
pub const CAROL: TestUser = TestUser {
    id: 1_100_000_000_000_001_003,
    name: "carol",
    extra_permissions: 0,
};
/// The human members of the test guild.
pub const MEMBERS: [TestUser; 3] = [ALICE, BOB, CAROL];
/// The application's OAuth2 client secret (the Activity's sign-in).
pub const CLIENT_SECRET: &str = "the fake application's client secret";
/// Name of the bot user.
pub const BOT_NAME: &str = "chessbot";

/// Looks a test user up by id.
pub fn member_by_id(id: u64) -> Option<TestUser> {
    MEMBERS.iter().copied().find(|m| m.id == id)
}

/// Current time as an RFC 3339 timestamp, the format Discord uses.
pub fn now_timestamp() -> String {
    serenity::model::Timestamp::now().to_string()
}

/// A snowflake for "now": Discord ids embed their creation time (ms since
/// the Discord epoch, shifted left 22 bits), so ids sort by creation. The low
/// bits carry a per-process counter to keep ids unique within a millisecond.
pub fn snowflake(counter: u64) -> u64 {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(DISCORD_EPOCH_MS);
    ((ms.saturating_sub(DISCORD_EPOCH_MS)) << 22) | (counter & 0x3F_FFFF)
}

/// A user object (`resources/user#user-object`).
pub fn user(id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": null,
        "bot": bot,
        "public_flags": 0,
    })
}

/// The bot's own user, as in READY and `GET /users/@me`.
pub fn bot_user() -> Value {
    let mut u = user(APP_ID, BOT_NAME, true);
    u["verified"] = json!(true);
    u["mfa_enabled"] = json!(false);
    u["flags"] = json!(0);
    u
}

/// A guild member object (`resources/guild#guild-member-object`). serenity
/// requires `deaf`, `mute`, `roles` and `flags`.
pub fn member(u: &TestUser) -> Value {
    json!({
        "user": user(u.id, u.name, false),
        "nick": null,
        "avatar": null,
        "roles": [],
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
    })
}

/// The bot's own member object.
pub fn bot_member() -> Value {
    json!({
        "user": bot_user(),
        "nick": null,
        "roles": [],
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "deaf": false,
        "mute": false,
        "flags": 0,
    })
}

/// A member as it appears inside an interaction: with the computed
/// `permissions` string, which Discord only sends there.
pub fn interaction_member(u: &TestUser) -> Value {
    let mut m = member(u);
    m["permissions"] = json!(u.permissions().to_string());
    m
}

/// A member in `resolved.members`: Discord omits `user`, `deaf` and `mute`.
pub fn resolved_member(u: &TestUser) -> Value {
    json!({
        "nick": null,
        "avatar": null,
        "roles": [],
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "premium_since": null,
        "flags": 0,
        "pending": false,
        "permissions": u.permissions().to_string(),
    })
}

/// A guild text channel (`resources/channel#channel-object`, type 0).
pub fn text_channel(id: u64, name: &str, position: u16) -> Value {
    json!({
        "id": id.to_string(),
        "type": 0,
        "guild_id": GUILD_ID.to_string(),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "topic": null,
        "nsfw": false,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "parent_id": null,
        "flags": 0,
    })
}

/// A thread channel (type 11 public, 12 private) with its metadata.
pub fn thread_channel(
    id: u64,
    parent: u64,
    name: &str,
    kind: u64,
    owner: u64,
    auto_archive: u64,
) -> Value {
    json!({
        "id": id.to_string(),
        "type": kind,
        "guild_id": GUILD_ID.to_string(),
        "parent_id": parent.to_string(),
        "owner_id": owner.to_string(),
        "name": name,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": false,
            "auto_archive_duration": auto_archive,
            "archive_timestamp": now_timestamp(),
            "locked": false,
            "create_timestamp": now_timestamp(),
        },
    })
}

/// The minimal channel object Discord puts in `interaction.channel`.
pub fn partial_channel(channel: &Value) -> Value {
    let mut c = json!({
        "id": channel["id"],
        "type": channel["type"],
        "name": channel["name"],
        "permissions": BOT_PERMISSIONS.to_string(),
    });
    if let Some(parent) = channel.get("parent_id").filter(|p| !p.is_null()) {
        c["parent_id"] = parent.clone();
    }
    if let Some(meta) = channel.get("thread_metadata") {
        c["thread_metadata"] = meta.clone();
    }
    c
}

/// The `@everyone` role; its id equals the guild id, as on Discord. serenity
/// 0.12.5 requires the newer `colors` object next to `color`.
pub fn everyone_role() -> Value {
    json!({
        "id": GUILD_ID.to_string(),
        "name": "@everyone",
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": 0,
        "permissions": MEMBER_PERMISSIONS.to_string(),
        "managed": false,
        "mentionable": false,
        "flags": 0,
    })
}

/// The full guild object of a `GUILD_CREATE` dispatch
/// (`topics/gateway-events#guild-create`): the guild fields plus the extra
/// gateway-only fields (`joined_at`, `large`, `member_count`, `members`,
/// `channels`, `threads`, `voice_states`, `presences`, ...), all of which
/// serenity requires.
pub fn guild_create(channels: &[Value], threads: &[Value]) -> Value {
    let mut members: Vec<Value> = MEMBERS.iter().map(member).collect();
    members.push(bot_member());
    let mut guild = json!({
        "id": GUILD_ID.to_string(),
        "name": GUILD_NAME,
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": ALICE.id.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [everyone_role()],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
    });
    // Two `json!` calls: one would exceed the macro recursion limit.
    let extra = json!({
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "large": false,
        "unavailable": false,
        "member_count": members.len(),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    });
    if let (Some(g), Value::Object(extra)) = (guild.as_object_mut(), extra) {
        g.extend(extra);
    }
    guild
}

/// The guild as returned by `GET /guilds/{id}` (a "partial guild" to
/// serenity: no gateway-only fields).
pub fn rest_guild() -> Value {
    let mut g = guild_create(&[], &[]);
    let obj = g.as_object_mut().expect("guild_create builds an object");
    for key in [
        "joined_at",
        "large",
        "unavailable",
        "member_count",
        "voice_states",
        "members",
        "channels",
        "threads",
        "presences",
        "stage_instances",
        "guild_scheduled_events",
        "soundboard_sounds",
    ] {
        obj.remove(key);
    }
    g
}

/// The READY payload (`topics/gateway-events#ready`). serenity needs `v`,
/// `user`, `guilds`, `session_id`, `resume_gateway_url` and
/// `application{id,flags}`; `shard` is `[id, count]`.
pub fn ready(session_id: &str, resume_url: &str) -> Value {
    json!({
        "v": 10,
        "user": bot_user(),
        "guilds": [{"id": GUILD_ID.to_string(), "unavailable": true}],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "shard": [0, 1],
        "application": {"id": APP_ID.to_string(), "flags": 0},
    })
}

/// `GET /oauth2/applications/@me` (`resources/application`); poise calls it
/// at start-up to learn the bot's owners.
pub fn application_info() -> Value {
    json!({
        "id": APP_ID.to_string(),
        "name": BOT_NAME,
        "icon": null,
        "description": "fake application for tests",
        "bot_public": true,
        "bot_require_code_grant": false,
        "owner": user(ALICE.id, ALICE.name, false),
        "verify_key": "00",
        "team": null,
        "flags": 0,
        "bot": bot_user(),
    })
}

/// A message object (`resources/message#message-object`) built from a
/// create-message payload. `extra` fields (interaction metadata, webhook id,
/// attachments) are merged in by the caller.
pub fn message(
    id: u64,
    channel_id: u64,
    author: Value,
    payload: &Value,
    attachments: Vec<Value>,
) -> Value {
    let content = payload.get("content").and_then(Value::as_str).unwrap_or("");
    json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "guild_id": GUILD_ID.to_string(),
        "author": author,
        "content": content,
        "timestamp": now_timestamp(),
        "edited_timestamp": null,
        "tts": payload.get("tts").and_then(Value::as_bool).unwrap_or(false),
        "mention_everyone": false,
        "mentions": mentions_in(content),
        "mention_roles": [],
        "attachments": attachments,
        "embeds": payload.get("embeds").cloned().unwrap_or_else(|| json!([])),
        "components": payload.get("components").cloned().unwrap_or_else(|| json!([])),
        "pinned": false,
        "type": 0,
        "flags": payload.get("flags").and_then(Value::as_u64).unwrap_or(0),
    })
}

/// Users mentioned as `<@id>` (or `<@!id>`) in `content`, as Discord
/// resolves them into `mentions`. Only the test guild's members resolve.
pub fn mentions_in(content: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let digits: String = rest
            .trim_start_matches('!')
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Some(u) = digits.parse().ok().and_then(member_by_id) {
            let v = user(u.id, u.name, false);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// An attachment object (`resources/message#attachment-object`) pointing at
/// the fake's own CDN route, so `attachment.download()` works too.
pub fn attachment(
    id: u64,
    filename: &str,
    content_type: &str,
    size: usize,
    base_url: &str,
) -> Value {
    let url = format!("{base_url}/attachments/{id}/{filename}");
    json!({
        "id": id.to_string(),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
    })
}

/// Fields common to every interaction (`interactions/receiving-and-responding`).
/// serenity requires `attachment_size_limit`, `entitlements`, `locale` and
/// `version`; `member` (not `user`) marks a guild interaction.
pub fn interaction_base(
    kind: u64,
    id: u64,
    token: &str,
    user: &TestUser,
    channel: &Value,
) -> Value {
    json!({
        "id": id.to_string(),
        "application_id": APP_ID.to_string(),
        "type": kind,
        "guild_id": GUILD_ID.to_string(),
        "channel_id": channel["id"],
        "channel": partial_channel(channel),
        "member": interaction_member(user),
        "token": token,
        "version": 1,
        "app_permissions": BOT_PERMISSIONS.to_string(),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": GUILD_ID.to_string()},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    })
}

/// `data` of an APPLICATION_COMMAND (type 2) or APPLICATION_COMMAND_AUTOCOMPLETE
/// (type 4) interaction. User and member options are resolved the way Discord
/// does it: `resolved.users` / `resolved.members` keyed by id (poise's `User`
/// and `Member` parameters read them, and fail without them).
pub fn command_data(command_id: u64, name: &str, options: &Value) -> Value {
    let mut users = serde_json::Map::new();
    let mut members = serde_json::Map::new();
    collect_user_options(options, &mut |id| {
        if let Some(u) = member_by_id(id) {
            users.insert(id.to_string(), user(u.id, u.name, false));
            members.insert(id.to_string(), resolved_member(&u));
        } else if id == APP_ID {
            users.insert(id.to_string(), bot_user());
        }
    });
    let mut data = json!({
        "id": command_id.to_string(),
        "name": name,
        "type": 1,
        "options": options,
        "guild_id": GUILD_ID.to_string(),
    });
    if !users.is_empty() {
        data["resolved"] = json!({"users": users, "members": members});
    }
    // ATTACHMENT (11) options: Discord sends the id, the object in
    // `resolved.attachments`.
    let mut attachments = serde_json::Map::new();
    if let Some(list) = data["options"].as_array_mut() {
        for opt in list {
            if let Some(a) = opt.as_object_mut().and_then(|o| o.remove("attachment")) {
                let id = a["id"].as_str().unwrap_or("").to_owned();
                attachments.insert(id, a);
            }
        }
    }
    if !attachments.is_empty() {
        data["resolved"]["attachments"] = json!(attachments);
    }
    data
}

/// An ATTACHMENT (11) option for a file from [`super::FakeDiscord::upload`].
pub fn opt_attachment(name: &str, attachment: &Value) -> Value {
    json!({"name": name, "type": 11, "value": attachment["id"], "attachment": attachment})
}

/// Walks (sub)command options and reports the ids of USER (6) and
/// MENTIONABLE (9) values.
fn collect_user_options(options: &Value, f: &mut impl FnMut(u64)) {
    for opt in options.as_array().into_iter().flatten() {
        let kind = opt.get("type").and_then(Value::as_u64);
        if matches!(kind, Some(6) | Some(9))
            && opt.get("focused").is_none()
            && let Some(id) = opt
                .get("value")
                .and_then(Value::as_str)
                .and_then(|s| s.parse().ok())
        {
            f(id);
        }
        if let Some(sub) = opt.get("options") {
            collect_user_options(sub, f);
        }
    }
}

/// `data` of a MESSAGE_COMPONENT (type 3) interaction for a button click.
pub fn button_data(custom_id: &str) -> Value {
    json!({"custom_id": custom_id, "component_type": 2})
}

/// `data` of a MESSAGE_COMPONENT interaction for a string select menu.
pub fn select_data(custom_id: &str, values: &[&str]) -> Value {
    json!({"custom_id": custom_id, "component_type": 3, "values": values})
}

/// A STRING (type 3) option.
pub fn opt_str(name: &str, value: &str) -> Value {
    json!({"name": name, "type": 3, "value": value})
}

/// An INTEGER (type 4) option.
pub fn opt_int(name: &str, value: i64) -> Value {
    json!({"name": name, "type": 4, "value": value})
}

/// A BOOLEAN (type 5) option.
pub fn opt_bool(name: &str, value: bool) -> Value {
    json!({"name": name, "type": 5, "value": value})
}

/// A USER (type 6) option; the harness fills `resolved` for it.
pub fn opt_user(name: &str, user: &TestUser) -> Value {
    json!({"name": name, "type": 6, "value": user.id.to_string()})
}

/// A CHANNEL (type 7) option.
pub fn opt_channel(name: &str, channel_id: u64) -> Value {
    json!({"name": name, "type": 7, "value": channel_id.to_string()})
}

/// The option being typed in an autocomplete interaction: Discord sends the
/// partial text as a string with `focused: true`, whatever the option type.
pub fn opt_focused(name: &str, partial: &str) -> Value {
    json!({"name": name, "type": 3, "value": partial, "focused": true})
}

/// A SUB_COMMAND (type 1) option wrapping its own options.
pub fn opt_sub(name: &str, options: Vec<Value>) -> Value {
    json!({"name": name, "type": 1, "options": options})
}
