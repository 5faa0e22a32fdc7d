//! `/move` (with autocomplete), `/board`, `/resign`, `/draw`, `/abort`,
//! `/takeback`, `/board-orientation`.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::run;
use crate::{
    platform::discord::{Context, Error},
    service::{Command, DrawAction, TakebackAction},
};

/// Discord shows at most 25 autocomplete choices.
const SUGGESTIONS: usize = 25;
/// Autocomplete must answer within Discord's 3 s like everything else;
/// no suggestions beat a failed box.
const SUGGEST_TIMEOUT: Duration = Duration::from_millis(1500);

/// Legal moves of this channel's game in SAN that start with what was typed.
pub async fn complete_move(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    if !ctx
        .data()
        .service
        .allow_autocomplete(&ctx.author().id.to_string())
    {
        return serenity::CreateAutocompleteResponse::new();
    }
    let channel = ctx.channel_id().to_string();
    let service = &ctx.data().service;
    // An open puzzle takes the answer when no game of the asker's is here.
    let suggestions = async {
        if let Some(guild) = ctx.guild_id() {
            let (guild, user) = (guild.to_string(), ctx.author().id.to_string());
            let puzzle =
                service.puzzle_move_suggestions(&guild, &channel, &user, partial, SUGGESTIONS);
            if let Some(moves) = puzzle.await {
                return moves;
            }
        }
        service
            .move_suggestions(&channel, partial, SUGGESTIONS)
            .await
    };
    let moves = tokio::time::timeout(SUGGEST_TIMEOUT, suggestions)
        .await
        .unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(
        moves
            .into_iter()
            .map(|san| serenity::AutocompleteChoice::new(san.clone(), san))
            .collect(),
    )
}

/// Play a move in this channel's game.
#[poise::command(slash_command, guild_only, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[rename = "move"]
    #[description = "Your move: e4, Nf3, exd5, O-O, e8=Q, or e2e4"]
    #[autocomplete = "complete_move"]
    #[max_length = 32]
    text: String,
    #[description = "Also claim the draw (repetition / 50 moves) this move creates"]
    claim_draw: Option<bool>,
) -> Result<(), Error> {
    let command = Command::Move {
        text,
        claim_draw: claim_draw.unwrap_or(false),
    };
    run(ctx, command).await
}

/// Show this channel's board again.
#[poise::command(slash_command, guild_only)]
pub async fn board(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Board).await
}

/// Open this channel's board inside Discord (an Activity).
#[poise::command(slash_command, guild_only)]
pub async fn activity(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let target = crate::platform::discord::respond::Target::from(app.interaction);
    let lang = crate::i18n::Lang::from_locale(Some(app.interaction.locale.as_str()));
    crate::platform::discord::activity::launch(ctx.http(), ctx.data(), &target, lang).await;
    Ok(())
}

/// Resign this channel's game (you will be asked to confirm).
#[poise::command(slash_command, guild_only)]
pub async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Resign { confirmed: false }).await
}

/// What to do about a draw.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum DrawOption {
    #[name = "offer"]
    Offer,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
    #[name = "claim"]
    Claim,
}

/// Offer, accept, decline or claim a draw.
#[poise::command(slash_command, guild_only)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "offer, accept or decline a draw; claim a repetition or the 50-move rule"]
    action: DrawOption,
) -> Result<(), Error> {
    let action = match action {
        DrawOption::Offer => DrawAction::Offer,
        DrawOption::Accept => DrawAction::Accept,
        DrawOption::Decline => DrawAction::Decline,
        DrawOption::Claim => DrawAction::Claim,
    };
    run(ctx, Command::Draw { action }).await
}

/// Call off this channel's game before both sides have moved.
#[poise::command(slash_command, guild_only)]
pub async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Abort).await
}

/// What to do about a takeback.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TakebackOption {
    #[name = "request"]
    Request,
    #[name = "accept"]
    Accept,
    #[name = "decline"]
    Decline,
}

/// Ask to take back your last move (casual games only), or answer a request.
#[poise::command(slash_command, guild_only)]
pub async fn takeback(
    ctx: Context<'_>,
    #[description = "request (default), or accept / decline your opponent's request"]
    action: Option<TakebackOption>,
) -> Result<(), Error> {
    let action = match action {
        None | Some(TakebackOption::Request) => TakebackAction::Request,
        Some(TakebackOption::Accept) => TakebackAction::Accept,
        Some(TakebackOption::Decline) => TakebackAction::Decline,
    };
    run(ctx, Command::Takeback { action }).await
}

/// Which side is at the bottom of the boards drawn on your move.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SideOption {
    #[name = "auto"]
    Auto,
    #[name = "white"]
    White,
}

/// How boards are drawn for you: from your side (auto) or White at the bottom.
#[poise::command(slash_command, guild_only, rename = "board-orientation")]
pub async fn board_orientation(
    ctx: Context<'_>,
    #[description = "auto: from the side of the player to move; white: White always at the bottom"]
    side: SideOption,
) -> Result<(), Error> {
    let white = matches!(side, SideOption::White);
    run(ctx, Command::BoardOrientation { white }).await
}
