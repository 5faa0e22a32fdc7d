//! `/settings` (Manage Server only), the personal `/notify` and
//! `/vacation`, and `/help`.

use poise::serenity_prelude as serenity;

use super::{lang_of, refuse, run};
use crate::{
    platform::discord::{Context, Error},
    render::Theme,
    service::{Command, Setting},
    t,
};

/// Board themes offered by `/settings theme` (the renderer's built-ins; a
/// unit test keeps the two lists equal).
pub const THEMES: [&str; 3] = ["brown", "blue", "green"];

/// Show or change this server's settings (moderators).
///
/// Discord hides the command from members without Manage Server
/// (`default_member_permissions`); the check guards against servers that
/// re-enable it for everyone.
#[poise::command(
    slash_command,
    guild_only,
    default_member_permissions = "MANAGE_GUILD",
    required_permissions = "MANAGE_GUILD"
)]
#[allow(clippy::too_many_arguments)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "Default time control for new challenges (3d, 10+5, …)"]
    #[autocomplete = "super::challenge::complete_time"]
    #[max_length = 32]
    time: Option<String>,
    #[description = "Play each game in its own thread"] threads: Option<bool>,
    #[description = "Let anyone with a game's link watch its live board"] spectators: Option<bool>,
    #[description = "The club's pages on the web: off, link (unlisted address) or public"]
    #[choices("off", "link", "public")]
    web: Option<&'static str>,
    #[description = "Board colours"]
    #[choices("brown", "blue", "green")]
    theme: Option<&'static str>,
    #[description = "House rule: the third attempt to move the king into check loses the game"]
    strict_illegal_moves: Option<bool>,
    #[description = "Hours before an unanswered challenge expires (1-336)"]
    #[min = 1]
    #[max = 336]
    challenge_hours: Option<i64>,
    #[description = "Rated games the same two players may play per day (0: no limit)"]
    #[min = 0]
    #[max = 100]
    rated_per_pair_daily: Option<i64>,
    #[description = "Vacation days each player may take per year (0-60)"]
    #[min = 0]
    #[max = 60]
    vacation_days: Option<i64>,
    #[description = "Hours before a correspondence deadline to remind the player, e.g. 24,1"]
    #[max_length = 32]
    reminders: Option<String>,
    #[description = "Instead of changing anything: show the audit log, this page (1 = newest)"]
    #[min = 1]
    #[max = 10000]
    log: Option<i64>,
    #[description = "Language of public messages (auto: the server's Discord language)"]
    #[choices("auto", "en", "zh-CN")]
    language: Option<&'static str>,
    #[description = "How moves are written: letters (Nf3), chinese (马f3), auto (by language)"]
    #[choices("auto", "letters", "chinese")]
    notation: Option<&'static str>,
    #[description = "Hours in one session of a live game before it is adjourned (1-12)"]
    #[min = 1]
    #[max = 12]
    session_hours: Option<i64>,
    #[description = "The server's time zone for resumption times, as UTC+8 or -5:30"]
    #[max_length = 16]
    time_zone: Option<String>,
    #[description = "The channel the daily puzzle is posted in"]
    #[channel_types("Text")]
    puzzle_channel: Option<serenity::ChannelId>,
    #[description = "The hour of the daily puzzle in the server's time zone (0-23, e.g. 9 or 21:00), or off"]
    #[max_length = 8]
    puzzle_time: Option<String>,
    #[description = "Find puzzles in every finished game of this server, in the background"]
    puzzles: Option<bool>,
) -> Result<(), Error> {
    if theme.is_some_and(|t| Theme::by_name(t).is_none()) {
        return refuse(ctx, &t!(lang_of(ctx), "discord-theme-unavailable")).await;
    }
    let reminders = match reminders.map(|text| {
        text.split(',')
            .map(|h| h.trim().parse::<i64>())
            .collect::<Result<Vec<_>, _>>()
    }) {
        Some(Err(_)) => {
            return refuse(ctx, &t!(lang_of(ctx), "discord-reminders-list")).await;
        }
        Some(Ok(hours)) => Some(hours),
        None => None,
    };
    let changes: Vec<Setting> = [
        time.map(Setting::DefaultTime),
        threads.map(Setting::Threads),
        spectators.map(Setting::Spectators),
        web.map(|w| Setting::WebPages(w.to_owned())),
        theme.map(|t| Setting::Theme(t.to_owned())),
        strict_illegal_moves.map(Setting::StrictIllegalMoves),
        challenge_hours.map(Setting::ChallengeHours),
        rated_per_pair_daily.map(Setting::RatedGamesPerPairDaily),
        vacation_days.map(Setting::VacationDaysPerYear),
        reminders.map(Setting::ReminderHours),
        language.map(|l| Setting::Language(l.to_owned())),
        notation.map(|n| Setting::Notation(n.to_owned())),
        session_hours.map(Setting::SessionHours),
        time_zone.map(Setting::TimeZone),
        puzzle_channel.map(|c| Setting::PuzzleChannel(Some(c.get().to_string()))),
        puzzle_time.map(Setting::PuzzleTime),
        puzzles.map(Setting::PuzzleMining),
    ]
    .into_iter()
    .flatten()
    .collect();
    // Discord lets a command take options or have subcommands, not both:
    // `/settings log:N` stands for `/settings log [page]`.
    if let Some(page) = log {
        if !changes.is_empty() {
            return refuse(
                ctx,
                "Either change settings or read the audit log (`log`), not both at once.",
            )
            .await;
        }
        return run(ctx, Command::SettingsLog { page }).await;
    }
    run(ctx, Command::Settings { changes }).await
}

/// How you are reminded that a correspondence game waits for your move.
#[poise::command(slash_command, guild_only)]
pub async fn notify(
    ctx: Context<'_>,
    #[description = "dm: one summary a day by direct message; channel: a mention in the game"]
    #[choices("dm", "channel")]
    mode: &'static str,
) -> Result<(), Error> {
    let changes = vec![Setting::NotifyByDm(mode == "dm")];
    run(ctx, Command::Settings { changes }).await
}

/// Take a vacation: your correspondence deadlines pause (0 ends it early).
#[poise::command(slash_command, guild_only)]
pub async fn vacation(
    ctx: Context<'_>,
    #[description = "Days of vacation (0 ends a running vacation)"]
    #[min = 0]
    #[max = 60]
    days: i64,
) -> Result<(), Error> {
    run(ctx, Command::Vacation { days }).await
}

/// How to play, and every command.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Help).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theme_choices_are_the_renderers_themes() {
        let names: Vec<&str> = Theme::names().collect();
        assert_eq!(names, THEMES);
    }
}
