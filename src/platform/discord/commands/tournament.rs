//! `/tournament create|join|leave|withdraw|start|list|info|pairings|
//! standings|export|result|pause|resume|cancel|remove`: club competitions
//! (issue 14). Each subcommand only turns its options into a
//! [`TournamentCommand`]; the service checks every value.

use poise::serenity_prelude as serenity;

use super::{challenge::complete_time, run, user_option};
use crate::{
    platform::discord::{Context, Error},
    service::{Command, TournamentCommand, TournamentOptions},
};

/// The formats offered.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum FormatOption {
    #[name = "swiss"]
    Swiss,
    #[name = "roundrobin"]
    RoundRobin,
    #[name = "double-roundrobin"]
    DoubleRoundRobin,
    #[name = "groups"]
    Groups,
    #[name = "knockout"]
    Knockout,
    #[name = "team"]
    Team,
}

impl FormatOption {
    fn id(self) -> &'static str {
        match self {
            FormatOption::Swiss => "swiss",
            FormatOption::RoundRobin => "roundrobin",
            FormatOption::DoubleRoundRobin => "double-roundrobin",
            FormatOption::Groups => "groups",
            FormatOption::Knockout => "knockout",
            FormatOption::Team => "team",
        }
    }
}

/// Round robins: every game at once, or one round at a time.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ScheduleOption {
    #[name = "all"]
    All,
    #[name = "rounds"]
    Rounds,
}

fn send(
    ctx: Context<'_>,
    command: TournamentCommand,
) -> impl std::future::Future<Output = Result<(), Error>> + '_ {
    run(ctx, Command::Tournament(command))
}

/// Club competitions: Swiss, round robin, knockout, team matches.
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "create",
        "join",
        "leave",
        "withdraw",
        "start",
        "list",
        "info",
        "pairings",
        "standings",
        "export",
        "result",
        "pause",
        "resume",
        "cancel",
        "remove"
    )
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    // Discord only ever invokes the subcommands.
    Ok(())
}

/// Create a tournament in this channel (moderators).
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)]
pub async fn create(
    ctx: Context<'_>,
    #[description = "The tournament's name"]
    #[max_length = 60]
    name: String,
    #[description = "swiss (default), roundrobin, double-roundrobin, groups, knockout or team"]
    format: Option<FormatOption>,
    #[description = "Swiss: the number of rounds (default 5)"]
    #[min = 1]
    #[max = 30]
    rounds: Option<i64>,
    #[description = "Time control: 3d (default) or live like 10+5"]
    #[autocomplete = "complete_time"]
    #[max_length = 32]
    time: Option<String>,
    #[description = "Whether games count for club points (default: yes)"] rated: Option<bool>,
    #[description = "Tie-breaks in order, e.g. sb,buchholz (default: sb for round robins, buchholz for Swiss)"]
    #[max_length = 100]
    tiebreaks: Option<String>,
    #[description = "Whether vacations pause tournament games (default: yes)"] vacations: Option<
        bool,
    >,
    #[description = "The most players (default 100)"]
    #[min = 2]
    #[max = 1000]
    max_players: Option<i64>,
    #[description = "Start by itself after this long, e.g. 2h or 3d (default: a moderator starts it)"]
    #[max_length = 32]
    start: Option<String>,
    #[description = "Time for the first move before a forfeit (live default 1h)"]
    #[max_length = 32]
    first_move: Option<String>,
    #[description = "Round robins: all games at the start, or one round at a time"]
    schedule: Option<ScheduleOption>,
    #[description = "Knockout: games per match (default 2)"]
    #[min = 1]
    #[max = 10]
    match_games: Option<i64>,
    #[description = "Knockout tie: e.g. pairs:1,sudden (default), sudden, none"]
    #[max_length = 32]
    decider: Option<String>,
    #[description = "Group round robin: the number of groups (default 2)"]
    #[min = 2]
    #[max = 16]
    groups: Option<i64>,
    #[description = "Team events: Red: @a @b; Blue: @c @d (players in board order)"]
    #[max_length = 2000]
    teams: Option<String>,
    #[description = "The rules: standard (default), chess960 (one start per round) or a lichess variant"]
    variant: Option<super::challenge::VariantOption>,
) -> Result<(), Error> {
    let options = TournamentOptions {
        name,
        format: format.map(|f| f.id().to_owned()),
        rounds,
        time,
        rated,
        tiebreaks,
        vacations,
        max_players,
        start,
        first_move,
        schedule: schedule.map(|s| {
            match s {
                ScheduleOption::All => "all",
                ScheduleOption::Rounds => "rounds",
            }
            .to_owned()
        }),
        match_games,
        decider,
        groups,
        teams,
        variant: variant.map(|v| v.key().to_owned()),
    };
    send(ctx, TournamentCommand::Create(options)).await
}

