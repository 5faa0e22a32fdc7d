//! Errors at the edge: which Discord permission a failed request was
//! missing, startup errors worth one clear line (a rejected token), and
//! poise's framework errors turned into short private answers.
//!
//! Errors are described by status and Discord's JSON code only, never by
//! URL: webhook URLs carry interaction tokens.

use poise::serenity_prelude as serenity;
use serenity::{GatewayError, HttpError};

use super::{Data, Error};
use crate::{
    i18n::{join_list, Lang},
    t,
};

/// Discord's "Missing Permissions" and "Missing Access" JSON codes.
const MISSING_PERMISSIONS: isize = 50013;
const MISSING_ACCESS: isize = 50001;

/// The HTTP status and JSON code of a failed request, if it was one.
fn response(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// Whether Discord refused a request for lack of a permission.
pub fn is_missing_permission(e: &serenity::Error) -> bool {
    matches!(
        response(e),
        Some((403, _)) | Some((_, MISSING_PERMISSIONS | MISSING_ACCESS))
    )
}

/// A log-safe description of a serenity error.
pub fn describe(e: &serenity::Error) -> String {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => format!(
            "HTTP {} {} (code {}: {})",
            r.method, r.status_code, r.error.code, r.error.message
        ),
        other => other.to_string(),
    }
}

/// The error with its sources, for start-up failures (whose URLs carry no
/// interaction token): network errors say what failed only there.
fn with_sources(e: &serenity::Error) -> String {
    let mut text = describe(e);
    let mut last = text.clone();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        let line = cause.to_string();
        if line != last {
            text.push_str(": ");
            text.push_str(&line);
        }
        last = line;
        source = cause.source();
    }
    text
}

/// One clear line for errors that stop the bot from starting. A token
/// Discord refuses (HTTP 401, gateway close 4004) says so, without the token.
pub fn startup_error(e: serenity::Error) -> anyhow::Error {
    let rejected = matches!(response(&e), Some((401, _)))
        || matches!(
            e,
            serenity::Error::Gateway(GatewayError::InvalidAuthentication)
        );
    if rejected {
        anyhow::anyhow!("Discord rejected the bot token: check DISCORD_TOKEN (Bot tab of your application in the Developer Portal)")
    } else {
        anyhow::anyhow!("cannot connect to Discord: {}", with_sources(&e))
    }
}

/// The sentence a user reads when the bot lacks `permission` for `what`
/// (already in `lang`).
pub fn missing_permission_text(lang: Lang, permission: &str, what: &str) -> String {
    t!(
        lang,
        "discord-missing-permission",
        what = what,
        permission = permission_label(lang, permission)
    )
}

/// Permission names as Discord's client shows them in `lang` (serenity
/// says "Manage Guild" where users read "Manage Server").
pub fn permission_names(lang: Lang, p: serenity::Permissions) -> String {
    let names: Vec<String> = p
        .get_permission_names()
        .into_iter()
        .map(|name| match name {
            "Manage Guild" => "Manage Server",
            other => other,
        })
        .map(|name| permission_label(lang, name))
        .collect();
    join_list(lang, names)
}

/// A permission's name as the reader's Discord client shows it (the
/// Chinese client's words, with the English name beside them for the
/// many moderators who run Discord in English); names the bot never asks
/// for stay as Discord spells them in English.
fn permission_label(lang: Lang, name: &str) -> String {
    match name {
        "Create Public Threads" => t!(lang, "discord-perm-create-public-threads"),
        "Send Messages in Threads" => t!(lang, "discord-perm-send-in-threads"),
        "Embed Links" => t!(lang, "discord-perm-embed-links"),
        "Attach Files" => t!(lang, "discord-perm-attach-files"),
        "Manage Server" => t!(lang, "discord-perm-manage-server"),
        "Send Messages" => t!(lang, "discord-perm-send-messages"),
        "View Channel" => t!(lang, "discord-perm-view-channel"),
        other => other.to_owned(),
    }
}

/// poise's errors: what the user did wrong (or may not do) becomes a
/// private answer; anything else is logged once and apologised for.
pub async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    use poise::FrameworkError as F;
    let lang_of = |ctx: &poise::Context<'_, Data, Error>| Lang::from_locale(ctx.locale());
    let (ctx, text) = match error {
        F::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().qualified_name, error = %error, "command failed");
            (ctx, t!(lang_of(&ctx), "discord-apology"))
        }
        F::ArgumentParse {
            error, input, ctx, ..
        } => {
            let what = input
                .map(|i| format!(" `{}`", super::reply::cut(&i, 50)))
                .unwrap_or_default();
            (
                ctx,
                t!(
                    lang_of(&ctx),
                    "discord-bad-option",
                    what = what,
                    error = error.to_string()
                ),
            )
        }
        F::MissingUserPermissions {
            missing_permissions,
            ctx,
            ..
        } => {
            let names = missing_permissions
                .map(|p| permission_names(lang_of(&ctx), p))
                .unwrap_or_else(|| t!(lang_of(&ctx), "discord-perm-required"));
            (
                ctx,
                t!(
                    lang_of(&ctx),
                    "discord-members-only",
                    names = names,
                    command = ctx.command().name.as_ref()
                ),
            )
        }
        F::MissingBotPermissions {
            missing_permissions,
            ctx,
            ..
        } => {
            let names = permission_names(lang_of(&ctx), missing_permissions);
            (
                ctx,
                t!(
                    lang_of(&ctx),
                    "discord-bot-needs",
                    names = names,
                    command = ctx.command().name.as_ref()
                ),
            )
        }
        F::GuildOnly { ctx, .. } => (ctx, t!(lang_of(&ctx), "discord-server-only")),
        F::CommandCheckFailed { error, ctx, .. } => {
            if let Some(e) = error {
                tracing::error!(command = %ctx.command().qualified_name, error = %e, "command check failed");
            }
            (ctx, t!(lang_of(&ctx), "discord-not-here"))
        }
        F::Setup { error, .. } => {
            tracing::error!(error = %error, "setup failed");
            return;
        }
        F::EventHandler { error, event, .. } => {
            tracing::error!(event = event.snake_case_name(), error = %error, "event handler failed");
            return;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %describe(&e), "answering a framework error failed");
            }
            return;
        }
    };
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(e) = ctx.send(reply).await {
        tracing::warn!(error = %describe(&e), "could not tell the user about an error");
    }
}
