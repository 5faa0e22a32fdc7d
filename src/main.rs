//! The `chessbot` command line: run the bot, play in the console, render
//! boards, preview rating changes, run migrations.

use std::{io, path::PathBuf, process::ExitCode, sync::Arc};

use clap::{Parser, Subcommand};

use chessbot::{
    platform::console::{Console, ConsoleOptions},
    rating::cli::RatingArgs,
    render::{cli::RenderArgs, RenderConfig, Renderer},
    store::Store,
};

/// A chess bot for Discord: correspondence and live games, board images, a
/// club ladder.
#[derive(Parser)]
#[command(name = "chessbot", version, about)]
struct Cli {
    #[command(subcommand)]
    command: CommandLine,
}

#[derive(Subcommand)]
enum CommandLine {
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
        /// Database URL (`sqlite:chessbot.db`, `postgres://…`).
        #[arg(long, env = "DATABASE_URL", default_value = "sqlite:chessbot.db")]
        database_url: String,
    },
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
    let result = match cli.command {
        CommandLine::Render(args) => chessbot::render::cli::run(&args),
        CommandLine::Rating(args) => chessbot::rating::cli::run(args).map(|text| print!("{text}")),
        CommandLine::Console(args) => runtime().and_then(|rt| rt.block_on(console(args))),
        CommandLine::Bench(args) => {
            runtime().and_then(|rt| rt.block_on(chessbot::bench::run(args)))
        }
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
