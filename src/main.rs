//! The `chessbot` command line: run the bot, play in the console, render
//! boards, preview rating changes, run migrations.

use std::{io, path::PathBuf, process::ExitCode, sync::Arc};

use clap::{Parser, Subcommand};

use chessbot::{
    platform::{
        console::{Console, ConsoleOptions},
        discord::BotSettings,
    },
    rating::cli::RatingArgs,
    render::{cli::RenderArgs, RenderConfig, Renderer},
    store::Store,
};

/// A chess bot for Discord: correspondence and live games, board images, a
/// club ladder.
#[derive(Parser)]
#[command(name = "chessbot", version, about)]
struct Cli {
    /// What to do; without one, the bot runs (as `chessbot run`).
    #[command(subcommand)]
    command: Option<CommandLine>,
}

#[derive(Subcommand)]
enum CommandLine {
    /// Run the Discord bot (`DISCORD_TOKEN`, `DATABASE_URL`, `DEV_GUILD_ID`).
    Run(RunArgs),
    /// Play in the terminal: every bot command, no Discord needed.
    Console(ConsoleArgs),
    /// Render a board (PNG) or a game replay (GIF).
    Render(RenderArgs),
    /// Club points: preview what a game between two players would change.
    Rating(RatingArgs),
    /// Create or update the database schema and exit.
    Migrate {
        /// Database URL (`sqlite:chessbot.db`, `postgres://…`).
        #[arg(long, env = "DATABASE_URL", default_value = "sqlite:chessbot.db")]
        database_url: String,
    },
}

/// `chessbot` without a subcommand: the options of `run`.
#[derive(Parser)]
struct RunOnly {
    #[command(flatten)]
    args: RunArgs,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Database URL (`sqlite:chessbot.db`, `postgres://…`).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite:chessbot.db")]
    database_url: String,
    /// Register the commands in this server only (instant updates while developing).
    #[arg(long, env = "DEV_GUILD_ID")]
    dev_guild_id: Option<u64>,
    /// A folder of 12 piece SVGs (wK.svg … bP.svg) to use.
    #[arg(long, env = "PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
}

#[derive(clap::Args)]
struct ConsoleArgs {
    /// SQLite file (or database URL) to keep games in.
    #[arg(long, default_value = "chessbot-console.db")]
    db: String,
    /// Folder to write board images into.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Read lines from this file instead of standard input.
    #[arg(long)]
    script: Option<PathBuf>,
    /// Comma-separated user names who moderate the console server.
    #[arg(long, value_delimiter = ',')]
    moderators: Vec<String>,
    /// Print each input line before its output (transcript form).
    #[arg(long)]
    echo: bool,
    /// A folder of 12 piece SVGs (wK.svg … bP.svg) to use.
    #[arg(long)]
    pieces_dir: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = match cli.command {
        Some(command) => command,
        // Plain `chessbot` runs the bot, its settings from the environment.
        None => CommandLine::Run(RunOnly::parse_from(["chessbot"]).args),
    };
    let result = match command {
        CommandLine::Run(args) => runtime().and_then(|rt| rt.block_on(run_bot(args))),
        CommandLine::Render(args) => chessbot::render::cli::run(&args),
        CommandLine::Rating(args) => chessbot::rating::cli::run(args).map(|text| print!("{text}")),
        CommandLine::Console(args) => runtime().and_then(|rt| rt.block_on(console(args))),
        CommandLine::Migrate { database_url } => runtime().and_then(|rt| {
            rt.block_on(async {
                Store::open(&database_url).await?;
                println!("database is up to date");
                Ok(())
            })
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

async fn run_bot(args: RunArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,serenity=warn,poise=warn".into()),
        )
        .with_writer(io::stderr)
        .init();
    let token = match std::env::var("DISCORD_TOKEN") {
        Ok(token) if !token.trim().is_empty() => token.trim().to_owned(),
        _ => anyhow::bail!(
            "DISCORD_TOKEN is not set: copy the bot token from the Bot tab of your application (see docs/discord.md)"
        ),
    };
    let mut settings = BotSettings::new(token, args.database_url);
    settings.dev_guild_id = args.dev_guild_id;
    settings.pieces_dir = args.pieces_dir;
    chessbot::platform::discord::run(settings, shutdown_signal()).await
}

/// Completes on Ctrl-C or SIGTERM (what `docker stop` and systemd send).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

async fn console(args: ConsoleArgs) -> anyhow::Result<()> {
    let renderer = Arc::new(Renderer::new(RenderConfig {
        pieces_dir: args.pieces_dir,
    })?);
    let mut console = Console::new(ConsoleOptions {
        database_url: args.db,
        out_dir: args.out,
        moderators: args.moderators,
        echo: args.echo,
        renderer,
    })
    .await?;
    let mut out = io::stdout().lock();
    match args.script {
        Some(path) => {
            let file = std::fs::File::open(&path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
            console.run(io::BufReader::new(file), &mut out).await
        }
        None => console.run(io::stdin().lock(), &mut out).await,
    }
}
