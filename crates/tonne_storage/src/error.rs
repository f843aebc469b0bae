use anyhow::anyhow;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use tonne_accounts::ports::StoreError;
use tonne_kernel::Unavailable;

use crate::db::DbError;

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
/// opened, or one the server closed (a restart).
fn unavailable(e: &DbError) -> bool {
    match e {
        DbError::Pool(_) | DbError::Busy(_) | DbError::Connect { .. } => true,
        DbError::Query(q) => crate::db::connection_lost(q),
        DbError::Migration(_) | DbError::Cancelled => false,
    }
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
