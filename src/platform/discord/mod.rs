//! The Discord front end: serenity (gateway + REST) and poise (slash
//! commands, autocomplete, checks) around the platform-neutral
//! [`Service`](crate::service::Service).
//!
//! An interaction becomes a [`Command`](crate::service::Command) with its
//! [`Actor`](crate::service::Actor) ([`actor`]); the service's
//! [`Reply`](crate::service::Reply) becomes an interaction response
//! ([`reply`] builds the message, [`respond`] decides how and when to send
//! it, [`threads`] opens a game's thread). Slash commands live in
//! [`commands`], button clicks in [`components`]; [`errors`] names missing
//! permissions and turns framework errors into short private answers.
//!
//! [`run`] starts the bot and stops it gracefully: shards first, then the
//! commands still in flight are let finish, then the database is closed.

pub mod activity;
pub mod actor;
pub mod commands;
pub mod components;
pub mod errors;
pub mod fit;
mod inflight;
mod progress;
pub mod reply;
pub mod respond;
pub mod retry;
mod scheduler;
pub mod threads;

use std::{future::Future, path::PathBuf, sync::Arc, time::Duration};

use anyhow::Context as _;
use poise::serenity_prelude as serenity;

use self::inflight::InFlight;
use crate::{
    clock::SystemClock,
    render::{RenderConfig, Renderer},
    service::Service,
    store::Store,
};

/// How long a command may work before its interaction is deferred. Discord
/// drops an interaction not acknowledged within 3 s (network included);
/// answering directly when the work is quick saves a request and keeps
/// private answers private (a deferred response's visibility is fixed
/// before the answer is known).
pub const DEFAULT_DEFER_AFTER: Duration = Duration::from_millis(1500);

/// How long shutdown waits for commands still being answered.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(20);

/// Everything the bot needs to start. The token is secret: this type has no
/// `Debug` so that it can never end up in a log line by accident.
#[derive(Clone)]
pub struct BotSettings {
    /// The bot token (`DISCORD_TOKEN`).
    pub token: String,
    /// `sqlite:chessbot.db` or `postgres://…`.
    pub database_url: String,
    /// Register commands in this server only (instant updates while
    /// developing) instead of globally.
    pub dev_guild_id: Option<u64>,
    /// A folder of piece SVGs to use instead of the built-in set.
    pub pieces_dir: Option<PathBuf>,
    /// The shards this process runs (inclusive range), with `shard_total`.
    pub shards: Option<(u32, u32)>,
    /// Total number of shards across all processes; `None` with no
    /// `shards`: ask Discord (autosharding).
    pub shard_total: Option<u32>,
    /// Send REST and gateway traffic to this base URL instead of Discord
    /// (tests point it at a local fake). Disables serenity's rate limiter,
    /// which would otherwise ignore the proxy.
    pub http_proxy: Option<String>,
    /// See [`DEFAULT_DEFER_AFTER`]; zero defers every answer.
    pub defer_after: Duration,
    /// Settings for servers the bot meets for the first time (from the
    /// configuration file); `None`: the built-in defaults.
    pub server_defaults: Option<crate::store::ServerSettings>,
    /// Flood limits (see [`crate::limits::Limits`]).
    pub limits: crate::limits::Limits,
    /// Serve `/metrics`, `/healthz` and `/readyz` here; `None`: off.
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// Automatic backups of a SQLite database; `None`: off.
    pub backups: Option<crate::backup::BackupPlan>,
    /// What an answered move survives (SQLite).
    pub durability: crate::store::Durability,
    /// The chess engine (`None`: /play and /analyze say there is none).
    pub engine: Option<Arc<crate::engine::Engine>>,
    /// Fairy-Stockfish, for lichess's variants (`None`: they are not
    /// played against the computer).
    pub fairy_engine: Option<Arc<crate::engine::Engine>>,
    /// Serve the live web board here; `None`: off.
    pub web: Option<WebBoard>,
}

/// Where the web board is served and how its links are made.
#[derive(Clone, Debug)]
pub struct WebBoard {
    pub addr: std::net::SocketAddr,
    /// What links start with; `None`: `http://` + `addr`.
    pub public_url: Option<String>,
    /// The links' signing secret; `None`: the one kept in the database.
    pub secret: Option<crate::config::Secret>,
    /// The board as a Discord Activity: the application's OAuth2
    /// credentials (`None`: no Activity).
    pub activity: Option<crate::platform::web::ActivityAuth>,
}

impl BotSettings {
    /// Settings with the defaults for everything but the token and database.
    pub fn new(token: impl Into<String>, database_url: impl Into<String>) -> BotSettings {
        BotSettings {
            token: token.into(),
            database_url: database_url.into(),
            dev_guild_id: None,
            pieces_dir: None,
            shards: None,
            shard_total: None,
            http_proxy: None,
            defer_after: DEFAULT_DEFER_AFTER,
            server_defaults: None,
            limits: crate::limits::Limits::default(),
            metrics_addr: None,
            backups: None,
            durability: crate::store::Durability::Full,
            engine: None,
            fairy_engine: None,
            web: None,
        }
    }
}

/// What every command and event handler shares (poise's user data).
pub struct Data {
    pub service: Service,
    pub defer_after: Duration,
    inflight: InFlight,
    /// Messages kept up to date by edits (an analysis's progress).
    progress: Arc<progress::Progress>,
}

