//! Online backups of a SQLite database: `VACUUM INTO` writes a consistent,
//! compacted copy of the database as of one moment, while the bot keeps
//! reading and writing (it is a read transaction; WAL lets the one writer
//! carry on beside it). PostgreSQL is backed up with `pg_dump` instead
//! (docs/deploying.md).

use std::path::{Path, PathBuf};

use super::{Backend, Store};

/// Why a backup was not made. Each message names the path.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("backups of a PostgreSQL database are made with pg_dump (see docs/deploying.md)")]
    Postgres,
    #[error("cannot write a backup to {path}: a file is already there")]
    Exists { path: PathBuf },
    #[error("cannot write a backup to {path}: folder {dir} does not exist")]
    NoFolder { path: PathBuf, dir: PathBuf },
    #[error("cannot write a backup to {path}: {reason}")]
    Write { path: PathBuf, reason: String },
}

impl Store {
    /// Writes a consistent copy of the whole database to `path` (a new
    /// file), without stopping anything. SQLite only.
    pub async fn backup_to(&self, path: &Path) -> Result<(), BackupError> {
        if self.backend != Backend::Sqlite {
            return Err(BackupError::Postgres);
        }
        if path.exists() {
            return Err(BackupError::Exists {
                path: path.to_owned(),
            });
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(BackupError::NoFolder {
                path: path.to_owned(),
                dir: dir.to_owned(),
            });
        }
        let Some(target) = path.to_str() else {
            return Err(BackupError::Write {
                path: path.to_owned(),
                reason: "the path is not valid UTF-8".to_owned(),
            });
        };
        sqlx::query("VACUUM INTO $1")
            .bind(target.to_owned())
            .execute(&self.pool)
            .await
            .map_err(|e| BackupError::Write {
                path: path.to_owned(),
                reason: match &e {
                    sqlx::Error::Database(db) => db.message().to_owned(),
                    other => other.to_string(),
                },
            })?;
        Ok(())
    }
}
