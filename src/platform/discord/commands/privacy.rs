//! `/privacy show` and `/privacy forget`: a member's own data, exported or
//! erased (Discord's developer policy requires honouring such requests).

use super::run;
use crate::{
    platform::discord::{Context, Error},
    service::Command,
};

/// Your data: see what the bot stores about you, or erase it.
#[poise::command(slash_command, guild_only, subcommands("show", "forget"))]
pub async fn privacy(_ctx: Context<'_>) -> Result<(), Error> {
    // Discord only ever invokes the subcommands.
    Ok(())
}

/// What the bot stores about you, as a JSON file only you see.
#[poise::command(slash_command, guild_only)]
pub async fn show(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::PrivacyShow).await
}

/// Erase your id and name from the bot's data (asks you to confirm).
#[poise::command(slash_command, guild_only)]
pub async fn forget(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::PrivacyForget { confirmed: false }).await
}
