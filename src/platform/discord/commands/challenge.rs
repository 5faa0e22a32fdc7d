//! `/challenge`, `/accept`, `/decline`, `/cancel`.

use poise::serenity_prelude as serenity;

use std::time::Duration;

use super::{refuse, run, user_option};
use crate::{
    platform::discord::{
        actor::{actor, Origin},
        Context, Error,
    },
    service::{ColorChoice, Command},
};

/// Discord shows at most 25 autocomplete choices.
const SUGGESTIONS: usize = 25;
/// Autocomplete must answer within Discord's 3 s; no suggestions beat a
/// failed box.
const SUGGEST_TIMEOUT: Duration = Duration::from_millis(1500);

/// The colour a challenger asks for.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ColorOption {
    #[name = "White"]
    White,
    #[name = "Black"]
    Black,
    #[name = "Random"]
    Random,
}

/// The variants offered, named by lichess's keys (the Chinese names come
/// from the catalogue, `localize.rs`). The service reads the key.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum VariantOption {
    #[name = "standard"]
    Standard,
    #[name = "chess960"]
    Chess960,
    #[name = "crazyhouse"]
    Crazyhouse,
    #[name = "atomic"]
    Atomic,
    #[name = "antichess"]
    Antichess,
    #[name = "kingofthehill"]
    KingOfTheHill,
    #[name = "threecheck"]
    ThreeCheck,
    #[name = "horde"]
    Horde,
    #[name = "racingkings"]
    RacingKings,
}

impl VariantOption {
    /// The key the service reads.
    pub fn key(self) -> &'static str {
        let variant = match self {
            VariantOption::Standard => crate::chess::Variant::Standard,
            VariantOption::Chess960 => crate::chess::Variant::Chess960,
            VariantOption::Crazyhouse => crate::chess::Variant::Crazyhouse,
            VariantOption::Atomic => crate::chess::Variant::Atomic,
            VariantOption::Antichess => crate::chess::Variant::Antichess,
            VariantOption::KingOfTheHill => crate::chess::Variant::KingOfTheHill,
            VariantOption::ThreeCheck => crate::chess::Variant::ThreeCheck,
            VariantOption::Horde => crate::chess::Variant::Horde,
            VariantOption::RacingKings => crate::chess::Variant::RacingKings,
        };
        variant.key()
    }
}

impl From<ColorOption> for ColorChoice {
    fn from(c: ColorOption) -> Self {
        match c {
            ColorOption::White => ColorChoice::White,
            ColorOption::Black => ColorChoice::Black,
            ColorOption::Random => ColorChoice::Random,
        }
    }
}

/// Time controls offered while typing; any other the service reads is
/// accepted too.
pub const TIME_PRESETS: [(&str, &str); 9] = [
    ("1d", "1 day per move"),
    ("3d", "3 days per move"),
    ("7d", "7 days per move"),
    ("14d", "14 days per move"),
    ("30+0", "live: 30 minutes each"),
    ("15+10", "live: 15 minutes + 10 s per move"),
    ("10+5", "live: 10 minutes + 5 s per move"),
    ("5+3", "live: 5 minutes + 3 s per move"),
    ("3+2", "live: 3 minutes + 2 s per move"),
];

/// Time-control suggestions: the presets that start with what was typed,
/// or what was typed itself when none does.
pub async fn complete_time(
    _ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    serenity::CreateAutocompleteResponse::new().set_choices(time_choices(partial))
}

pub fn time_choices(partial: &str) -> Vec<serenity::AutocompleteChoice> {
    let partial = partial.trim();
    let mut choices: Vec<serenity::AutocompleteChoice> = TIME_PRESETS
        .iter()
        .filter(|(value, _)| value.starts_with(partial))
        .map(|(value, label)| {
            serenity::AutocompleteChoice::new(format!("{value} ({label})"), *value)
        })
        .collect();
    if choices.is_empty() && !partial.is_empty() && partial.chars().count() <= 32 {
        choices.push(serenity::AutocompleteChoice::new(partial, partial));
    }
    choices
}

