//! The slash commands, one file per topic: [`challenge`] (challenge,
//! accept, decline, cancel), [`play`] (move, board, resign, draw, abort),
//! [`ladder`] (games, leaderboard, profile, history, pgn, rating),
//! [`server`] (settings, help), [`privacy`] (show, forget) and
//! [`conditional`] (add, list, clear), [`adjourn`] (adjourn, seal,
//! title) and [`tournament`] (club
//! competitions). Each one only turns its options into a
//! service [`Command`] and hands it to [`respond::answer`].

pub mod adjourn;
pub mod challenge;
pub mod conditional;
pub mod ladder;
pub mod localize;
pub mod play;
pub mod privacy;
pub mod server;
pub mod show;
pub mod tournament;

use std::sync::atomic::Ordering;

use poise::serenity_prelude as serenity;

use super::{
    actor::{actor, user_ref, Origin},
    respond::{self, Target},
    Context, Data, Error,
};
use crate::{
    i18n::Lang,
    service::{Command, UserRef},
    t,
};

/// Every command, in the order Discord lists them, with its Chinese
/// names and descriptions ([`localize`]).
pub fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = vec![
        challenge::challenge(),
        challenge::accept(),
        challenge::decline(),
        challenge::cancel(),
        challenge::play(),
        play::move_(),
        play::board(),
        play::activity(),
        play::resign(),
        play::draw(),
        play::abort(),
        play::takeback(),
        play::board_orientation(),
        adjourn::adjourn(),
        adjourn::seal(),
        conditional::conditional(),
        ladder::games(),
        ladder::leaderboard(),
        ladder::puzzle(),
        ladder::profile(),
        ladder::history(),
        ladder::pgn(),
        ladder::replay(),
        show::show(),
        ladder::analyze(),
        ladder::rating(),
        server::settings(),
        server::notify(),
        server::vacation(),
        adjourn::title(),
        server::help(),
        privacy::privacy(),
        tournament::tournament(),
    ];
    localize::apply(&mut commands);
    commands
}

/// Registers the commands in `dev_guild` (instant) or globally (Discord
/// may take a while to show changes). Failures are logged, never returned:
/// see [`super::framework`].
pub async fn register(
    ctx: &serenity::Context,
    commands: &[poise::Command<Data, Error>],
    dev_guild: Option<u64>,
    activity: bool,
) {
    let result = match dev_guild.filter(|&g| g != 0) {
        Some(guild) => {
            poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(guild)).await
        }
        None => {
            let mut all = poise::builtins::create_application_commands(commands);
            // An application with Activities has an entry-point command
            // (the Activity's "Launch" in the app launcher); Discord refuses
            // a bulk overwrite that leaves it out (error 50240).
            if activity {
                all.push(entry_point());
            }
            serenity::Command::set_global_commands(ctx, all)
                .await
                .map(|_| ())
        }
    };
    match result {
        Ok(()) => tracing::info!(count = commands.len(), guild = ?dev_guild, "commands registered"),
        Err(e) => tracing::error!(
            error = %super::errors::describe(&e),
            "command registration failed; the commands registered before keep working"
        ),
    }
}

/// The Activity's entry-point command: Discord launches the Activity
/// itself (no interaction reaches the bot).
fn entry_point() -> serenity::CreateCommand {
    let zh = Lang::ZhCn;
    serenity::CreateCommand::new("launch")
        .kind(serenity::CommandType::PrimaryEntryPoint)
        .handler(serenity::EntryPointHandlerType::DiscordLaunchActivity)
        .description(t!(Lang::En, "cmd-activity-desc"))
        .description_localized("zh-CN", t!(zh, "cmd-activity-desc"))
}

/// Runs a service command for the invoking user and answers.
async fn run(ctx: Context<'_>, command: Command) -> Result<(), Error> {
    // Only slash commands are registered, so there is no prefix context.
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let interaction = app.interaction;
    let target = Target::from(interaction);
    match actor(Origin::from(interaction)) {
        Some(actor) => {
            respond::answer(ctx.serenity_context(), ctx.data(), &target, &actor, command).await
        }
        // Help needs no server: it answers in a DM too.
        None if command == Command::Help => {
            let lang = Lang::from_locale(Some(interaction.locale.as_str()));
            let help = ctx.data().service.help_reply(lang);
            let message = super::reply::Message::from_reply(&help, target.capabilities());
            if let Err(e) = target
                .respond(
                    ctx.http(),
                    serenity::CreateInteractionResponse::Message(message.to_response()),
                )
                .await
            {
                tracing::warn!(error = %super::errors::describe(&e), "could not answer /help in a DM");
            }
        }
        None => {
            let lang = Lang::from_locale(Some(interaction.locale.as_str()));
            target
                .refuse(ctx.http(), &t!(lang, "discord-server-only"))
                .await
        }
    }
    // We answered through serenity directly; tell poise, so that its own
    // error replies use a follow-up rather than a second response.
    app.has_sent_initial_response.store(true, Ordering::SeqCst);
    Ok(())
}

/// A user option as the service sees it, with their nickname here when
/// Discord resolved it.
fn user_option(ctx: Context<'_>, user: &serenity::User) -> UserRef {
    let nick = match ctx {
        poise::Context::Application(app) => app
            .interaction
            .data
            .resolved
            .members
            .get(&user.id)
            .and_then(|m| m.nick.clone()),
        poise::Context::Prefix(_) => None,
    };
    user_ref(user, nick.as_deref())
}

/// The language of the person who sent `ctx`'s command (for the adapter's
/// own refusals; the service chooses the language of everything else).
fn lang_of(ctx: Context<'_>) -> Lang {
    Lang::from_locale(Some(ctx.locale().unwrap_or("")))
}

/// The answer to a refused option, before any work is done.
async fn refuse(ctx: Context<'_>, text: &str) -> Result<(), Error> {
    ctx.send(poise::CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}
