//! The `chessbot` command line: run the bot, play in the console, render
//! boards, preview rating changes, run migrations.

use std::{
    io,
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
};

use clap::{Parser, Subcommand};

use chessbot::{
    config::{redact_url, Config},
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
    /// Configuration file (TOML; see config.example.toml). Environment
    /// variables override it.
    #[arg(long, global = true, env = "CHESSBOT_CONFIG", value_name = "FILE")]
    config: Option<PathBuf>,
    /// What to do; without one, the bot runs (as `chessbot run`).
    #[command(subcommand)]
    command: Option<CommandLine>,
}

#[derive(Subcommand)]
enum CommandLine {
    /// Run the Discord bot (token from `DISCORD_TOKEN` or the config file).
    Run(RunArgs),
    /// Play in the terminal: every bot command, no Discord needed.
    Console(ConsoleArgs),
    /// Render a board (PNG) or a game replay (GIF).
    Render(RenderArgs),
    /// Club points: preview what a game between two players would change.
    Rating(RatingArgs),
    /// Measure throughput and latency against the floor, or (`--scale`)
    /// start-up time and memory with a large database.
    Bench(chessbot::bench::BenchArgs),
    /// Create or update the database schema and exit.
    Migrate {
        /// Database URL (`sqlite:chessbot.db`, `postgres://…`); default: the
        /// configuration's `database_url`.
        #[arg(long)]
        database_url: Option<String>,
    },
}

/// Overrides of the configuration for `run`.
#[derive(clap::Args, Default)]
struct RunArgs {
    /// Database URL (`sqlite:chessbot.db`, `postgres://…`); default: the
    /// configuration's `database_url`.
    #[arg(long)]
    database_url: Option<String>,
    /// Register the commands in this server only (instant updates while developing).
    #[arg(long)]
    dev_guild_id: Option<u64>,
    /// A folder of 12 piece SVGs (wK.svg … bP.svg) to use.
    #[arg(long)]
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
    /// Every user's client locale and the server's locale, e.g. `zh-CN`
    /// (the bot then answers in Simplified Chinese); `:locale NAME LOCALE`
    /// changes one user's.
    #[arg(long)]
    locale: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(CommandLine::Run(RunArgs::default()));
    let result = match command {
        CommandLine::Run(args) => {
            runtime().and_then(|rt| rt.block_on(run_bot(cli.config.as_deref(), args)))
        }
        CommandLine::Render(args) => chessbot::render::cli::run(&args),
        CommandLine::Rating(args) => chessbot::rating::cli::run(args).map(|text| print!("{text}")),
        CommandLine::Console(args) => runtime().and_then(|rt| rt.block_on(console(args))),
        CommandLine::Bench(args) => {
            runtime().and_then(|rt| rt.block_on(chessbot::bench::run(args)))
        }
        CommandLine::Migrate { database_url } => {
            migrate(cli.config.as_deref(), database_url.as_deref())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `chessbot run`: the Discord bot, configured by the file, the environment
/// and the command line (in rising order of precedence).
async fn run_bot(config: Option<&Path>, args: RunArgs) -> anyhow::Result<()> {
    let config = Config::load(config)?;
    chessbot::telemetry::init(config.log_format);
    let token = config.require_token()?.expose().to_owned();
    let database_url = args
        .database_url
        .unwrap_or_else(|| config.database_url.clone());
    tracing::info!(database = %redact_url(&database_url), "starting");
    let mut settings = BotSettings::new(token, database_url);
    settings.dev_guild_id = args.dev_guild_id.or(config.dev_guild_id);
    settings.pieces_dir = args.pieces_dir.or_else(|| config.pieces_dir.clone());
    settings.server_defaults = Some(config.server_defaults());
    if let Some(range) = config.shards {
        settings.shards = Some((range.first, range.last));
    }
    settings.shard_total = config.shard_total;
    if let Some(addr) = config.metrics_addr {
        let (bound, _task) = chessbot::metrics::spawn(addr, None).await?;
        tracing::info!(%bound, "metrics at /metrics");
    }
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

/// `chessbot migrate`: the configured database (or `--database-url`), migrated.
fn migrate(config: Option<&Path>, url: Option<&str>) -> anyhow::Result<()> {
    let config = Config::load(config)?;
    chessbot::telemetry::init(config.log_format);
    let url = url.unwrap_or(&config.database_url);
    tracing::info!(database = %redact_url(url), "running migrations");
    runtime()?.block_on(async {
        Store::open(url).await?.close().await;
        println!("database {} is up to date", redact_url(url));
        Ok(())
    })
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
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
        locale: args.locale,
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
