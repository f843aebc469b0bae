//! Statements every account write ends with: the account read back with its
//! organisation's type, and which unique index refused a write.

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::RunQueryDsl;
use tonne_accounts::Account;
use tonne_accounts::ports::AccountWriteError;

use crate::db::error::store_error;
use crate::db::{Conn, DbError};
use crate::mapping::AccountRow;
use crate::schema::{accounts, organisations};

/// The account with this id and its organisation's type: one statement, for
/// `load!` and for work inside a transaction alike.
macro_rules! account_by_id {
    ($id:expr) => {
        accounts::table
            .find($id)
            .inner_join(organisations::table)
            .select((AccountRow::as_select(), organisations::organisation_type))
    };
}

pub(super) async fn load_one(conn: &mut Conn, id: &str) -> QueryResult<Option<Account>> {
    found(on!(conn, |c| account_by_id!(id)
        .first::<(AccountRow, String)>(c)
        .await))
}

/// The account of a row read with its organisation's type, if there was one.
pub(super) fn found(row: QueryResult<(AccountRow, String)>) -> QueryResult<Option<Account>> {
    row.optional()?
        .map(|(row, kind)| row.into_domain(&kind))
        .transpose()
}

/// Which unique index refused a write: the handle's, the idempotency key's, or another.
pub(super) fn write_error(e: DbError, context: &'static str) -> AccountWriteError {
    if let DbError::Query(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info)) = &e
    {
        // PostgreSQL names the index; SQLite lists its columns in the message.
        let names = |needle: &str| {
            info.constraint_name().is_some_and(|c| c.contains(needle))
                || info.message().contains(needle)
        };
        if names("handle") {
            return AccountWriteError::HandleTaken;
        }
        if names("idempotency_key") {
            return AccountWriteError::IdempotencyKeyTaken;
        }
    }
    AccountWriteError::Store(store_error(e, context))
}
