//! The key that seals secrets at rest (webhooks' signing secrets, PACT
//! partners' client secrets): `TONNE_SECRETS_KEY`, else on SQLite a key file
//! beside the database, created on first use.

use tonne_storage::{DatabaseUrl, SecretsKey};

/// The key that seals webhook secrets: `TONNE_SECRETS_KEY`; else, on SQLite, a key
/// file beside the database (created with mode 0600 on first use); else none.
pub fn secrets_key(url: &DatabaseUrl, given: Option<&str>) -> anyhow::Result<Option<SecretsKey>> {
    if let Some(text) = given.filter(|t| !t.trim().is_empty()) {
        return Ok(Some(
            SecretsKey::parse(text).map_err(|e| anyhow::anyhow!("TONNE_SECRETS_KEY: {e}"))?,
        ));
    }
    let DatabaseUrl::Sqlite(path) = url else {
        return Ok(None);
    };
    let file = key_file(path);
    match std::fs::read_to_string(&file) {
        Ok(text) => Ok(Some(
            SecretsKey::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?,
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = SecretsKey::generate();
            write_key_file(&file, &key)?;
            tracing::info!(path = %file.display(), "created the webhook secrets key file (mode 0600); back it up with the database");
            Ok(Some(key))
        }
        Err(e) => Err(anyhow::anyhow!("cannot read {}: {e}", file.display())),
    }
}

/// Where the SQLite database's secrets key file is: `<database>.secrets-key`.
pub fn key_file(database: &std::path::Path) -> std::path::PathBuf {
    let mut file = database.as_os_str().to_owned();
    file.push(".secrets-key");
    std::path::PathBuf::from(file)
}

fn write_key_file(path: &std::path::Path, key: &SecretsKey) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut f = options
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?;
    writeln!(f, "{}", key.to_hex())?;
    Ok(())
}
