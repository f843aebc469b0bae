//! `tonne backup FILE`: a consistent copy of the SQLite database, taken while
//! the server runs; on PostgreSQL, the procedure (the backup is `pg_dump`'s job).

use std::path::{Path, PathBuf};

use clap::Args;
use tonne_storage::{BackupError, DatabaseUrl, Db, PoolSettings};

/// Where the copy goes.
#[derive(Debug, Args)]
pub(super) struct BackupArgs {
    /// The file to write (mode 0600). It must not exist: a backup never
    /// overwrites a file.
    file: PathBuf,
}

/// What an operator does on PostgreSQL instead (`tonne backup` does not run
/// `pg_dump`: its version must match the server's, and where dumps go and how
/// they are kept are the operator's choices).
const POSTGRES_PROCEDURE: &str = "\
`tonne backup` copies SQLite databases only; a PostgreSQL database is backed up with PostgreSQL's own tools:
  dump (consistent while the servers run; pg_dump of the server's major version or newer):
    pg_dump --format=custom --file=tonne-$(date +%F).dump \"$DATABASE_URL\"
  restore (servers stopped, into a new empty database, then point DATABASE_URL at it):
    createdb -T template0 tonne_restored && pg_restore --exit-on-error --no-owner --dbname=tonne_restored tonne-….dump
  keep TONNE_SECRETS_KEY with the dumps (not in them): without it the restored webhook secrets cannot be read.
  point-in-time recovery: WAL archiving (archive_mode, archive_command) plus base backups (pg_basebackup).
See docs/operations.md, \"Backups and restore\".";

pub(super) async fn run(
    url: &DatabaseUrl,
    args: BackupArgs,
    secrets: Option<String>,
) -> anyhow::Result<()> {
    let database = match url {
        DatabaseUrl::Postgres(_) => anyhow::bail!("{POSTGRES_PROCEDURE}"),
        DatabaseUrl::Sqlite(path) => path.clone(),
    };
    // Opening a missing file would create an empty database: refuse instead.
    if !database.is_file() {
        anyhow::bail!("no SQLite database at {}", database.display());
    }
    let opened = url.clone();
    let db = tokio::task::spawn_blocking(move || {
        Db::connect(
            &opened,
            PoolSettings {
                max_size: 1,
                ..PoolSettings::default()
            },
        )
    })
    .await??;
    let backup = db.backup(&args.file).await.map_err(|e| match e {
        BackupError::Postgres => anyhow::anyhow!("{POSTGRES_PROCEDURE}"),
        other => anyhow::anyhow!(other),
    })?;
    println!(
        "backed up {url} to {} ({} bytes, mode 0600, integrity_check ok)",
        backup.path.display(),
        backup.bytes
    );
    println!("{}", keep_with_it(&database, secrets.as_deref()));
    Ok(())
}

/// What the backup does not hold and a restore needs: the key that seals
/// webhook secrets.
fn keep_with_it(database: &Path, given: Option<&str>) -> String {
    let file = crate::secrets_key::key_file(database);
    let key = if given.is_some_and(|k| !k.trim().is_empty()) {
        "the TONNE_SECRETS_KEY this server runs with".to_owned()
    } else if file.is_file() {
        format!(
            "the secrets key file {} (restore it beside the database, mode 0600)",
            file.display()
        )
    } else {
        return format!(
            "no secrets key is set and no key file exists yet at {}: nothing else to keep. \
             The copy holds password hashes and customers' emails: store it as privately as the database.",
            file.display()
        );
    };
    format!(
        "keep with it {key}: it is not in the backup, and without it the restored webhook \
         secrets cannot be read (nor hosted-page links checked). The copy holds password hashes \
         and customers' emails: store it as privately as the database, apart from the key."
    )
}
