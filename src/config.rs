//! Start-up configuration: a TOML file (every option documented with its
//! default in `config.example.toml`), overridden by environment variables,
//! validated once so that a mistake stops the bot at start-up with a message
//! naming the key, instead of surfacing later in a game.
//!
//! Secrets (the Discord token, passwords in database URLs) never appear in
//! `Debug` output or logs: [`Secret`] and [`redact_url`] see to that.

use std::{
    fmt,
    net::SocketAddr,
    ops::Range,
    path::{Path, PathBuf},
    str::FromStr,
};

use serde::Deserialize;

use crate::{
    backup::BackupPlan,
    clock::{parse_duration, TimeControl},
    limits::{Limits, Rate},
    render::Theme,
    store::{normalize_url, Durability, ServerSettings},
};

/// The bot's configuration. Every field has a default, so an empty file (or
/// no file) is a valid configuration for everything but `run`, which also
/// needs a token.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The Discord bot token. Prefer the `DISCORD_TOKEN` environment variable.
    pub token: Option<Secret>,
    /// `sqlite:PATH` (default `sqlite:chessbot.db`) or `postgres://…`.
    pub database_url: String,
    /// Register slash commands in this guild only (instant, for development)
    /// instead of globally.
    pub dev_guild_id: Option<u64>,
    /// Time control of challenges that name none, for servers that have not
    /// chosen their own (`3d`, `10+5`, …).
    pub default_time_control: String,
    /// Whether an accepted challenge opens a thread for its game (servers'
    /// default).
    pub threads: bool,
    /// Board theme (servers' default).
    pub theme: String,
    /// A folder of 12 piece SVGs (`wK.svg` … `bP.svg`) replacing the built-in set.
    pub pieces_dir: Option<PathBuf>,
    /// Remind the player to move this many hours before their deadline.
    pub reminders: Vec<u32>,
    /// The Discord shards this process runs, inclusive (`"0-3"`); `None`: all.
    pub shards: Option<ShardRange>,
    /// The number of shards of the whole bot (needed with `shards`).
    pub shard_total: Option<u32>,
    /// `human` or `json` log lines.
    pub log_format: LogFormat,
    /// Serve Prometheus metrics on this address (`127.0.0.1:9100`); `None`: off.
    pub metrics_addr: Option<SocketAddr>,
    /// Serve the live web board on this address (`0.0.0.0:8080`); `None`: off.
    pub web_addr: Option<SocketAddr>,
    /// The address players' links start with (`https://chess.example.org`);
    /// default `http://` + `web_addr`.
    pub public_url: Option<String>,
    /// The secret the web board's links are signed with; unset: one is made
    /// on first run and kept in the database.
    pub web_secret: Option<Secret>,
    /// The board as a Discord Activity: the application's OAuth2 client id
    /// (its application id) and client secret, from the Developer Portal;
    /// both unset: no Activity.
    pub activity_client_id: Option<String>,
    pub activity_client_secret: Option<Secret>,
    /// How long a challenge waits for an answer (servers' default), in hours.
    pub challenge_hours: u32,
    /// Flood limits per user, `[burst, per_minute]`: slash commands.
    pub limit_commands: [u32; 2],
    /// … button presses.
    pub limit_buttons: [u32; 2],
    /// … autocomplete answers (one per keystroke: looser).
    pub limit_autocomplete: [u32; 2],
    /// Per server: expensive work (charts, histories, exports, data exports).
    pub limit_expensive: [u32; 2],
    /// Write a backup of the SQLite database into this folder every
    /// `backup_every`; `None`: no automatic backups.
    pub backup_dir: Option<PathBuf>,
    /// How often to back up (`6h`, `1d`, …).
    pub backup_every: String,
    /// How many automatic backups to keep (the oldest go).
    pub backup_keep: u32,
    /// SQLite: `full` (every answered move is on disk, even after a power
    /// loss) or `normal` (faster on slow disks; a power loss may undo the
    /// last answered moves).
    pub durability: Durability,
    /// The UCI engine (Stockfish). Unset: `stockfish` on `PATH`, else
    /// `/usr/games/stockfish` (Debian's package); none found: no engine
    /// features.
    pub engine_path: Option<PathBuf>,
    /// Fairy-Stockfish, which plays and analyses lichess's variants other
    /// than Chess960. Unset: `fairy-stockfish` on `PATH`, else
    /// `/usr/games/fairy-stockfish` (Debian's package); none found: those
    /// variants are played between people only.
    pub fairy_engine_path: Option<PathBuf>,
    /// Engine processes searching at once.
    pub engine_pool: u32,
    /// Each engine's hash table, in MB.
    pub engine_hash_mb: u32,
    /// Each engine's search threads.
    pub engine_threads: u32,
    /// The computer resigns lost positions from this level up (0: never).
    pub engine_resign_level: u32,
    /// Search depth of each position of an analysed game.
    pub analysis_depth: u32,
    /// Analyses running at once per server.
    pub analyses_per_server: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            token: None,
            database_url: "sqlite:chessbot.db".to_owned(),
            dev_guild_id: None,
            default_time_control: "3d".to_owned(),
            threads: true,
            theme: "brown".to_owned(),
            pieces_dir: None,
            reminders: vec![24, 1],
            shards: None,
            shard_total: None,
            log_format: LogFormat::Human,
            metrics_addr: None,
            web_addr: None,
            public_url: None,
            web_secret: None,
            activity_client_id: None,
            activity_client_secret: None,
            challenge_hours: 24,
            limit_commands: rate_pair(Limits::default().commands),
            limit_buttons: rate_pair(Limits::default().buttons),
            limit_autocomplete: rate_pair(Limits::default().autocomplete),
            limit_expensive: rate_pair(Limits::default().expensive),
            backup_dir: None,
            backup_every: "1d".to_owned(),
            backup_keep: 7,
            durability: Durability::Full,
            engine_path: None,
            fairy_engine_path: None,
            engine_pool: 1,
            engine_hash_mb: 16,
            engine_threads: 1,
            engine_resign_level: 5,
            analysis_depth: 14,
            analyses_per_server: 1,
        }
    }
}

