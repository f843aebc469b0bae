//! A consistent copy of a SQLite database taken while the server writes.
//!
//! `VACUUM INTO` reads the database in one read transaction — in WAL mode a
//! snapshot that writers do not block and that does not block them — and
//! writes it, compacted, into a new file: every transaction committed before
//! it began is in the copy, none that committed after. The file is created
//! here first (empty, mode 0600, never over an existing file); SQLite writes
//! into an empty file. The copy is then made a single self-contained file
//! (`journal_mode = DELETE`) and must pass `PRAGMA integrity_check`, else it
//! is removed. PostgreSQL is backed up with its own tools (`pg_dump`, or a
//! base backup with WAL archiving): see docs/operations.md.

use std::path::{Path, PathBuf};

use diesel::connection::SimpleConnection as _;
use diesel::{Connection as _, RunQueryDsl as _, SqliteConnection};

use crate::db::{Backend, Conn, Db, DbError};

/// A backup written and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// Where it is (absolute).
    pub path: PathBuf,
    /// Its size.
    pub bytes: u64,
}

/// Why no backup was written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database is PostgreSQL: its backups are `pg_dump`'s job.
    #[error("the database is PostgreSQL: back it up with pg_dump (see docs/operations.md)")]
    Postgres,
    /// The target exists; a backup never overwrites a file.
    #[error("{} already exists: a backup never overwrites a file, choose a new name", .0.display())]
    Exists(PathBuf),
    /// The target's name is not UTF-8 (SQLite takes it as text).
    #[error("{} is not a UTF-8 file name", .0.display())]
    Name(PathBuf),
    /// The target could not be created (missing or read-only directory, …).
    #[error("cannot create {}: {source}", .path.display())]
    Create {
        /// The target.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Copying failed; the partial file was removed.
    #[error("copying the database into {} failed: {source}", .path.display())]
    Copy {
        /// The target (removed).
        path: PathBuf,
        /// The database's error.
        source: DbError,
    },
    /// The copy could not be opened or checked; it was removed.
    #[error("checking the copy {} failed: {source}", .path.display())]
    Check {
        /// The target (removed).
        path: PathBuf,
        /// The database's error.
        source: DbError,
    },
    /// The copy fails `PRAGMA integrity_check`; it was removed.
    #[error("the copy {} fails PRAGMA integrity_check ({report}); it was removed", .path.display())]
    Corrupt {
        /// The target (removed).
        path: PathBuf,
        /// The check's first lines.
        report: String,
    },
}

#[derive(diesel::QueryableByName)]
struct CheckRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    integrity_check: String,
}

impl Db {
    /// Writes a consistent copy of this SQLite database to `target`, which
    /// must not exist: created with mode 0600, filled by `VACUUM INTO` while
    /// other connections keep writing, then checked. On PostgreSQL,
    /// [`BackupError::Postgres`].
    pub async fn backup(&self, target: &Path) -> Result<Backup, BackupError> {
        if self.backend() == Backend::Postgres {
            return Err(BackupError::Postgres);
        }
        let path = std::path::absolute(target).map_err(|source| BackupError::Create {
            path: target.to_owned(),
            source,
        })?;
        let name = path
            .to_str()
            .ok_or_else(|| BackupError::Name(path.clone()))?
            .to_owned();
        create_private(&path)?;
        let copied = self
            .query(move |conn| {
                Box::pin(async move {
                    match conn {
                        Conn::Sqlite(c) => diesel_async::RunQueryDsl::execute(
                            diesel::sql_query("VACUUM INTO ?")
                                .bind::<diesel::sql_types::Text, _>(name),
                            &mut **c,
                        )
                        .await
                        .map(drop),
                        Conn::Pg(_) => Err(diesel::result::Error::QueryBuilderError(
                            "VACUUM INTO is SQLite's".into(),
                        )),
                    }
                })
            })
            .await;
        if let Err(source) = copied {
            let _ = std::fs::remove_file(&path);
            return Err(BackupError::Copy { path, source });
        }
        let checked = path.clone();
        let report = tokio::task::spawn_blocking(move || check(&checked))
            .await
            .unwrap_or(Err(DbError::Cancelled));
        let failure = match report {
            Ok(report) if report == "ok" => None,
            Ok(report) => Some(BackupError::Corrupt {
                path: path.clone(),
                report,
            }),
            Err(source) => Some(BackupError::Check {
                path: path.clone(),
                source,
            }),
        };
        if let Some(e) = failure {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        Ok(Backup { path, bytes })
    }
}

/// Creates the target empty with mode 0600, refusing an existing file.
fn create_private(path: &Path) -> Result<(), BackupError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(BackupError::Exists(path.to_owned()))
        }
        Err(source) => Err(BackupError::Create {
            path: path.to_owned(),
            source,
        }),
    }
}

/// Makes the copy one self-contained file and answers its integrity check
/// (`ok`, or the first problems found).
fn check(path: &Path) -> Result<String, DbError> {
    let mut conn =
        SqliteConnection::establish(&path.to_string_lossy()).map_err(|e| DbError::Connect {
            url: format!("sqlite://{}", path.display()),
            source: e.into(),
        })?;
    conn.batch_execute("PRAGMA journal_mode = DELETE")?;
    let rows = diesel::sql_query("PRAGMA integrity_check(10)").load::<CheckRow>(&mut conn)?;
    let lines: Vec<String> = rows.into_iter().map(|r| r.integrity_check).collect();
    Ok(lines.join("; "))
}
