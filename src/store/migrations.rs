//! The schema migrations, embedded in the binary without sqlx's `migrate!`
//! macro.
//!
//! The macro would pull sqlx's proc-macro crate, which compiles a second copy
//! of both database drivers (SQLite's C source included) for the build host:
//! minutes of every cold build. The list here builds the same
//! [`Migrator`] at run time: version and description from the file name, the
//! checksum sqlx computes (SHA-384 of the text), so databases migrated by the
//! macro before see the same rows in `_sqlx_migrations`. A test checks the
//! list against the files in `migrations/`.

use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};

/// One migration file: its name (`0001_initial.sql`) and text.
type File = (&'static str, &'static str);

/// Lists `migrations/<dir>/<name>` files, embedded with `include_str!`.
macro_rules! files {
    ($dir:literal: $($name:literal),+ $(,)?) => {
        &[$(($name, include_str!(concat!("../../migrations/", $dir, "/", $name)))),+]
    };
}

/// SQLite's migrations, in order.
pub const SQLITE: &[File] = files!("sqlite":
    "0001_initial.sql",
    "0002_finished_status.sql",
    "0003_time.sql",
    "0004_game_changes.sql",
    "0005_languages.sql",
    "0007_analysis.sql",
    "0008_audit_log.sql",
    "0009_rematch_takeback_orientation.sql",
    "0010_conditional_moves.sql",
    "0011_tournaments.sql",
    "0012_web_board.sql",
    "0013_web_pages.sql",
    "0014_ladder_order.sql",
    "0015_adjournments_titles.sql",
    "0016_puzzles.sql",
    "0017_daily_puzzles_mining.sql",
    "0018_variants.sql",
    "0019_wake.sql",
);

/// PostgreSQL's migrations, in order.
pub const POSTGRES: &[File] = files!("postgres":
    "0001_initial.sql",
    "0002_finished_status.sql",
    "0003_time.sql",
    "0005_languages.sql",
    "0007_analysis.sql",
    "0008_audit_log.sql",
    "0009_rematch_takeback_orientation.sql",
    "0010_conditional_moves.sql",
    "0011_tournaments.sql",
    "0012_web_board.sql",
    "0013_web_pages.sql",
    "0014_ladder_order.sql",
    "0015_adjournments_titles.sql",
    "0016_puzzles.sql",
    "0017_daily_puzzles_mining.sql",
    "0018_variants.sql",
    "0019_wake.sql",
    "0020_context_stamps.sql",
    "0021_move_path_checks.sql",
);

/// The migrator over `files`, as `sqlx::migrate!` would have built it.
pub fn migrator(files: &'static [File]) -> Migrator {
    let migrations: Vec<Migration> = files
        .iter()
        .map(|&(name, sql)| migration(name, sql))
        .collect();
    Migrator {
        migrations: Cow::Owned(migrations),
        ..Migrator::DEFAULT
    }
}

/// One file as a migration: `<version>_<description>.sql`, the description
/// with spaces for underscores (sqlx's reading of a file name).
fn migration(name: &'static str, sql: &'static str) -> Migration {
    let (version, rest) = name
        .split_once('_')
        .expect("migration file names are <version>_<description>.sql");
    let version: i64 = version.parse().expect("migration versions are numbers");
    let description = rest.trim_end_matches(".sql").replace('_', " ");
    Migration::new(
        version,
        Cow::Owned(description),
        MigrationType::Simple,
        sqlx::SqlSafeStr::into_sql_str(sql),
        sql.starts_with("-- no-transaction"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `.sql` file in the directory is in the list, in order, and
    /// nothing else is: a new migration cannot be forgotten here.
    fn listed_as_on_disk(dir: &str, files: &[File]) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(dir);
        let mut on_disk: Vec<String> = std::fs::read_dir(&path)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".sql"))
            .collect();
        on_disk.sort();
        let listed: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            listed, on_disk,
            "src/store/migrations.rs lists migrations/{dir}"
        );
    }

    #[test]
    fn lists_match_the_migration_directories() {
        listed_as_on_disk("sqlite", SQLITE);
        listed_as_on_disk("postgres", POSTGRES);
    }

    #[test]
    fn versions_descriptions_and_checksums_as_sqlx_reads_them() {
        let migrator = migrator(SQLITE);
        let first = &migrator.migrations[0];
        assert_eq!(first.version, 1);
        assert_eq!(first.description, "initial");
        assert_eq!(migrator.migrations[1].description, "finished status");
        assert_eq!(first.checksum.len(), 48, "SHA-384, as sqlx stores it");
        assert!(migrator
            .migrations
            .windows(2)
            .all(|w| w[0].version < w[1].version));
    }
}
