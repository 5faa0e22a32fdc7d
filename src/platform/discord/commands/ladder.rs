//! `/games`, `/leaderboard`, `/profile`, `/history`, `/pgn`, `/replay`,
//! `/rating`.

use poise::serenity_prelude as serenity;

use super::{run, user_option};
use crate::{
    platform::discord::{Context, Error},
    service::Command,
};

/// The games going on in this server.
#[poise::command(slash_command, guild_only)]
pub async fn games(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Games).await
}

/// Which ladder `/leaderboard` shows.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum BoardOption {
    #[name = "games"]
    Games,
    #[name = "puzzles"]
    Puzzles,
}

/// This server's ladder.
#[poise::command(slash_command, guild_only)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Page (default 1)"]
    #[min = 1]
    #[max = 1000]
    page: Option<i64>,
    #[description = "The games' ladder (default) or the puzzle ladder"] board: Option<BoardOption>,
    #[description = "The variant's own ladder (default: standard chess)"] variant: Option<
        super::challenge::VariantOption,
    >,
) -> Result<(), Error> {
    let page = page.unwrap_or(1);
    let command = match board {
        Some(BoardOption::Puzzles) => Command::PuzzleLeaderboard { page },
        None | Some(BoardOption::Games) => Command::Leaderboard {
            page,
            variant: variant.map(|v| v.key().to_owned()),
        },
    };
    run(ctx, command).await
}

/// Which puzzle `/puzzle` gives.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum PuzzleSource {
    /// One near your puzzle points (rated).
    #[name = "near"]
    Near,
    /// Today's daily puzzle, privately.
    #[name = "daily"]
    Daily,
    /// One from your own mistakes (after `/analyze` of your game).
    #[name = "mine"]
    Mine,
}

/// A puzzle by your puzzle points, today's daily one, or one from your mistakes; answer with /move.
#[poise::command(slash_command, guild_only)]
pub async fn puzzle(
    ctx: Context<'_>,
    #[description = "near: by your puzzle points (default); daily: today's; mine: from your own mistakes"]
    source: Option<PuzzleSource>,
) -> Result<(), Error> {
    let command = match source {
        None | Some(PuzzleSource::Near) => Command::Puzzle,
        Some(PuzzleSource::Daily) => Command::DailyPuzzle,
        Some(PuzzleSource::Mine) => Command::MistakePuzzle,
    };
    run(ctx, command).await
}

/// A player's points, level and record.
#[poise::command(slash_command, guild_only)]
pub async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.as_ref().map(|u| user_option(ctx, u));
    run(ctx, Command::Profile { user }).await
}

/// A player's recent games.
#[poise::command(slash_command, guild_only)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.as_ref().map(|u| user_option(ctx, u));
    run(ctx, Command::History { user }).await
}

/// A game's PGN.
#[poise::command(slash_command, guild_only)]
pub async fn pgn(
    ctx: Context<'_>,
    #[description = "Game number (default: this channel's game)"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Pgn { game }).await
}

/// The engine's review of a finished game: advantage chart, accuracy, blunders.
#[poise::command(slash_command, guild_only)]
pub async fn analyze(
    ctx: Context<'_>,
    #[description = "Game number (default: this channel's latest game)"]
    #[min = 1]
    game: Option<i64>,
    #[description = "Or any game in PGN, pasted: 1. e4 e5 2. Nf3 Nc6 …"]
    #[max_length = 6000]
    pgn: Option<String>,
    #[description = "Or any game in PGN, as a .pgn file"] file: Option<
        poise::serenity_prelude::Attachment,
    >,
) -> Result<(), Error> {
    let pgn = match super::show::pasted_text(ctx, pgn, file).await {
        Ok(pgn) => pgn,
        Err(refusal) => return super::refuse(ctx, &refusal).await,
    };
    run(ctx, Command::Analyze { game, pgn }).await
}

/// A game as an animated GIF, move by move.
#[poise::command(slash_command, guild_only)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "Game number (default: this channel's newest game)"]
    #[min = 1]
    game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Replay { game }).await
}

/// What a win, draw or loss against someone would do to your points.
#[poise::command(slash_command, guild_only)]
pub async fn rating(
    ctx: Context<'_>,
    #[description = "Your would-be opponent"] opponent: serenity::User,
) -> Result<(), Error> {
    let opponent = user_option(ctx, &opponent);
    run(ctx, Command::RatingPreview { opponent }).await
}
