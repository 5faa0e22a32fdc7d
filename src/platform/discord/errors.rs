//! Errors at the edge: which Discord permission a failed request was
//! missing, startup errors worth one clear line (a rejected token), and
//! poise's framework errors turned into short private answers.
//!
//! Errors are described by status and Discord's JSON code only, never by
//! URL: webhook URLs carry interaction tokens.

use poise::serenity_prelude as serenity;
use serenity::{GatewayError, HttpError};

use super::{Data, Error};
use crate::{i18n::Lang, t};

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
        permission = permission
    )
}

/// Permission names as Discord's client shows them (serenity says "Manage
/// Guild" where users read "Manage Server").
pub fn permission_names(p: serenity::Permissions) -> String {
    p.get_permission_names()
        .into_iter()
        .map(|name| match name {
            "Manage Guild" => "Manage Server",
            other => other,
        })
        .collect::<Vec<_>>()
        .join(", ")
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
                .map(permission_names)
                .unwrap_or_else(|| "the required permissions".to_owned());
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
            let names = permission_names(missing_permissions);
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
