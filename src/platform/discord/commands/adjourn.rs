//! `/adjourn offer|accept|decline|now|resume` and `/seal` (adjourned games,
//! 封棋), and `/title` (a member's FIDE title). The service decides who may
//! do what (moderators adjourn as the arbiter and set resumption times and
//! titles; players agree on a resumption time); `/seal`'s answer is private.

use poise::serenity_prelude as serenity;

use super::{run, user_option};
use crate::{
    platform::discord::{Context, Error},
    service::{AdjournAction, Command},
};

/// Adjourn this channel's live game and resume it later (封棋).
#[poise::command(
    slash_command,
    guild_only,
    subcommands("offer", "accept", "decline", "now", "resume")
)]
pub async fn adjourn(_ctx: Context<'_>) -> Result<(), Error> {
    // Discord only ever invokes the subcommands.
    Ok(())
}

async fn act(ctx: Context<'_>, action: AdjournAction) -> Result<(), Error> {
    run(ctx, Command::Adjourn { action }).await
}

/// Offer your opponent to adjourn the game.
#[poise::command(slash_command, guild_only)]
pub async fn offer(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, AdjournAction::Offer).await
}

/// Agree to your opponent's offer to adjourn.
#[poise::command(slash_command, guild_only)]
pub async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, AdjournAction::Accept).await
}

/// Decline your opponent's offer to adjourn.
#[poise::command(slash_command, guild_only)]
pub async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, AdjournAction::Decline).await
}

/// Adjourn the game now, as the arbiter (moderators).
#[poise::command(slash_command, guild_only)]
pub async fn now(ctx: Context<'_>) -> Result<(), Error> {
    act(ctx, AdjournAction::Now).await
}

/// Propose when play resumes (your opponent agrees by giving the same time; moderators set it).
#[poise::command(slash_command, guild_only)]
pub async fn resume(
    ctx: Context<'_>,
    #[description = "Date and time in the server's time zone: YYYY-MM-DD HH:MM"]
    #[max_length = 40]
    when: String,
) -> Result<(), Error> {
    act(ctx, AdjournAction::Resume { when }).await
}

/// Seal your move in an adjourned game (only you see it until play resumes).
#[poise::command(slash_command, guild_only)]
pub async fn seal(
    ctx: Context<'_>,
    #[rename = "move"]
    #[description = "The move to seal; leave out to see the move you sealed"]
    #[autocomplete = "super::play::complete_move"]
    #[max_length = 32]
    text: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Seal { text }).await
}

/// Give a member a FIDE title, shown before their name (moderators).
#[poise::command(slash_command, guild_only)]
pub async fn title(
    ctx: Context<'_>,
    #[description = "The member"] user: serenity::User,
    #[description = "The title, or none to take it away"]
    #[choices("GM", "IM", "FM", "WGM", "WIM", "none")]
    title: &'static str,
) -> Result<(), Error> {
    let user = user_option(ctx, &user);
    run(
        ctx,
        Command::Title {
            user,
            title: title.to_owned(),
        },
    )
    .await
}
