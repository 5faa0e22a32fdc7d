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
    /// Tournament pairings: FIDE Dutch Swiss from a TRF file (`--dutch IN -p`
    /// pairs the next round, `-c` checks every round), Berger tables.
    Pairing(chessbot::tournament::cli::PairingArgs),
    /// Tournament standings from a TRF file, with tie-breaks.
    Standings(chessbot::tournament::cli::StandingsArgs),
    /// Measure throughput and latency against the floor, or (`--scale`)
    /// start-up time and memory with a large database.
    Bench(chessbot::bench::BenchArgs),
    /// Write a consistent copy of the SQLite database to FILE (safe while
    /// the bot runs). PostgreSQL: use pg_dump.
    Backup {
        /// The new file (must not exist yet).
        file: PathBuf,
        /// Database URL; default: the configuration's `database_url`.
        #[arg(long)]
        database_url: Option<String>,
    },
    /// Ask a running bot's `/readyz` (or `--path`) and exit 0 if it answers
    /// 200: the container `HEALTHCHECK`. Needs `metrics_addr`.
    Health {
        /// Address of the metrics server; default: the configuration's
        /// `metrics_addr` (0.0.0.0 is asked on 127.0.0.1).
        #[arg(long)]
        addr: Option<std::net::SocketAddr>,
        /// `/readyz` (gateway and database) or `/healthz` (process alive).
        #[arg(long, default_value = "/readyz")]
        path: String,
    },
    /// Puzzles: make the starter set from engine games, or add the puzzles
    /// of a club's PGN archive to a server's pool.
    #[command(subcommand)]
    Puzzles(PuzzlesCommand),
    /// Create or update the database schema and exit.
    Migrate {
        /// Database URL (`sqlite:chessbot.db`, `postgres://…`); default: the
        /// configuration's `database_url`.
        #[arg(long)]
        database_url: Option<String>,
    },
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Play engine games (seeded), try blunders at their level moments, keep
    /// the puzzles they give and write them as a puzzle file (the starter set:
    /// assets/puzzles/starter.tsv).
    Generate {
        /// Seed of the games: the same seed gives the same games on the same
        /// Stockfish build (every search is bound by nodes).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How many puzzles to find.
        #[arg(long, default_value_t = 500)]
        count: usize,
        /// The file to write.
        #[arg(long, default_value = "assets/puzzles/starter.tsv")]
        out: PathBuf,
        /// The chess engine (default: `stockfish` on PATH, else
        /// /usr/games/stockfish).
        #[arg(long)]
        engine_path: Option<PathBuf>,
    },
    /// Re-check a puzzle file with the engine, much deeper than it was made
    /// with: the share of puzzles whose solution is still the unique
    /// winning line (the starter set's quality proof).
    Check {
        /// A puzzle file (default: the starter set).
        #[arg(default_value = "assets/puzzles/starter.tsv")]
        file: PathBuf,
        /// Nodes per search (the generator searches lines with 400,000).
        #[arg(long, default_value_t = 4_000_000)]
        nodes: u64,
        /// Also write the puzzles that pass to this file (same format), for
        /// shipping only checked puzzles.
        #[arg(long, value_name = "FILE")]
        write_unique: Option<PathBuf>,
        /// The chess engine (as for `generate`).
        #[arg(long)]
        engine_path: Option<PathBuf>,
    },
    /// Analyse every game of FILE.pgn with the engine and add the puzzles
    /// found to a server's pool.
    Import {
        /// A PGN file of one or more games.
        file: PathBuf,
        /// The server (Discord guild id; `console` for the console's).
        #[arg(long)]
        server: String,
        /// Database URL; default: the configuration's `database_url`.
        #[arg(long)]
        database_url: Option<String>,
        /// The chess engine (as for `generate`).
        #[arg(long)]
        engine_path: Option<PathBuf>,
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
    /// The chess engine for /play and /analyze (default: `stockfish` on
    /// PATH, else /usr/games/stockfish; the configuration's `engine_*`
    /// settings apply).
    #[arg(long)]
    engine_path: Option<PathBuf>,
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
    /// The chess engine for /play and /analyze (default: `stockfish` on
    /// PATH, else /usr/games/stockfish; the configuration's `engine_*`
    /// settings apply).
    #[arg(long)]
    engine_path: Option<PathBuf>,
    /// Every user's client locale and the server's locale, e.g. `zh-CN`
    /// (the bot then answers in Simplified Chinese); `:locale NAME LOCALE`
    /// changes one user's.
    #[arg(long)]
    locale: Option<String>,
    /// Draw lots (a tournament's first colour, knockout colours) from this
    /// seed, so a script replays the same way every time.
    #[arg(long)]
    seed: Option<u64>,
    /// Serve the live web board on this address (`127.0.0.1:8080`) and
    /// print each player's link: play in the browser with no Discord.
    #[arg(long)]
    web: Option<std::net::SocketAddr>,
}

