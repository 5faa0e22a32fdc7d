//! The database a bench run uses: a fresh SQLite file in a temporary folder,
//! a fresh PostgreSQL database (created and dropped around the run, so runs
//! never see each other's rows), or a URL given as is.

use std::path::PathBuf;

use anyhow::Context;
use sqlx::{Connection, Executor};

/// Where PostgreSQL is looked for when `--database postgres` is given.
pub const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/test";

pub struct BenchDatabase {
    url: String,
    /// A SQLite file's folder, removed on drop.
    _dir: Option<tempfile::TempDir>,
    /// A PostgreSQL database created for this run: (admin URL, name).
    created: Option<(String, String)>,
}

impl BenchDatabase {
    pub async fn create(spec: &str) -> anyhow::Result<BenchDatabase> {
        match spec {
            "sqlite" => {
                let dir = tempfile::Builder::new()
                    .prefix("chessbot-bench")
                    .tempdir_in(bench_tmp())?;
                let url = format!("sqlite:{}", dir.path().join("bench.db").display());
                Ok(BenchDatabase {
                    url,
                    _dir: Some(dir),
                    created: None,
                })
            }
            "postgres" => {
                let admin = std::env::var("BENCH_POSTGRES_URL")
                    .unwrap_or_else(|_| DEFAULT_POSTGRES.to_owned());
                let name = format!("chessbot_bench_{}", std::process::id());
                let mut conn = sqlx::PgConnection::connect(&admin)
                    .await
                    .context("connecting to PostgreSQL (set BENCH_POSTGRES_URL)")?;
                conn.execute(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {name}"
                )))
                .await?;
                conn.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .await?;
                let url = match admin.rsplit_once('/') {
                    Some((base, _)) => format!("{base}/{name}"),
                    None => anyhow::bail!("cannot read the database name of {admin}"),
                };
                Ok(BenchDatabase {
                    url,
                    _dir: None,
                    created: Some((admin, name)),
                })
            }
            url => Ok(BenchDatabase {
                url: url.to_owned(),
                _dir: None,
                created: None,
            }),
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Drops a PostgreSQL database made for this run.
    pub async fn drop_it(self) -> anyhow::Result<()> {
        if let Some((admin, name)) = &self.created {
            let mut conn = sqlx::PgConnection::connect(admin).await?;
            conn.execute(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
            )))
            .await?;
        }
        Ok(())
    }
}

/// `TMPDIR` or `/tmp`: a disk-backed folder on most machines, so SQLite
/// figures include real file writes.
fn bench_tmp() -> PathBuf {
    std::env::var_os("TMPDIR").map_or_else(|| PathBuf::from("/tmp"), PathBuf::from)
}

/// A URL fit to print: the password (if any) replaced.
pub fn describe(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

/// Whether the database server runs on this machine (its host is a loopback
/// name or address, or a Unix socket: no host, a percent-encoded socket
/// directory such as `%2Fvar%2Frun%2Fpostgresql`, or a `host=/…` parameter),
/// so its processes' CPU time can be read.
pub fn is_local(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    // libpq's and sqlx's `host` parameter wins over the URL's host.
    let parameter = rest
        .split_once('?')
        .and_then(|(_, query)| query.split('&').find_map(|pair| pair.strip_prefix("host=")));
    let host_port = rest.split(['/', '?']).next().unwrap_or("");
    let host_port = host_port.rsplit_once('@').map_or(host_port, |(_, h)| h);
    let host = match parameter {
        Some(host) => host,
        None => match host_port.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => host_port.split(':').next().unwrap_or(""),
        },
    };
    let socket =
        host.starts_with('/') || host.get(..3).is_some_and(|s| s.eq_ignore_ascii_case("%2f"));
    matches!(host, "localhost" | "127.0.0.1" | "::1") || host.is_empty() || socket
}

#[cfg(test)]
mod tests {
    use super::is_local;

    #[test]
    fn local_hosts_are_told_from_remote_ones() {
        assert!(is_local("postgres://postgres@127.0.0.1:5432/test"));
        assert!(is_local("postgres://u:p@localhost/db"));
        assert!(is_local("postgres://[::1]:5432/db"));
        assert!(is_local("postgres:///db"));
        assert!(!is_local("postgres://postgres@db.example.com:5432/test"));
        assert!(!is_local("postgres://10.0.0.5/test"));
        assert!(!is_local("sqlite:/tmp/x.db"));
        // Unix sockets, in both of the forms sqlx reads.
        assert!(is_local(
            "postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test"
        ));
        assert!(is_local("postgres://u@%2ftmp/db"));
        assert!(is_local("postgres:///db?host=/var/run/postgresql"));
        assert!(!is_local(
            "postgres:///db?sslmode=disable&host=db.example.com"
        ));
    }
}
