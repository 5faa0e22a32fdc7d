//! Configuration: defaults, the example file, environment overrides, and the
//! messages an operator gets for each kind of mistake.

use std::{collections::HashMap, io::Write, path::Path};

use chessbot::config::{Config, ConfigError, LogFormat, ShardRange};

/// Loads `text` as a config file with the given environment.
fn load(text: &str, env: &[(&str, &str)]) -> Result<Config, ConfigError> {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    let env: HashMap<String, String> = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    Config::load_with(Some(file.path()), |name| env.get(name).cloned())
}

fn error(text: &str, env: &[(&str, &str)]) -> String {
    match load(text, env) {
        Ok(config) => panic!("accepted: {config:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn no_file_gives_the_documented_defaults() {
    let config = Config::load_with(None, |_| None).unwrap();
    assert_eq!(config.database_url, "sqlite:chessbot.db");
    assert_eq!(config.default_time_control, "3d");
    assert!(config.threads);
    assert_eq!(config.theme, "brown");
    assert_eq!(config.reminders, vec![24, 1]);
    assert_eq!(config.log_format, LogFormat::Human);
    assert_eq!(config.challenge_hours, 24);
    assert!(config.token.is_none() && config.metrics_addr.is_none());
    assert!(config.shard_plan().is_none());
}

#[test]
fn the_example_file_is_valid_and_states_the_defaults() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let example = Config::load_with(Some(&path), |_| None).unwrap();
    assert_eq!(format!("{example:?}"), format!("{:?}", Config::default()));
    // Every key is documented (as a commented-out line with its default).
    for key in [
        "token",
        "database_url",
        "dev_guild_id",
        "default_time_control",
        "threads",
        "theme",
        "pieces_dir",
        "reminders",
        "shards",
        "shard_total",
        "log_format",
        "metrics_addr",
        "challenge_hours",
        "limit_commands",
        "limit_buttons",
        "limit_autocomplete",
        "limit_expensive",
        "backup_dir",
        "backup_every",
        "backup_keep",
    ] {
        assert!(text.contains(&format!("# {key} = ")), "{key} undocumented");
    }
}

#[test]
fn a_full_file_is_read() {
    let config = load(
        r#"
database_url = "postgres://bot:pw@db:5432/chess"
dev_guild_id = 1234
default_time_control = "10+5"
threads = false
theme = "Blue"
reminders = [12]
shards = "4-7"
shard_total = 8
log_format = "json"
metrics_addr = "0.0.0.0:9100"
challenge_hours = 48
"#,
        &[("DISCORD_TOKEN", "abc.def")],
    )
    .unwrap();
    assert_eq!(config.require_token().unwrap().expose(), "abc.def");
    assert_eq!(config.dev_guild_id, Some(1234));
    assert_eq!(config.shards, Some(ShardRange { first: 4, last: 7 }));
    // serenity's start_shard_range treats the end as inclusive.
    assert_eq!(config.shard_plan(), Some((4..7, 8)));
    assert_eq!(config.log_format, LogFormat::Json);
    assert_eq!(config.metrics_addr.unwrap().port(), 9100);
}

#[test]
fn environment_overrides_the_file() {
    let config = load(
        "database_url = \"sqlite:file.db\"\ntheme = \"green\"\nlog_format = \"json\"\n",
        &[
            ("DATABASE_URL", "sqlite:/data/other.db"),
            ("CHESSBOT_LOG_FORMAT", "human"),
            ("CHESSBOT_DEV_GUILD_ID", "42"),
            ("CHESSBOT_REMINDERS", "48, 2"),
            ("CHESSBOT_SHARDS", "2"),
            ("CHESSBOT_SHARD_TOTAL", "4"),
            ("CHESSBOT_THREADS", "off"),
        ],
    )
    .unwrap();
    assert_eq!(config.database_url, "sqlite:/data/other.db");
    assert_eq!(config.theme, "green");
    assert_eq!(config.log_format, LogFormat::Human);
    assert_eq!(config.dev_guild_id, Some(42));
    assert_eq!(config.reminders, vec![48, 2]);
    assert_eq!(config.shard_plan(), Some((2..2, 4)));
    assert!(!config.threads);
}

#[test]
fn an_unknown_key_is_named_with_its_line() {
    let e = error("theme = \"blue\"\ncolour = \"red\"\n", &[]);
    assert!(e.contains("line 2"), "{e}");
    assert!(e.contains("unknown field `colour`"), "{e}");
    assert!(e.contains("expected one of `token`"), "{e}");
}

#[test]
fn a_wrong_type_is_named_with_its_line() {
    let e = error("\n\nthreads = \"yes\"\n", &[]);
    assert!(e.contains("line 3"), "{e}");
    assert!(e.contains("threads"), "{e}");
}

#[test]
fn a_bad_database_url_is_refused_without_showing_the_password() {
    let e = error("database_url = \"mysql://root:hunter2@db/chess\"\n", &[]);
    assert!(e.contains("line 1"), "{e}");
    assert!(e.contains("`database_url`"), "{e}");
    assert!(e.contains("use sqlite:PATH or postgres://"), "{e}");
    assert!(!e.contains("hunter2"), "{e}");

    let e = error(
        "",
        &[("DATABASE_URL", "postgres://bot:hunter2@db:notaport/x")],
    );
    assert!(
        e.starts_with("environment variable DATABASE_URL: `database_url`"),
        "{e}"
    );
    assert!(!e.contains("hunter2"), "{e}");
}

#[test]
fn a_bad_theme_lists_the_themes() {
    let e = error("# board colours\ntheme = \"purple\"\n", &[]);
    assert!(
        e.contains("line 2: `theme`: no theme called `purple`"),
        "{e}"
    );
    assert!(e.contains("brown"), "{e}");
}

#[test]
fn a_bad_time_control_is_explained() {
    let e = error("default_time_control = \"forever\"\n", &[]);
    assert!(e.contains("`default_time_control`"), "{e}");
}

#[test]
fn bad_shard_settings_are_explained() {
    let e = error("shards = \"0-3\"\n", &[]);
    assert!(e.contains("`shard_total`: missing"), "{e}");
    let e = error("shards = \"4-8\"\nshard_total = 8\n", &[]);
    assert!(
        e.contains("line 1: `shards`: shard 8 does not exist"),
        "{e}"
    );
    let e = error("shards = \"3-1\"\nshard_total = 8\n", &[]);
    assert!(e.contains("line 1"), "{e}");
    assert!(e.contains("comes after"), "{e}");
    let e = error("", &[("CHESSBOT_SHARDS", "a-b")]);
    assert!(
        e.contains("environment variable CHESSBOT_SHARDS: `shards`"),
        "{e}"
    );
}

#[test]
fn bad_environment_values_name_the_variable() {
    let e = error("", &[("CHESSBOT_LOG_FORMAT", "xml")]);
    assert_eq!(
        e,
        "environment variable CHESSBOT_LOG_FORMAT: `log_format`: `xml` is not a log format: use `human` or `json`"
    );
    let e = error("", &[("CHESSBOT_METRICS_ADDR", "localhost")]);
    assert!(e.contains("CHESSBOT_METRICS_ADDR"), "{e}");
}

#[test]
fn a_missing_pieces_dir_is_refused() {
    let e = error("pieces_dir = \"/no/such/folder\"\n", &[]);
    assert!(
        e.contains("`pieces_dir`: /no/such/folder is not a folder"),
        "{e}"
    );
}

#[test]
fn run_needs_a_token() {
    let config = load("", &[]).unwrap();
    let e = config.require_token().unwrap_err().to_string();
    assert!(e.contains("no Discord token"), "{e}");
    assert!(e.contains("DISCORD_TOKEN"), "{e}");
    // An empty variable counts as unset.
    let config = load("", &[("DISCORD_TOKEN", "  ")]).unwrap();
    assert!(config.require_token().is_err());
}

#[test]
fn secrets_stay_out_of_debug_output() {
    let config = load(
        "token = \"file-token-secret\"\ndatabase_url = \"postgres://bot:hunter2@db/chess?password=hunter3\"\n",
        &[],
    )
    .unwrap();
    let shown = format!("{config:?}");
    assert!(!shown.contains("file-token-secret"), "{shown}");
    assert!(
        !shown.contains("hunter2") && !shown.contains("hunter3"),
        "{shown}"
    );
    assert!(
        shown.contains("postgres://bot:***@db/chess?password=***"),
        "{shown}"
    );
}

#[test]
fn a_missing_file_is_named() {
    let e = Config::load_with(Some(Path::new("/no/such/chessbot.toml")), |_| None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("cannot read config file /no/such/chessbot.toml"),
        "{e}"
    );
}

/// A broken line holding the token must not be echoed with the secret in
/// the TOML error (issue 16, item 9).
#[test]
fn a_toml_error_on_the_token_line_does_not_show_the_token() {
    let secret = "MTA4OTk5.Gx-abc.s3cr3tT0k3nV4lu3";
    for text in [
        format!("token = \"{secret}\n"),
        format!("token = \"{secret}\" junk\n"),
        format!("token = {secret}\n"),
        format!("theme = \"blue\"\ntoken = '{secret}\n"),
    ] {
        let e = error(&text, &[]);
        assert!(!e.contains(secret), "{e}");
        assert!(!e.contains("s3cr3t"), "{e}");
        assert!(e.contains("line"), "still says where: {e}");
    }
    let e = error(
        "database_url = \"postgres://bot:hunter22@db/chess\" x\n",
        &[],
    );
    assert!(!e.contains("hunter22"), "{e}");
}

#[test]
fn durability_is_full_unless_chosen() {
    use chessbot::store::Durability;
    assert_eq!(Config::default().durability, Durability::Full);
    assert_eq!(
        load("durability = \"normal\"\n", &[]).unwrap().durability,
        Durability::Normal
    );
    assert_eq!(
        load("", &[("CHESSBOT_DURABILITY", "normal")])
            .unwrap()
            .durability,
        Durability::Normal
    );
    let e = error("", &[("CHESSBOT_DURABILITY", "sometimes")]);
    assert!(
        e.contains("CHESSBOT_DURABILITY") && e.contains("full or normal"),
        "{e}"
    );
    let e = error("durability = \"fast\"\n", &[]);
    assert!(e.contains("durability") || e.contains("full"), "{e}");
}
