//! Who may read the SQLite database: its owner only.
//!
//! The file holds password hashes, customers' emails and sealed webhook
//! secrets. SQLite creates a new file with mode 0644 less the umask (usually
//! world-readable), so a new database is created here first, empty, with mode
//! 0600: SQLite takes an empty file for an empty database, and gives the
//! `-wal`, `-shm` and journal files it creates beside it the main file's
//! mode. An existing database (or `-wal`/`-shm`) that its group or others may
//! use is tightened to its owner's bits, with a warning that names the old
//! mode. A `file:` URI or `:memory:` is left to SQLite.

use std::path::{Path, PathBuf};

/// The suffixes of the files SQLite keeps beside the database in WAL mode.
const COMPANIONS: [&str; 2] = ["-wal", "-shm"];

/// Creates the database file with mode 0600 if it does not exist, and takes
/// group and other permissions off an existing one and its `-wal`/`-shm`.
/// Fails only when a new file cannot be created (its directory is missing,
/// or not writable); a mode that cannot be changed is a warning.
pub(crate) fn secure(path: &Path) -> std::io::Result<()> {
    if !is_plain_file_name(path) {
        return Ok(());
    }
    create_private(path)?;
    tighten(path);
    for suffix in COMPANIONS {
        let mut companion = path.as_os_str().to_owned();
        companion.push(suffix);
        tighten(&PathBuf::from(companion));
    }
    Ok(())
}

/// Not `:memory:`, an empty name (a temporary database) or a `file:` URI.
fn is_plain_file_name(path: &Path) -> bool {
    let text = path.to_string_lossy();
    !(text.is_empty() || text == ":memory:" || text.starts_with("file:"))
}

/// Creates the file empty with mode 0600; an existing file is left alone.
fn create_private(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(_) => {
            tracing::info!(path = %path.display(), "created the SQLite database file (mode 0600)");
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Removes group and other permissions from an existing file (none: nothing
/// to do), warning that it did; a failure is a warning too.
#[cfg(unix)]
fn tighten(path: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return;
    }
    let private = mode & 0o700;
    match std::fs::set_permissions(path, std::fs::Permissions::from_mode(private)) {
        Ok(()) => tracing::warn!(
            path = %path.display(),
            "the database file was mode {mode:04o} (readable beyond its owner); changed to {private:04o}"
        ),
        Err(e) => tracing::warn!(
            path = %path.display(),
            "the database file is mode {mode:04o} (readable beyond its owner) and could not be changed ({e}): \
             make it 0600 (chmod 600)"
        ),
    }
}

#[cfg(not(unix))]
fn tighten(_path: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_names_are_left_to_sqlite() {
        for name in ["", ":memory:", "file:x.db?mode=memory"] {
            assert!(!is_plain_file_name(Path::new(name)), "{name}");
        }
        assert!(is_plain_file_name(Path::new("./tonne.db")));
    }
}
