//! Automatic backups: every `backup_every`, a consistent copy of the SQLite
//! database goes into `backup_dir` under a name that sorts by time
//! (`chessbot-20261201-153000.db`), and only the newest `backup_keep` are
//! kept. The copy itself is [`Store::backup_to`] (`VACUUM INTO`); it is
//! written under a temporary name and renamed, so a crash half-way never
//! leaves a truncated file that looks like a backup.

use std::{
    path::{Path, PathBuf},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use crate::{
    clock::utc_parts,
    store::{BackupError, Store},
};

/// Where, how often, how many.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupPlan {
    pub dir: PathBuf,
    pub every: Duration,
    /// Backups kept (the oldest beyond this are deleted); at least 1.
    pub keep: usize,
}

const PREFIX: &str = "chessbot-";
const SUFFIX: &str = ".db";

/// `chessbot-YYYYMMDD-HHMMSS.db` for a unix time in seconds (UTC).
pub fn file_name(unix_secs: i64) -> String {
    let (y, mo, d, h, mi, s) = utc_parts(unix_secs);
    format!("{PREFIX}{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}{SUFFIX}")
}

/// Makes one backup in `plan.dir` and deletes the oldest beyond
/// `plan.keep`. Returns the new file.
pub async fn backup_once(store: &Store, plan: &BackupPlan) -> Result<PathBuf, BackupError> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let path = plan.dir.join(file_name(now));
    let partial = plan.dir.join(format!("{}.partial", file_name(now)));
    // A partial file left by a crash would make VACUUM INTO refuse.
    let _ = std::fs::remove_file(&partial);
    store.backup_to(&partial).await?;
    std::fs::rename(&partial, &path).map_err(|e| BackupError::Write {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    prune(&plan.dir, plan.keep.max(1));
    Ok(path)
}

/// Deletes all but the newest `keep` backups in `dir` (our names only).
fn prune(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(PREFIX) && n.ends_with(SUFFIX))
        .collect();
    names.sort();
    let excess = names.len().saturating_sub(keep);
    for name in &names[..excess] {
        if let Err(e) = std::fs::remove_file(dir.join(name)) {
            tracing::warn!(file = %name, error = %e, "cannot delete an old backup");
        }
    }
}

/// Backs up every `plan.every` until the task is dropped. Failures are
/// logged and counted (`chessbot_backups_total{outcome="error"}`); the bot
/// carries on.
pub async fn run(store: Store, plan: BackupPlan) {
    let mut ticks = tokio::time::interval(plan.every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let started = std::time::Instant::now();
        match backup_once(&store, &plan).await {
            Ok(path) => {
                crate::metrics::backup_done(true, started.elapsed());
                tracing::info!(file = %path.display(), took_ms = started.elapsed().as_millis() as u64, "backup written");
            }
            Err(e) => {
                crate::metrics::backup_done(false, started.elapsed());
                tracing::error!(error = %e, "backup failed");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_by_time() {
        assert_eq!(file_name(0), "chessbot-19700101-000000.db");
        assert_eq!(file_name(1_796_139_000), "chessbot-20261201-153000.db");
        assert!(file_name(1_796_139_000) < file_name(1_796_139_001));
        assert_eq!(file_name(951_782_400), "chessbot-20000229-000000.db");
    }

    #[test]
    fn pruning_keeps_the_newest() {
        let dir = tempfile::tempdir().expect("dir");
        for t in [3, 1, 2, 4] {
            std::fs::write(dir.path().join(file_name(t)), b"x").expect("write");
        }
        std::fs::write(dir.path().join("other.db"), b"x").expect("write");
        prune(dir.path(), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("read")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .collect();
        left.sort();
        assert_eq!(
            left,
            vec![file_name(3), file_name(4), "other.db".to_owned()]
        );
    }
}
