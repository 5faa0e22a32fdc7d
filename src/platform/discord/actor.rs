//! Who is asking, in the service's terms: guild → server, channel (or
//! thread) → channel, user id → user, the name people see in this server
//! (nickname, else display name, else username), the client's locale, and
//! whether Discord says they may moderate (Manage Server or Administrator).

use poise::serenity_prelude as serenity;

use crate::service::{Actor, UserRef};

/// The parts of an interaction an [`Actor`] is made of.
pub struct Origin<'a> {
    pub guild_id: Option<serenity::GuildId>,
    pub channel_id: serenity::ChannelId,
    pub user: &'a serenity::User,
    pub member: Option<&'a serenity::Member>,
    pub locale: &'a str,
    pub guild_locale: Option<&'a str>,
}

impl<'a> From<&'a serenity::CommandInteraction> for Origin<'a> {
    fn from(i: &'a serenity::CommandInteraction) -> Self {
        Origin {
            guild_id: i.guild_id,
            channel_id: i.channel_id,
            user: &i.user,
            member: i.member.as_deref(),
            locale: &i.locale,
            guild_locale: i.guild_locale.as_deref(),
        }
    }
}

impl<'a> From<&'a serenity::ComponentInteraction> for Origin<'a> {
    fn from(i: &'a serenity::ComponentInteraction) -> Self {
        Origin {
            guild_id: i.guild_id,
            channel_id: i.channel_id,
            user: &i.user,
            member: i.member.as_ref(),
            locale: &i.locale,
            guild_locale: i.guild_locale.as_deref(),
        }
    }
}

impl<'a> From<&'a serenity::ModalInteraction> for Origin<'a> {
    fn from(i: &'a serenity::ModalInteraction) -> Self {
        Origin {
            guild_id: i.guild_id,
            channel_id: i.channel_id,
            user: &i.user,
            member: i.member.as_ref(),
            locale: &i.locale,
            guild_locale: i.guild_locale.as_deref(),
        }
    }
}

/// The actor, or `None` outside a server (a DM): games and ladders belong
/// to a server.
pub fn actor(origin: Origin<'_>) -> Option<Actor> {
    let guild = origin.guild_id?;
    let name = origin
        .member
        .and_then(|m| m.nick.clone())
        .unwrap_or_else(|| user_name(origin.user));
    let is_moderator = origin
        .member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild() || p.administrator());
    Some(Actor {
        server: guild.to_string(),
        channel: origin.channel_id.to_string(),
        user: origin.user.id.to_string(),
        name,
        locale: (!origin.locale.is_empty()).then(|| origin.locale.to_owned()),
        server_locale: origin
            .guild_locale
            .filter(|l| !l.is_empty())
            .map(str::to_owned),
        is_moderator,
    })
}

/// Another user named in a command option. `nick` is their nickname in this
/// server when Discord resolved it.
pub fn user_ref(user: &serenity::User, nick: Option<&str>) -> UserRef {
    UserRef {
        id: user.id.to_string(),
        name: nick.map_or_else(|| user_name(user), str::to_owned),
    }
}

/// Global display name, else the username.
fn user_name(user: &serenity::User) -> String {
    user.global_name
        .clone()
        .unwrap_or_else(|| user.name.clone())
}