/// Challenge someone (or anyone) to a game.
#[allow(clippy::too_many_arguments)] // one argument per Discord option
#[poise::command(slash_command, guild_only)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play; leave out for an open challenge anyone can accept"]
    opponent: Option<serenity::User>,
    #[description = "The colour you play (default: random)"] color: Option<ColorOption>,
    #[description = "Whether the game counts for the ladder (default: yes)"] rated: Option<bool>,
    #[description = "Time control: 3d (days per move) or 10+5 (minutes + seconds per move)"]
    #[autocomplete = "complete_time"]
    #[max_length = 32]
    time: Option<String>,
    #[description = "Start from this position (FEN) instead of the usual one"]
    #[max_length = 100]
    fen: Option<String>,
    #[description = "The rules: standard chess (default), chess960 or a lichess variant"]
    variant: Option<VariantOption>,
    #[description = "Chess960 start position, 0 to 959 (default: drawn at random)"]
    #[min = 0]
    #[max = 959]
    position: Option<i64>,
) -> Result<(), Error> {
    if opponent
        .as_ref()
        .is_some_and(|u| u.id == ctx.framework().bot_id())
    {
        // Challenging the bot itself: a game against the computer.
        let command = Command::Play {
            level: i64::from(crate::engine::level::FOR_CHALLENGE),
            color: color.map_or(ColorChoice::Random, ColorChoice::from),
            time,
            variant: variant.map(|v| v.key().to_owned()),
            position,
        };
        return run(ctx, command).await;
    }
    if opponent.as_ref().is_some_and(|u| u.bot) {
        return refuse(ctx, "Bots can't play here: challenge a person, or leave out the opponent for an open challenge.").await;
    }
    let opponent = opponent.as_ref().map(|u| user_option(ctx, u));
    let command = Command::Challenge {
        opponent,
        color: color.map_or(ColorChoice::Random, ColorChoice::from),
        rated,
        time,
        fen,
        variant: variant.map(|v| v.key().to_owned()),
        position,
    };
    run(ctx, command).await
}

/// Play the computer (Stockfish), unrated.
#[poise::command(slash_command, guild_only)]
pub async fn play(
    ctx: Context<'_>,
    #[description = "1 (beginner) to 8 (full strength)"]
    #[min = 1]
    #[max = 8]
    level: u8,
    #[description = "The colour you play (default: random)"] color: Option<ColorOption>,
    #[description = "Time control: 3d (days per move) or 10+5 (minutes + seconds per move)"]
    #[autocomplete = "complete_time"]
    #[max_length = 32]
    time: Option<String>,
    #[description = "The rules: standard chess (default), chess960 or a lichess variant"]
    variant: Option<VariantOption>,
    #[description = "Chess960 start position, 0 to 959 (default: drawn at random)"]
    #[min = 0]
    #[max = 959]
    position: Option<i64>,
) -> Result<(), Error> {
    let command = Command::Play {
        level: i64::from(level),
        color: color.map_or(ColorChoice::Random, ColorChoice::from),
        time,
        variant: variant.map(|v| v.key().to_owned()),
        position,
    };
    run(ctx, command).await
}

/// Pending challenges of this channel, by number, that the asker may
/// answer (`own == false`) or withdraw (`own`).
async fn challenge_choices(
    ctx: Context<'_>,
    partial: &str,
    own: bool,
) -> serenity::CreateAutocompleteResponse {
    let poise::Context::Application(app) = ctx else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let Some(actor) = actor(Origin::from(app.interaction)) else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let suggestions = ctx
        .data()
        .service
        .challenge_suggestions(&actor, own, partial, SUGGESTIONS);
    let found = tokio::time::timeout(SUGGEST_TIMEOUT, suggestions)
        .await
        .unwrap_or_default();
    serenity::CreateAutocompleteResponse::new().set_choices(
        found
            .into_iter()
            .map(|(label, id)| {
                // Discord caps a choice's name at 100 characters.
                let label: String = label.chars().take(100).collect();
                serenity::AutocompleteChoice::new(label, id)
            })
            .collect(),
    )
}

/// Challenges the asker may accept or decline.
pub async fn complete_answerable(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    challenge_choices(ctx, partial, false).await
}

/// The asker's own challenges.
pub async fn complete_own(ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    challenge_choices(ctx, partial, true).await
}

/// Accept a challenge waiting for you in this channel.
#[poise::command(slash_command, guild_only)]
pub async fn accept(
    ctx: Context<'_>,
    #[description = "Which challenge (its number; needed when several wait)"]
    #[autocomplete = "complete_answerable"]
    #[min = 1]
    challenge: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Accept { challenge }).await
}

/// Decline a challenge waiting for you in this channel.
#[poise::command(slash_command, guild_only)]
pub async fn decline(
    ctx: Context<'_>,
    #[description = "Which challenge (its number; needed when several wait)"]
    #[autocomplete = "complete_answerable"]
    #[min = 1]
    challenge: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Decline { challenge }).await
}

/// Withdraw a challenge of yours in this channel.
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Which challenge (its number; needed when you have several here)"]
    #[autocomplete = "complete_own"]
    #[min = 1]
    challenge: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Command::Cancel { challenge }).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(partial: &str) -> Vec<String> {
        time_choices(partial)
            .iter()
            .map(|c| {
                serde_json::to_value(c).expect("json")["value"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn time_suggestions_follow_what_is_typed() {
        assert_eq!(values("1"), ["1d", "14d", "15+10", "10+5"]);
        assert_eq!(values("3d"), ["3d"]);
        assert_eq!(values("2d"), ["2d"]);
        assert_eq!(values("").len(), TIME_PRESETS.len());
    }
}
