//! The engine's failures ([`DbError`]) and what the repositories make of
//! them: the ports' [`StoreError`], and stored values that do not map back.

use std::time::Duration;

use anyhow::anyhow;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use tonne_accounts::ports::StoreError;
use tonne_kernel::Unavailable;

use super::gate::GateError;

/// Storage failures, before repositories map them to domain errors.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// Could not open a connection (the message is the driver's own).
    #[error("cannot connect to {url}: {source}")]
    Connect {
        /// The URL, password hidden.
        url: String,
        /// The driver's error.
        source: ConnectError,
    },
    /// No connection could be checked out of the pool in time.
    #[error("database pool: {0}")]
    Pool(#[from] r2d2::Error),
    /// Every connection stayed busy for the whole pool timeout.
    #[error("database pool: no connection became free within {0:?}")]
    Busy(Duration),
    /// A query failed.
    #[error("query failed: {0}")]
    Query(#[from] diesel::result::Error),
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migration(String),
    /// The blocking task was cancelled, or the pools closed.
    #[error("storage task cancelled")]
    Cancelled,
}

/// Errors opening one connection.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The driver refused the connection.
    #[error(transparent)]
    Connection(#[from] diesel::ConnectionError),
    /// A set-up statement failed.
    #[error(transparent)]
    Setup(#[from] diesel::result::Error),
    /// The SQLite file could not be created (with mode 0600).
    #[error("cannot create the database file: {0}")]
    File(#[from] std::io::Error),
}

impl From<GateError> for DbError {
    fn from(e: GateError) -> Self {
        match e {
            GateError::Busy(wait) => Self::Busy(wait),
            GateError::Closed => Self::Cancelled,
        }
    }
}

/// Whether a query failed because its connection is gone (closed by the server,
/// unable to send, or left in a broken transaction state), not because of the
/// query.
pub(crate) fn connection_lost(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    matches!(
        e,
        Error::BrokenTransactionManager
            | Error::DatabaseError(
                DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                _,
            )
    )
}

/// Maps storage failures to the ports' error: not found, unique violation, or unexpected with context.
pub(crate) fn store_error(e: DbError, context: &'static str) -> StoreError {
    match e {
        DbError::Query(DieselError::NotFound) => StoreError::NotFound,
        DbError::Query(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            StoreError::Duplicate
        }
        other => StoreError::Unexpected(unexpected(other, context)),
    }
}

/// [`store_error`] as a closure for `map_err`, with its context.
pub(crate) fn failed(context: &'static str) -> impl FnOnce(DbError) -> StoreError {
    move |e| store_error(e, context)
}

/// An unexpected failure with its context; one that may pass by itself (see
/// [`unavailable`]) carries the kernel's [`Unavailable`] marker, so that the
/// HTTP adapter answers 503 with `Retry-After` rather than 500.
pub(crate) fn unexpected(e: DbError, context: &'static str) -> anyhow::Error {
    if unavailable(&e) {
        anyhow::Error::new(Unavailable("the database is busy or unreachable"))
            .context(e.to_string())
            .context(context)
    } else {
        anyhow!(e).context(context)
    }
}

/// Failures that say nothing about the request and may pass by themselves: no
/// pooled connection within the configured wait, a connection that could not be
/// opened, one the server closed (a restart), or SQLite's write lock not had
/// within the busy timeout (another process wrote for all that time).
fn unavailable(e: &DbError) -> bool {
    match e {
        DbError::Pool(_) | DbError::Busy(_) | DbError::Connect { .. } => true,
        DbError::Query(q) => connection_lost(q) || sqlite_locked(q),
        DbError::Migration(_) | DbError::Cancelled => false,
    }
}

/// SQLite's `SQLITE_BUSY`, which Diesel reports with SQLite's own message only.
fn sqlite_locked(e: &DieselError) -> bool {
    matches!(
        e,
        DieselError::DatabaseError(DatabaseErrorKind::Unknown, info)
            if info.message() == "database is locked"
    )
}

/// A row that does not map back to a domain value: corrupt data, reported as a query error.
pub(crate) fn corrupt(what: &str, value: &str) -> DieselError {
    DieselError::DeserializationError(format!("stored {what} `{value}` is invalid").into())
}

/// A value that could not be written as JSON into a TEXT column.
pub(crate) fn encode_error(e: serde_json::Error) -> DieselError {
    DieselError::SerializationError(Box::new(e))
}

/// A TEXT column whose JSON does not decode.
pub(crate) fn decode_error(e: serde_json::Error) -> DieselError {
    DieselError::DeserializationError(Box::new(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_busy_past_its_timeout_is_unavailable_not_a_bug() {
        let locked = DbError::Query(DieselError::DatabaseError(
            DatabaseErrorKind::Unknown,
            Box::new(String::from("database is locked")),
        ));
        assert!(unavailable(&locked));
        let other = DbError::Query(DieselError::DatabaseError(
            DatabaseErrorKind::Unknown,
            Box::new(String::from("no such table: turns")),
        ));
        assert!(!unavailable(&other));
    }
}