/// Prints a tournament command's output; bad input exits with status 2 (the
/// convention of FIDE pairing engines), other failures with 1.
fn tournament(
    result: Result<chessbot::tournament::cli::Done, chessbot::tournament::cli::CliError>,
) -> ExitCode {
    match result {
        Ok(done) => {
            print!("{}", done.text);
            ExitCode::from(done.code)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
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
        CommandLine::Console(args) => {
            runtime().and_then(|rt| rt.block_on(console(cli.config.as_deref(), args)))
        }
        CommandLine::Bench(args) => {
            runtime().and_then(|rt| rt.block_on(chessbot::bench::run(args)))
        }
        CommandLine::Backup { file, database_url } => {
            backup(cli.config.as_deref(), &file, database_url.as_deref())
        }
        CommandLine::Health { addr, path } => health(cli.config.as_deref(), addr, &path),
        CommandLine::Puzzles(command) => {
            runtime().and_then(|rt| rt.block_on(puzzles(cli.config.as_deref(), command)))
        }
        CommandLine::Migrate { database_url } => {
            migrate(cli.config.as_deref(), database_url.as_deref())
        }
        CommandLine::Pairing(args) => return tournament(chessbot::tournament::cli::pairing(&args)),
        CommandLine::Standings(args) => {
            return tournament(chessbot::tournament::cli::standings_cmd(&args))
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
    settings.durability = config.durability;
    if let Some(range) = config.shards {
        settings.shards = Some((range.first, range.last));
    }
    settings.shard_total = config.shard_total;
    settings.metrics_addr = config.metrics_addr;
    settings.limits = config.limits();
    settings.backups = config.backup_plan();
    settings.engine = config.start_engine().await.map(Arc::new);
    settings.fairy_engine = config.start_fairy_engine().await.map(Arc::new);
    settings.web = config
        .web_addr
        .map(|addr| chessbot::platform::discord::WebBoard {
            addr,
            public_url: config.public_url.clone(),
            secret: config.web_secret.clone(),
            activity: config.activity(),
        });
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
        let store = Store::connect(url).await?;
        let before = store.applied_migrations().await?;
        store.migrate().await?;
        let after = store.applied_migrations().await?;
        store.close().await;
        let shown = redact_url(url);
        match (before, after - before) {
            (_, 0) => println!("database {shown} was already up to date ({after} migrations)"),
            (0, n) => println!("database {shown} created: {n} migrations applied"),
            (_, n) => {
                println!("database {shown} migrated: {n} new migrations applied ({after} in all)")
            }
        }
        Ok(())
    })
}

/// `chessbot backup FILE`: one consistent copy of the configured SQLite
/// database (or `--database-url`), made while the bot may be running.
fn backup(config: Option<&Path>, file: &Path, url: Option<&str>) -> anyhow::Result<()> {
    let config = Config::load(config)?;
    chessbot::telemetry::init(config.log_format);
    let url = url.unwrap_or(&config.database_url);
    runtime()?.block_on(async {
        let store = Store::connect(url).await?;
        let started = std::time::Instant::now();
        let result = store.backup_to(file).await;
        store.close().await;
        result?;
        println!(
            "backup of {} written to {} in {} ms",
            redact_url(url),
            file.display(),
            started.elapsed().as_millis()
        );
        Ok(())
    })
}

/// `chessbot health`: one plain HTTP/1.1 GET with a 3 s budget, no runtime.
fn health(
    config: Option<&Path>,
    addr: Option<std::net::SocketAddr>,
    path: &str,
) -> anyhow::Result<()> {
    use std::io::{Read, Write};
    let mut addr = match addr {
        Some(addr) => addr,
        None => Config::load(config)?
            .metrics_addr
            .ok_or_else(|| anyhow::anyhow!("no metrics_addr configured: health checks need it"))?,
    };
    if addr.ip().is_unspecified() {
        addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let timeout = std::time::Duration::from_secs(3);
    let mut stream = std::net::TcpStream::connect_timeout(&addr, timeout)
        .map_err(|e| anyhow::anyhow!("cannot reach {addr}: {e}"))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let status = answer.lines().next().unwrap_or_default();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default().trim();
    if status.split_whitespace().nth(1) == Some("200") {
        println!("{path}: {body}");
        Ok(())
    } else {
        anyhow::bail!("{path}: {status}: {body}")
    }
}

/// `chessbot puzzles …`.
async fn puzzles(config: Option<&Path>, command: PuzzlesCommand) -> anyhow::Result<()> {
    use chessbot::{
        engine::{puzzles as mining, Engine, EngineOptions},
        puzzle::starter,
        store::NewPuzzle,
    };
    let config = Config::load(config)?;
    chessbot::telemetry::init(config.log_format);
    let start_engine = |path: Option<PathBuf>| async move {
        let path = path.or_else(|| config.engine_path.clone());
        Engine::start(path.as_deref(), 1, 32, 1, EngineOptions::default())
            .await
            .ok_or_else(|| {
                anyhow::anyhow!("puzzles need a chess engine (apt-get install stockfish)")
            })
    };
    match command {
        PuzzlesCommand::Generate {
            seed,
            count,
            out,
            engine_path,
        } => {
            let engine = start_engine(engine_path).await?;
            let options = mining::GenerateOptions::new(seed, count);
            let started = std::time::Instant::now();
            let file = |games: usize, found: &[chessbot::puzzle::Found]| {
                let mut text = format!(
                    "# chessbot starter puzzles: FEN<TAB>solution (UCI)<TAB>themes\n\
                     # Made by `chessbot puzzles generate --seed {seed} --count {count}` \
                     (engine games, blunders tried at level moments): {} puzzles from {games} games; \
                     do not edit by hand.\n",
                    found.len()
                );
                for puzzle in found {
                    text.push_str(&starter::write_line(puzzle));
                    text.push('\n');
                }
                text
            };
            let mut written = Ok(());
            let meter = chessbot::engine::cpu::Meter::start(&engine.pool);
            let (found, funnel) =
                mining::generate(&engine.pool, &options, |games, found, funnel| {
                    let spent = meter.spent(&engine.pool);
                    eprintln!(
                        "game {games}: {} puzzles, {:.0} CPU-s ({:.2} puzzles/CPU-min); {funnel}",
                        found.len(),
                        spent.total(),
                        spent.per_minute(found.len())
                    );
                    // Written after every game: a stopped run keeps its puzzles.
                    if written.is_ok() {
                        written = std::fs::write(&out, file(games, found));
                    }
                })
                .await?;
            written?;
            let spent = meter.spent(&engine.pool);
            println!("funnel: {funnel}");
            println!(
                "{} puzzles written to {} in {:.0} s: {:.0} CPU-s (engine {:.0}, ours {:.0}), \
                 {:.2} puzzles per CPU-minute",
                found.len(),
                out.display(),
                started.elapsed().as_secs_f64(),
                spent.total(),
                spent.engines,
                spent.own,
                spent.per_minute(found.len())
            );
        }
        PuzzlesCommand::Check {
            file,
            nodes,
            write_unique,
            engine_path,
        } => {
            let puzzles = starter::read(&std::fs::read_to_string(&file)?)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let engine = start_engine(engine_path).await?;
            let limits = chessbot::engine::Limits {
                movetime_ms: 120_000,
                nodes,
                depth: None,
            };
            let started = std::time::Instant::now();
            let (mut passed, mut by_margin) = (0, 0);
            let mut kept = String::new();
            for (i, puzzle) in puzzles.iter().enumerate() {
                let verdict = mining::recheck(&engine.pool, puzzle, &limits).await?;
                if verdict == mining::Recheck::Unique {
                    by_margin += 1;
                }
                if verdict.passes() {
                    passed += 1;
                    kept.push_str(&starter::write_line(puzzle));
                    kept.push('\n');
                } else {
                    println!("not unique: {}\t{}", puzzle.fen, puzzle.moves.join(" "));
                }
                eprintln!("{}/{} checked", i + 1, puzzles.len());
            }
            let share = |n: usize| {
                if puzzles.is_empty() {
                    0.0
                } else {
                    100.0 * n as f64 / puzzles.len() as f64
                }
            };
            let summary = format!(
                "{passed} of {} puzzles ({:.1} %) still have a unique winning line at {nodes} nodes a search \
                 (the best move, and no other at +2.00 or better); {by_margin} ({:.1} %) also keep the generator's 0.7 margin",
                puzzles.len(),
                share(passed),
                share(by_margin),
            );
            println!("{summary} ({:.0} s)", started.elapsed().as_secs_f64());
            if let Some(out) = write_unique {
                // The source's comment lines, then what this check found.
                let mut text: String = std::fs::read_to_string(&file)?
                    .lines()
                    .filter(|l| l.starts_with('#'))
                    .map(|l| format!("{l}\n"))
                    .collect();
                text.push_str(&format!(
                    "# Checked by `chessbot puzzles check --nodes {nodes}`: {summary}; only those are kept.\n"
                ));
                text.push_str(&kept);
                std::fs::write(out, text)?;
            }
        }
        PuzzlesCommand::Import {
            file,
            server,
            database_url,
            engine_path,
        } => {
            let text = std::fs::read_to_string(&file)?;
            let (games, bad) = mining::pgn_games(&text);
            let engine = start_engine(engine_path).await?;
            let url = database_url.unwrap_or_else(|| config.database_url.clone());
            let store = Store::open(&url).await?;
            let name = file
                .file_name()
                .map_or_else(|| "pgn".to_owned(), |n| n.to_string_lossy().into_owned());
            let mut added = 0;
            for (i, positions) in games.iter().enumerate() {
                let found =
                    mining::mine_game(&engine.pool, positions, &mining::PuzzleLimits::default())
                        .await?;
                let puzzles: Vec<NewPuzzle> = found
                    .iter()
                    .map(|f| NewPuzzle::found(f, &format!("import:{name}")))
                    .collect();
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as i64);
                added += store.add_puzzles(&server, &puzzles, now).await?;
                eprintln!("game {}/{}: {added} puzzles added", i + 1, games.len());
            }
            store.close().await;
            println!(
                "{} games read ({bad} unreadable), {added} puzzles added to server {server}",
                games.len()
            );
        }
    }
    Ok(())
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

async fn console(config_path: Option<&Path>, args: ConsoleArgs) -> anyhow::Result<()> {
    let mut config = Config::load(config_path)?;
    if args.engine_path.is_some() {
        config.engine_path = args.engine_path.clone();
    }
    let engine = config.start_engine().await.map(Arc::new);
    let renderer = Arc::new(Renderer::new(RenderConfig {
        pieces_dir: args.pieces_dir,
    })?);
    if engine.is_none() {
        let lang = chessbot::i18n::Lang::from_locale(args.locale.as_deref());
        eprintln!("[console] {}", chessbot::t!(lang, "console-no-engine"));
    }
    let mut console = Console::with_engine(
        ConsoleOptions {
            database_url: args.db,
            out_dir: args.out,
            moderators: args.moderators,
            echo: args.echo,
            renderer,
            locale: args.locale,
            seed: args.seed,
            web: args.web,
        },
        engine,
    )
    .await?;
    if let Some(fairy) = config.start_fairy_engine().await {
        console.service().attach_fairy_engine(Arc::new(fairy));
    }
    if args.web.is_some() && args.script.is_none() {
        return console.run_live(&mut io::stdout()).await;
    }
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