/// Join a tournament before it starts.
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Join { tournament }).await
}

/// Take your entry back before the start.
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Leave { tournament }).await
}

/// Stop playing in a tournament that has started.
#[poise::command(slash_command, guild_only)]
pub async fn withdraw(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Withdraw { tournament }).await
}

/// Start a tournament now (moderators).
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Start { tournament }).await
}

/// This server's tournaments.
#[poise::command(slash_command, guild_only)]
pub async fn list(ctx: Context<'_>) -> Result<(), Error> {
    send(ctx, TournamentCommand::List).await
}

/// A tournament's settings and players.
#[poise::command(slash_command, guild_only)]
pub async fn info(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Info { tournament }).await
}

/// A round's pairings and results.
#[poise::command(slash_command, guild_only)]
pub async fn pairings(
    ctx: Context<'_>,
    #[description = "The round (default: the current one)"]
    #[min = 1]
    #[max = 1000]
    round: Option<i64>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Pairings { tournament, round }).await
}

/// The standings, with the crosstable image.
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Standings { tournament }).await
}

/// The tournament as a FIDE TRF file and a PGN of all games.
#[poise::command(slash_command, guild_only)]
pub async fn export(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Export { tournament }).await
}

/// Set or correct a result: a forfeit or an adjudication (moderators).
#[poise::command(slash_command, guild_only)]
pub async fn result(
    ctx: Context<'_>,
    #[description = "The player whose board it is"] player: serenity::User,
    #[description = "For that player: win, loss, draw, forfeit-win, forfeit-loss, double-forfeit"]
    #[max_length = 20]
    result: String,
    #[description = "The round (default: the player's board still being played)"]
    #[min = 1]
    #[max = 1000]
    round: Option<i64>,
    #[description = "Change a result already recorded"] correct: Option<bool>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let player = user_option(ctx, &player);
    send(
        ctx,
        TournamentCommand::Result {
            tournament,
            player,
            result,
            round,
            correct: correct.unwrap_or(false),
        },
    )
    .await
}

/// Stop pairing new rounds for now (moderators).
#[poise::command(slash_command, guild_only)]
pub async fn pause(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Pause { tournament }).await
}

/// Go on after a pause (moderators).
#[poise::command(slash_command, guild_only)]
pub async fn resume(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(ctx, TournamentCommand::Resume { tournament }).await
}

/// End a tournament without standings (moderators; asks to confirm).
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    send(
        ctx,
        TournamentCommand::Cancel {
            tournament,
            confirmed: false,
        },
    )
    .await
}

/// Take a player out (moderators): before the start, or withdrawn after.
#[poise::command(slash_command, guild_only)]
pub async fn remove(
    ctx: Context<'_>,
    #[description = "The player"] player: serenity::User,
    #[description = "Which tournament (name or number; default: the one here)"]
    #[max_length = 60]
    tournament: Option<String>,
) -> Result<(), Error> {
    let player = user_option(ctx, &player);
    send(ctx, TournamentCommand::Remove { tournament, player }).await
}
