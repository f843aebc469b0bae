//! Where the database is: the URL parsed into a backend and a path or
//! connection string, shown with its password hidden.

use std::fmt;
use std::path::PathBuf;

/// Where the database is: chosen by the URL's scheme.
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseUrl {
    /// `postgres://…` or `postgresql://…`, passed to libpq as is.
    Postgres(String),
    /// `sqlite://PATH`, `sqlite:PATH` or a bare file path.
    Sqlite(PathBuf),
}

/// The URL names no backend Tonne knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatabaseUrlError {
    /// A scheme other than postgres, postgresql or sqlite.
    #[error(
        "unsupported database URL scheme `{0}`: use postgres://…, sqlite://PATH or a file path"
    )]
    UnknownScheme(String),
    /// Nothing after the scheme.
    #[error("the database URL is empty")]
    Empty,
}

impl DatabaseUrl {
    /// Parses a URL or path.
    ///
    /// ```
    /// use tonne_storage::DatabaseUrl;
    /// assert!(matches!(DatabaseUrl::parse("postgres://u@h/db"), Ok(DatabaseUrl::Postgres(_))));
    /// assert!(matches!(DatabaseUrl::parse("sqlite://./tonne.db"), Ok(DatabaseUrl::Sqlite(_))));
    /// assert!(matches!(DatabaseUrl::parse("./tonne.db"), Ok(DatabaseUrl::Sqlite(_))));
    /// assert!(DatabaseUrl::parse("mysql://h/db").is_err());
    /// ```
    pub fn parse(raw: &str) -> Result<Self, DatabaseUrlError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(DatabaseUrlError::Empty);
        }
        if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            return Ok(Self::Postgres(raw.to_owned()));
        }
        if let Some(path) = raw
            .strip_prefix("sqlite://")
            .or_else(|| raw.strip_prefix("sqlite:"))
        {
            if path.is_empty() {
                return Err(DatabaseUrlError::Empty);
            }
            return Ok(Self::Sqlite(PathBuf::from(path)));
        }
        if let Some((scheme, _)) = raw.split_once("://") {
            return Err(DatabaseUrlError::UnknownScheme(scheme.to_owned()));
        }
        Ok(Self::Sqlite(PathBuf::from(raw)))
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// `scheme://user:password@host…` with the password replaced by `mask`; any
/// other text unchanged. For logs and messages about any URL with credentials
/// (databases, Redis).
///
/// ```
/// assert_eq!(
///     tonne_storage::hide_password("redis://:pw@cache:6379", "***"),
///     "redis://:***@cache:6379"
/// );
/// assert_eq!(tonne_storage::hide_password("postgres://me@db/x", "***"), "postgres://me@db/x");
/// ```
pub fn hide_password(url: &str, mask: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(start), Some(at)) if at > start => {
            let creds = url.get(start + 3..at).unwrap_or_default();
            let user = creds.split(':').next().unwrap_or_default();
            let scheme = url.get(..start).unwrap_or_default();
            let rest = url.get(at..).unwrap_or_default();
            if creds.contains(':') {
                format!("{scheme}://{user}:{mask}{rest}")
            } else {
                url.to_owned()
            }
        }
        _ => url.to_owned(),
    }
}

/// Renders the URL with any password hidden, for logs.
impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(path) => write!(f, "sqlite://{}", path.display()),
            Self::Postgres(url) => {
                let redacted = hide_password(url, "***");
                f.write_str(&redacted)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hidden_in_display() {
        let url = DatabaseUrl::parse("postgres://me:secret@db:5432/tonne").unwrap();
        assert_eq!(url.to_string(), "postgres://me:***@db:5432/tonne");
    }

    #[test]
    fn bad_urls_are_named() {
        assert_eq!(
            DatabaseUrl::parse("redis://x").unwrap_err().to_string(),
            "unsupported database URL scheme `redis`: use postgres://…, sqlite://PATH or a file path"
        );
        assert_eq!(DatabaseUrl::parse("  "), Err(DatabaseUrlError::Empty));
        assert_eq!(
            DatabaseUrl::parse("sqlite://"),
            Err(DatabaseUrlError::Empty)
        );
    }
}