/// Errors a command handler can return to poise's `on_error`.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// The poise context of our commands.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Runs the bot until `shutdown` completes (or the gateway gives up), then
/// stops gracefully. A rejected token is an error that says so.
pub async fn run(
    settings: BotSettings,
    shutdown: impl Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    let mut store = Store::open_with(&settings.database_url, settings.durability)
        .await
        .context("cannot open the database")?;
    if let Some(defaults) = settings.server_defaults.clone() {
        store = store.with_server_defaults(defaults);
    }
    let renderer = Arc::new(
        Renderer::new(RenderConfig {
            pieces_dir: settings.pieces_dir.clone(),
        })
        .context("cannot load the board artwork")?,
    );
    let mut side_tasks = Vec::new();
    if let Some(addr) = settings.metrics_addr {
        let (bound, task) = crate::metrics::spawn(addr, Some(store.clone()))
            .await
            .with_context(|| format!("cannot serve metrics on {addr}"))?;
        tracing::info!(%bound, "metrics at /metrics, health at /healthz and /readyz");
        side_tasks.push(task);
    }
    if let Some(plan) = settings.backups.clone() {
        tracing::info!(dir = %plan.dir.display(), every_s = plan.every.as_secs(), keep = plan.keep, "automatic backups on");
        side_tasks.push(tokio::spawn(crate::backup::run(store.clone(), plan)));
    }
    let service = Service::new(store, renderer, Arc::new(SystemClock)).with_limits(settings.limits);
    if let Some(engine) = settings.engine.clone() {
        service.attach_engine(engine);
    }
    if let Some(engine) = settings.fairy_engine.clone() {
        service.attach_fairy_engine(engine);
    }
    if let Some(web) = &settings.web {
        let (_, task) = crate::platform::web::start_board(&service, web).await?;
        side_tasks.push(task);
    }
    let inflight = InFlight::default();
    let result = serve(&settings, service.clone(), inflight.clone(), shutdown).await;
    for task in side_tasks {
        task.abort();
    }
    crate::metrics::set_gateway_connected(false);
    if !inflight.drain(DRAIN_TIMEOUT).await {
        tracing::warn!("some commands were still running after {DRAIN_TIMEOUT:?}; stopping anyway");
    }
    service.store().close().await;
    tracing::info!("stopped");
    result
}

async fn serve(
    settings: &BotSettings,
    service: Service,
    inflight: InFlight,
    shutdown: impl Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    let http = http(settings);
    // One cheap request up front turns a bad token into a clear error
    // instead of a gateway that keeps closing.
    let me = http
        .get_current_user()
        .await
        .map_err(errors::startup_error)?;
    tracing::info!(bot = %me.name, id = %me.id, "logged in");
    let scheduler_service = service.clone();
    let progress = Arc::new(progress::Progress::default());
    let data = Data {
        service,
        defer_after: settings.defer_after,
        inflight,
        progress: progress.clone(),
    };
    let framework = framework(data, settings.dev_guild_id);
    let mut client = serenity::ClientBuilder::new_with_http(http, intents())
        .framework(framework)
        .await
        .context("cannot build the Discord client")?;
    let shard_manager = Arc::clone(&client.shard_manager);
    let ticker = scheduler::spawn(Arc::clone(&client.http), scheduler_service, progress);
    let (shards, shard_total) = (settings.shards, settings.shard_total);
    let mut task = tokio::spawn(async move {
        match (shards, shard_total) {
            // serenity treats the end of this range as inclusive.
            (Some((first, last)), total) => {
                client
                    .start_shard_range(first..last, total.unwrap_or(last + 1))
                    .await
            }
            (None, Some(total)) => client.start_shards(total).await,
            (None, None) => client.start_autosharded().await,
        }
    });
    tokio::select! {
        ended = &mut task => {
            ticker.abort();
            return match ended {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(errors::startup_error(e)),
                Err(e) => Err(anyhow::anyhow!("the Discord client task failed: {e}")),
            };
        }
        () = shutdown => tracing::info!("shutting down: stopping shards"),
    }
    ticker.abort();
    shard_manager.shutdown_all().await;
    match tokio::time::timeout(Duration::from_secs(10), task).await {
        Ok(Ok(Err(e))) => tracing::warn!(error = %e, "the Discord client stopped with an error"),
        Ok(Err(e)) => tracing::warn!(error = %e, "the Discord client task failed"),
        Err(_) => tracing::warn!("the Discord client did not stop within 10 s"),
        Ok(Ok(Ok(()))) => {}
    }
    Ok(())
}

/// Slash commands and buttons need no privileged intent: interactions
/// arrive whatever the intents, and GUILDS keeps the cache of channels and
/// threads. MESSAGE_CONTENT is not needed since nobody types `!move`.
pub fn intents() -> serenity::GatewayIntents {
    serenity::GatewayIntents::GUILDS
}

fn http(settings: &BotSettings) -> serenity::Http {
    let mut builder = serenity::HttpBuilder::new(&settings.token);
    if let Some(proxy) = &settings.http_proxy {
        builder = builder.proxy(proxy.clone()).ratelimiter_disabled(true);
    }
    builder.build()
}

fn framework(data: Data, dev_guild: Option<u64>) -> poise::Framework<Data, Error> {
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            on_error: |error| Box::pin(errors::on_error(error)),
            event_handler: |framework, event| Box::pin(components::on_event(framework, event)),
            // Owners get no special powers; skip the request that finds them.
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(guilds = ready.guilds.len(), "gateway ready");
                // A failure here must not escape: poise would then never set
                // its data and every later interaction would hang.
                let activity = data.service.activity_enabled();
                commands::register(ctx, &framework.options().commands, dev_guild, activity).await;
                Ok(data)
            })
        })
        .build()
}
