//! `/conditional add|list|clear`: answers entered in advance in
//! correspondence games (issue 19). Every answer is private.

use super::run;
use crate::{
    platform::discord::{Context, Error},
    service::{Command, ConditionalAction},
};

/// Correspondence games: answers played the moment your opponent moves.
#[poise::command(slash_command, guild_only, subcommands("add", "list", "clear"))]
pub async fn conditional(_ctx: Context<'_>) -> Result<(), Error> {
    // Discord only ever invokes the subcommands.
    Ok(())
}

/// Add a line: their move, your answer, their move, … (only you see it).
#[poise::command(slash_command, guild_only)]
pub async fn add(
    ctx: Context<'_>,
    #[description = "Moves in order, e.g. Nxd5 Qxd5 Nc3 (on your own turn, start with your move)"]
    #[max_length = 2000]
    line: String,
) -> Result<(), Error> {
    run(
        ctx,
        Command::Conditional {
            action: ConditionalAction::Add { line },
        },
    )
    .await
}

/// Your conditional moves in this game (only you see them).
#[poise::command(slash_command, guild_only)]
pub async fn list(ctx: Context<'_>) -> Result<(), Error> {
    run(
        ctx,
        Command::Conditional {
            action: ConditionalAction::List,
        },
    )
    .await
}

/// Remove all your conditional moves in this game.
#[poise::command(slash_command, guild_only)]
pub async fn clear(ctx: Context<'_>) -> Result<(), Error> {
    run(
        ctx,
        Command::Conditional {
            action: ConditionalAction::Clear,
        },
    )
    .await
}