/// `[burst, per_minute]` of a rate.
fn rate_pair(rate: Rate) -> [u32; 2] {
    [rate.burst, (rate.per_second * 60.0).round() as u32]
}

/// How log lines are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Readable lines for a terminal or `journalctl`.
    #[default]
    Human,
    /// One JSON object per line, for log collectors.
    Json,
}

impl FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<LogFormat, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" => Ok(LogFormat::Human),
            "json" => Ok(LogFormat::Json),
            other => Err(format!(
                "`{other}` is not a log format: use `human` or `json`"
            )),
        }
    }
}

/// A contiguous range of shard ids, both ends included (`"0-3"` is 0, 1, 2, 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
}

impl ShardRange {
    /// The range to hand to serenity's `start_shard_range(range, total)`,
    /// which treats the range's *end as inclusive*: `0-3` becomes `0..3`.
    pub fn serenity_range(self) -> Range<u32> {
        self.first..self.last
    }

    /// How many shards this process runs.
    pub fn len(self) -> u32 {
        self.last - self.first + 1
    }

    /// Never true (a range holds at least one shard); for clippy's sake.
    pub fn is_empty(self) -> bool {
        false
    }
}

impl FromStr for ShardRange {
    type Err = String;

    fn from_str(s: &str) -> Result<ShardRange, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{s}` is not a shard range: write `0-3` or `2`"))
        };
        let (first, last) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if first > last {
            return Err(format!("`{s}`: the first shard comes after the last"));
        }
        Ok(ShardRange { first, last })
    }
}

impl<'de> Deserialize<'de> for ShardRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A secret string: its `Debug` and `Display` print `[redacted]`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The secret itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// A database URL safe to log: the password (`user:password@`) and any
/// `password=` query parameter are replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let mut out = url.to_owned();
    if let Some(scheme_end) = out.find("://") {
        let rest = scheme_end + 3;
        let authority_end = out[rest..].find(['/', '?']).map_or(out.len(), |i| rest + i);
        if let Some(at) = out[rest..authority_end].rfind('@').map(|i| rest + i)
            && let Some(colon) = out[rest..at].find(':').map(|i| rest + i)
        {
            out.replace_range(colon + 1..at, "***");
        }
    }
    if let Some(q) = out.find('?') {
        let query: Vec<String> = out[q + 1..]
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                _ => pair.to_owned(),
            })
            .collect();
        out = format!("{}?{}", &out[..q], query.join("&"));
    }
    out
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("token", &self.token)
            .field("database_url", &redact_url(&self.database_url))
            .field("dev_guild_id", &self.dev_guild_id)
            .field("default_time_control", &self.default_time_control)
            .field("threads", &self.threads)
            .field("theme", &self.theme)
            .field("pieces_dir", &self.pieces_dir)
            .field("reminders", &self.reminders)
            .field("shards", &self.shards)
            .field("shard_total", &self.shard_total)
            .field("log_format", &self.log_format)
            .field("metrics_addr", &self.metrics_addr)
            .field("web_addr", &self.web_addr)
            .field("public_url", &self.public_url)
            .field("web_secret", &self.web_secret)
            .field("activity_client_id", &self.activity_client_id)
            .field("activity_client_secret", &self.activity_client_secret)
            .field("challenge_hours", &self.challenge_hours)
            .field("limit_commands", &self.limit_commands)
            .field("limit_buttons", &self.limit_buttons)
            .field("limit_autocomplete", &self.limit_autocomplete)
            .field("limit_expensive", &self.limit_expensive)
            .field("backup_dir", &self.backup_dir)
            .field("backup_every", &self.backup_every)
            .field("backup_keep", &self.backup_keep)
            .field("durability", &self.durability)
            .field("engine_path", &self.engine_path)
            .field("fairy_engine_path", &self.fairy_engine_path)
            .field("engine_pool", &self.engine_pool)
            .field("engine_hash_mb", &self.engine_hash_mb)
            .field("engine_threads", &self.engine_threads)
            .field("engine_resign_level", &self.engine_resign_level)
            .field("analysis_depth", &self.analysis_depth)
            .field("analyses_per_server", &self.analyses_per_server)
            .finish()
    }
}

/// Why the configuration was refused. The message names the key and where
/// its value came from.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Unknown keys, wrong types and unreadable TOML (the message gives the
    /// line and column).
    #[error("config file {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{origin}: `{key}`: {message}")]
    Invalid {
        key: &'static str,
        /// `config file F, line N`, `environment variable X` or `default`.
        origin: String,
        message: String,
    },
    #[error("no Discord token: set the DISCORD_TOKEN environment variable (preferred) or `token` in the config file")]
    MissingToken,
}

/// Environment variables read by [`Config::load`], with the key each sets.
/// `DISCORD_TOKEN` and `DATABASE_URL` keep their conventional names; the rest
/// are `CHESSBOT_` + the key in capitals.
pub const ENV_VARS: [(&str, &str); 24] = [
    ("DISCORD_TOKEN", "token"),
    ("DATABASE_URL", "database_url"),
    ("CHESSBOT_DEV_GUILD_ID", "dev_guild_id"),
    ("CHESSBOT_DEFAULT_TIME_CONTROL", "default_time_control"),
    ("CHESSBOT_THREADS", "threads"),
    ("CHESSBOT_THEME", "theme"),
    ("CHESSBOT_PIECES_DIR", "pieces_dir"),
    ("CHESSBOT_REMINDERS", "reminders"),
    ("CHESSBOT_SHARDS", "shards"),
    ("CHESSBOT_SHARD_TOTAL", "shard_total"),
    ("CHESSBOT_LOG_FORMAT", "log_format"),
    ("CHESSBOT_METRICS_ADDR", "metrics_addr"),
    ("CHESSBOT_WEB_ADDR", "web_addr"),
    ("CHESSBOT_PUBLIC_URL", "public_url"),
    ("CHESSBOT_WEB_SECRET", "web_secret"),
    ("CHESSBOT_ACTIVITY_CLIENT_ID", "activity_client_id"),
    ("CHESSBOT_ACTIVITY_CLIENT_SECRET", "activity_client_secret"),
    ("CHESSBOT_CHALLENGE_HOURS", "challenge_hours"),
    ("CHESSBOT_BACKUP_DIR", "backup_dir"),
    ("CHESSBOT_BACKUP_EVERY", "backup_every"),
    ("CHESSBOT_BACKUP_KEEP", "backup_keep"),
    ("CHESSBOT_DURABILITY", "durability"),
    ("CHESSBOT_ENGINE_PATH", "engine_path"),
    ("CHESSBOT_FAIRY_ENGINE_PATH", "fairy_engine_path"),
];

/// Where each value came from, to name it in errors.
struct Origins<'a> {
    file: Option<(&'a Path, &'a str)>,
    from_env: Vec<(&'static str, &'static str)>,
}

impl Origins<'_> {
    fn of(&self, key: &str) -> String {
        if let Some((var, _)) = self.from_env.iter().find(|(_, k)| *k == key) {
            return format!("environment variable {var}");
        }
        if let Some((path, text)) = self.file
            && let Some(line) = line_of(text, key)
        {
            return format!("config file {}, line {line}", path.display());
        }
        "default".to_owned()
    }
}

/// The 1-based line where a top-level `key = …` is set (the file is flat).
fn line_of(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            line.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|i| i + 1)
}

impl Config {
    /// Reads `path` (if given), applies the environment on top and checks
    /// every value.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        Config::load_with(path, |name| std::env::var(name).ok())
    }

    /// [`Config::load`] with an explicit environment (tests must not change
    /// the process's own).
    pub fn load_with(
        path: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let text = match path {
            Some(path) => {
                Some(
                    std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                        path: path.to_owned(),
                        source,
                    })?,
                )
            }
            None => None,
        };
        let mut config = match (&text, path) {
            (Some(text), Some(path)) => Config::from_toml(text, path)?,
            _ => Config::default(),
        };
        let from_env = config.apply_env(&env)?;
        let origins = Origins {
            file: path.zip(text.as_deref()),
            from_env,
        };
        config.validate(&origins)?;
        Ok(config)
    }

    /// Parses a file's text (without the environment or validation).
    pub fn from_toml(text: &str, path: &Path) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_owned(),
            message: redact_secrets(e.to_string().trim_end(), text),
        })
    }

    /// Overrides keys from the environment; returns which were overridden.
    fn apply_env(
        &mut self,
        env: &impl Fn(&str) -> Option<String>,
    ) -> Result<Vec<(&'static str, &'static str)>, ConfigError> {
        let mut used = Vec::new();
        for (var, key) in ENV_VARS {
            let Some(value) = env(var).filter(|v| !v.trim().is_empty()) else {
                continue;
            };
            used.push((var, key));
            let bad = |message: String| ConfigError::Invalid {
                key,
                origin: format!("environment variable {var}"),
                message,
            };
            let value = value.trim().to_owned();
            match key {
                "token" => self.token = Some(Secret(value)),
                "database_url" => self.database_url = value,
                "dev_guild_id" => {
                    self.dev_guild_id = Some(
                        value
                            .parse()
                            .map_err(|_| bad(format!("`{value}` is not a guild id (a number)")))?,
                    )
                }
                "default_time_control" => self.default_time_control = value,
                "threads" => {
                    self.threads = parse_bool(&value)
                        .ok_or_else(|| bad(format!("`{value}` is not true or false")))?
                }
                "theme" => self.theme = value,
                "pieces_dir" => self.pieces_dir = Some(PathBuf::from(value)),
                "engine_path" => self.engine_path = Some(PathBuf::from(value)),
                "fairy_engine_path" => self.fairy_engine_path = Some(PathBuf::from(value)),
                "reminders" => {
                    self.reminders = value
                        .split(',')
                        .map(|h| h.trim().parse::<u32>())
                        .collect::<Result<_, _>>()
                        .map_err(|_| bad(format!("`{value}` is not a list of hours like `24,1`")))?
                }
                "shards" => self.shards = Some(value.parse().map_err(bad)?),
                "shard_total" => {
                    self.shard_total = Some(
                        value
                            .parse()
                            .map_err(|_| bad(format!("`{value}` is not a number of shards")))?,
                    )
                }
                "log_format" => self.log_format = value.parse().map_err(bad)?,
                "metrics_addr" => {
                    self.metrics_addr = Some(value.parse().map_err(|_| {
                        bad(format!("`{value}` is not an address like 127.0.0.1:9100"))
                    })?)
                }
                "web_addr" => {
                    self.web_addr = Some(value.parse().map_err(|_| {
                        bad(format!("`{value}` is not an address like 0.0.0.0:8080"))
                    })?)
                }
                "public_url" => self.public_url = Some(value),
                "web_secret" => self.web_secret = Some(Secret(value)),
                "activity_client_id" => {
                    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(bad(format!(
                            "`{value}` is not an application id (digits, from the Developer Portal)"
                        )));
                    }
                    self.activity_client_id = Some(value)
                }
                "activity_client_secret" => self.activity_client_secret = Some(Secret(value)),
                "challenge_hours" => {
                    self.challenge_hours = value
                        .parse()
                        .map_err(|_| bad(format!("`{value}` is not a number of hours")))?
                }
                "backup_dir" => self.backup_dir = Some(PathBuf::from(value)),
                "backup_every" => self.backup_every = value,
                "backup_keep" => {
                    self.backup_keep = value
                        .parse()
                        .map_err(|_| bad(format!("`{value}` is not a number of backups")))?
                }
                "durability" => self.durability = value.parse().map_err(bad)?,
                _ => {}
            }
        }
        Ok(used)
    }

    /// Checks the values serde cannot: URLs, names, ranges.
    fn validate(&self, origins: &Origins) -> Result<(), ConfigError> {
        let bad = |key: &'static str, message: String| ConfigError::Invalid {
            key,
            origin: origins.of(key),
            message,
        };
        check_database_url(&self.database_url).map_err(|m| bad("database_url", m))?;
        if let Err(e) = self.default_time_control.parse::<TimeControl>() {
            return Err(bad("default_time_control", e.to_string()));
        }
        if Theme::by_name(&self.theme).is_none() {
            let names: Vec<_> = Theme::names().collect();
            return Err(bad(
                "theme",
                format!(
                    "no theme called `{}`; choose one of {}",
                    self.theme,
                    names.join(", ")
                ),
            ));
        }
        if let Some(dir) = &self.pieces_dir
            && !dir.is_dir()
        {
            return Err(bad(
                "pieces_dir",
                format!("{} is not a folder", dir.display()),
            ));
        }
        if let Some(h) = self.reminders.iter().find(|h| !(1..=24 * 14).contains(*h)) {
            return Err(bad(
                "reminders",
                format!("{h} hours: each reminder must be between 1 and 336 hours"),
            ));
        }
        if !(1..=24 * 14).contains(&self.challenge_hours) {
            return Err(bad(
                "challenge_hours",
                format!("{}: must be between 1 and 336", self.challenge_hours),
            ));
        }
        match parse_duration(&self.backup_every) {
            Ok(every) if every.as_secs() >= 60 => {}
            Ok(_) => return Err(bad("backup_every", "must be at least 1m".to_owned())),
            Err(e) => return Err(bad("backup_every", e.to_string())),
        }
        if self.backup_keep == 0 {
            return Err(bad("backup_keep", "must be at least 1".to_owned()));
        }
        // The Activity needs both credentials, and the web board to serve it.
        match (&self.activity_client_id, &self.activity_client_secret) {
            (Some(_), None) => {
                return Err(bad(
                    "activity_client_secret",
                    "is needed with activity_client_id (the application's OAuth2 client secret)"
                        .to_owned(),
                ))
            }
            (None, Some(_)) => {
                return Err(bad(
                    "activity_client_id",
                    "is needed with activity_client_secret (the application's id)".to_owned(),
                ))
            }
            (Some(_), Some(_)) if self.web_addr.is_none() => {
                return Err(bad(
                    "web_addr",
                    "is needed for the Activity (the web board serves its page)".to_owned(),
                ))
            }
            _ => {}
        }
        if let Some(dir) = &self.backup_dir {
            if !dir.is_dir() {
                return Err(bad(
                    "backup_dir",
                    format!("{} is not a folder", dir.display()),
                ));
            }
            if matches!(
                normalize_url(&self.database_url),
                Ok((_, crate::store::Backend::Postgres))
            ) {
                return Err(bad(
                    "backup_dir",
                    "automatic backups are for SQLite; back PostgreSQL up with pg_dump".to_owned(),
                ));
            }
        }
        for (key, [burst, per_minute]) in [
            ("limit_commands", self.limit_commands),
            ("limit_buttons", self.limit_buttons),
            ("limit_autocomplete", self.limit_autocomplete),
            ("limit_expensive", self.limit_expensive),
        ] {
            if burst > 0 && per_minute == 0 {
                return Err(bad(
                    key,
                    "a burst without a rate would refuse forever once spent: give a rate per minute, or 0 burst for no limit".to_owned(),
                ));
            }
        }
        for (key, value, range) in [
            ("engine_pool", self.engine_pool, 1..=64),
            ("engine_hash_mb", self.engine_hash_mb, 1..=65_536),
            ("engine_threads", self.engine_threads, 1..=256),
            ("engine_resign_level", self.engine_resign_level, 0..=8),
            ("analysis_depth", self.analysis_depth, 1..=40),
            ("analyses_per_server", self.analyses_per_server, 1..=64),
        ] {
            if !range.contains(&value) {
                return Err(bad(
                    key,
                    format!(
                        "{value}: must be between {} and {}",
                        range.start(),
                        range.end()
                    ),
                ));
            }
        }
        match (self.shards, self.shard_total) {
            (Some(_), None) => {
                return Err(bad(
                    "shard_total",
                    "missing: `shards` needs the bot's total number of shards".to_owned(),
                ))
            }
            (_, Some(0)) => return Err(bad("shard_total", "must be at least 1".to_owned())),
            (Some(range), Some(total)) if range.last >= total => {
                return Err(bad(
                    "shards",
                    format!(
                        "shard {} does not exist: shard ids run from 0 to {} with shard_total = {total}",
                        range.last,
                        total - 1
                    ),
                ))
            }
            _ => {}
        }
        Ok(())
    }

    /// The settings a server starts with, from `default_time_control`,
    /// `threads`, `theme` and `challenge_hours` (in their canonical forms;
    /// call on a validated config). Hand it to
    /// [`crate::store::Store::with_server_defaults`].
    pub fn server_defaults(&self) -> ServerSettings {
        let mut d = ServerSettings::defaults("");
        if let Ok(tc) = self.default_time_control.parse::<TimeControl>() {
            d.default_time_control = tc.to_string();
        }
        if let Some(theme) = Theme::by_name(&self.theme) {
            d.theme = theme.name.to_owned();
        }
        d.threads = self.threads;
        d.challenge_ttl_ms = i64::from(self.challenge_hours) * 3_600_000;
        if !self.reminders.is_empty() {
            let mut hours: Vec<i64> = self.reminders.iter().map(|h| i64::from(*h)).collect();
            hours.sort_unstable_by(|a, b| b.cmp(a));
            hours.dedup();
            d.reminder_hours = hours;
        }
        d
    }

    /// The Activity's sign-in, if both credentials are set (call on a
    /// validated config).
    pub fn activity(&self) -> Option<crate::platform::web::ActivityAuth> {
        Some(crate::platform::web::ActivityAuth {
            client_id: self.activity_client_id.clone()?,
            client_secret: self.activity_client_secret.clone()?,
            api_base: crate::platform::web::api_base(None),
        })
    }

    /// The flood limits (call on a validated config).
    pub fn limits(&self) -> Limits {
        let rate = |[burst, per_minute]: [u32; 2]| Rate::per_minute(burst, per_minute);
        Limits {
            commands: rate(self.limit_commands),
            buttons: rate(self.limit_buttons),
            autocomplete: rate(self.limit_autocomplete),
            expensive: rate(self.limit_expensive),
        }
    }

    /// The automatic backups, if `backup_dir` is set (call on a validated
    /// config).
    pub fn backup_plan(&self) -> Option<BackupPlan> {
        let dir = self.backup_dir.clone()?;
        let every = parse_duration(&self.backup_every).ok()?;
        Some(BackupPlan {
            dir,
            every,
            keep: self.backup_keep as usize,
        })
    }

    /// Finds and starts the engine as configured (`None`, logged once, when
    /// there is none: the bot runs without engine features).
    pub async fn start_engine(&self) -> Option<crate::engine::Engine> {
        let options = crate::engine::EngineOptions {
            resign_from_level: u8::try_from(self.engine_resign_level)
                .ok()
                .filter(|l| *l > 0),
            analysis: crate::engine::AnalysisLimits {
                depth: self.analysis_depth,
                ..crate::engine::AnalysisLimits::default()
            },
            analyses_per_server: self.analyses_per_server as usize,
            ..crate::engine::EngineOptions::default()
        };
        crate::engine::Engine::start(
            self.engine_path.as_deref(),
            self.engine_pool as usize,
            self.engine_hash_mb,
            self.engine_threads,
            options,
        )
        .await
    }

    /// Starts Fairy-Stockfish as configured, with the engine's pool and
    /// options (`None`, logged, when it is not installed).
    pub async fn start_fairy_engine(&self) -> Option<crate::engine::Engine> {
        let options = crate::engine::EngineOptions {
            resign_from_level: u8::try_from(self.engine_resign_level)
                .ok()
                .filter(|l| *l > 0),
            analysis: crate::engine::AnalysisLimits {
                depth: self.analysis_depth,
                ..crate::engine::AnalysisLimits::default()
            },
            analyses_per_server: self.analyses_per_server as usize,
            ..crate::engine::EngineOptions::default()
        };
        crate::engine::Engine::start_fairy(
            self.fairy_engine_path.as_deref(),
            self.engine_pool as usize,
            self.engine_hash_mb,
            self.engine_threads,
            options,
        )
        .await
    }

    /// The token, which `run` cannot do without.
    pub fn require_token(&self) -> Result<&Secret, ConfigError> {
        self.token
            .as_ref()
            .filter(|t| !t.expose().trim().is_empty())
            .ok_or(ConfigError::MissingToken)
    }

    /// `(range, total)` for serenity: this process's shards, or all of them
    /// when `shards` is not set (`None`: let Discord choose the count).
    pub fn shard_plan(&self) -> Option<(Range<u32>, u32)> {
        match (self.shards, self.shard_total) {
            (Some(range), Some(total)) => Some((range.serenity_range(), total)),
            (None, Some(total)) => Some((0..total - 1, total)),
            _ => None,
        }
    }
}

/// A TOML error quotes the file's line; when that line holds the token
/// (or a database URL with a password), the quote must not show it. Every
/// value given to `token` in the file, read however broken its quoting, is
/// replaced by `[redacted]`, and URLs keep their password hidden.
fn redact_secrets(message: &str, text: &str) -> String {
    let mut out = message.to_owned();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("token") else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        // The value as written, without its quotes and anything after a
        // closing quote; and each whitespace-separated piece of it, since
        // an error may quote only part of the line.
        let value = value.trim().trim_matches(['"', '\'']).trim();
        let mut secrets: Vec<&str> = vec![value];
        secrets.extend(value.split(['"', '\'', ' ', '#']).filter(|p| p.len() >= 4));
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        for secret in secrets.into_iter().filter(|s| s.len() >= 4) {
            out = out.replace(secret, "[redacted]");
        }
    }
    out.lines()
        .map(|line| {
            if line.contains("://") {
                line.split(' ')
                    .map(|word| match word.find("://") {
                        Some(_) => redact_url(word),
                        None => word.to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Checks a database URL without connecting (the message never repeats a
/// password).
fn check_database_url(url: &str) -> Result<(), String> {
    use sqlx::{postgres::PgConnectOptions, sqlite::SqliteConnectOptions};
    let shown = redact_url(url);
    let (normalized, backend) = normalize_url(url).map_err(|_| {
        format!("`{shown}` is not a database URL: use sqlite:PATH or postgres://USER@HOST/DB")
    })?;
    let parsed = match backend {
        crate::store::Backend::Postgres => PgConnectOptions::from_str(&normalized).map(|_| ()),
        crate::store::Backend::Sqlite => SqliteConnectOptions::from_str(&normalized).map(|_| ()),
    };
    parsed.map_err(|e| format!("`{shown}` cannot be used: {}", redact_url(&e.to_string())))
}
