//! The connection a unit of storage work holds ([`Conn`]), and how a unit
//! begins, commits and rolls back.
//!
//! Store code is asynchronous on both backends and states each statement once,
//! inside `on!`, which builds it for whichever connection is inside:
//!
//! - on PostgreSQL a pooled [`AsyncPgConnection`] (see `pg_pool`): the task
//!   waits for the answers without a blocking thread;
//! - on SQLite the embedded connection behind diesel-async's
//!   [`SyncConnectionWrapper`], whose statements run at once on the calling
//!   thread ([`Inline`]): [`Db`](crate::Db) runs the whole unit on one blocking
//!   thread, so SQLite's blocking calls never reach an async worker and a unit
//!   costs one hop, not one per statement.

use std::error::Error;

use diesel::SqliteConnection;
use diesel::result::QueryResult;
use diesel_async::sync_connection_wrapper::{SpawnBlocking, SyncConnectionWrapper};
use diesel_async::{AsyncConnection, TransactionManager as _};
use futures_util::future::BoxFuture;

use super::pg_pool::PgLease;

/// SQLite's blocking connection, seen through diesel-async's traits.
pub type SqliteConn = SyncConnectionWrapper<SqliteConnection, Inline>;

/// A pooled SQLite connection, lent to one unit of work.
pub struct SqliteLease(pub(crate) r2d2::PooledConnection<super::connection::SqliteManager>);

impl std::ops::Deref for SqliteLease {
    type Target = SqliteConn;
    fn deref(&self) -> &SqliteConn {
        &self.0
    }
}

impl std::ops::DerefMut for SqliteLease {
    fn deref_mut(&mut self) -> &mut SqliteConn {
        &mut self.0
    }
}

/// The connection lent to one unit of storage work.
pub enum Conn {
    /// PostgreSQL: an asynchronous connection of the pool.
    Pg(PgLease),
    /// SQLite: the embedded connection, on the blocking thread running the unit.
    Sqlite(SqliteLease),
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Pg(_) => "Conn::Pg",
            Self::Sqlite(_) => "Conn::Sqlite",
        })
    }
}

/// Runs SQLite's blocking calls where they are made: on the blocking thread
/// that runs the whole unit of work (`SyncConnectionWrapper`'s default would
/// hand each statement to a blocking thread of its own).
#[derive(Debug, Clone, Copy, Default)]
pub struct Inline;

impl SpawnBlocking for Inline {
    fn spawn_blocking<'a, R>(
        &mut self,
        task: impl FnOnce() -> R + Send + 'static,
    ) -> BoxFuture<'a, Result<R, Box<dyn Error + Send + Sync + 'static>>>
    where
        R: Send + 'static,
    {
        Box::pin(std::future::ready(Ok(task())))
    }

    fn get_runtime() -> Self {
        Self
    }
}

/// Opens a transaction on the connection inside.
pub(crate) async fn begin(conn: &mut Conn) -> QueryResult<()> {
    on!(conn, |c| begin_on(c).await)
}

/// Ends the transaction opened by [`begin`]: commits when the work succeeded,
/// else rolls back and returns the work's own error.
pub(crate) async fn end<T>(conn: &mut Conn, result: QueryResult<T>) -> QueryResult<T> {
    on!(conn, |c| end_on(c, result).await)
}

async fn begin_on<C: AsyncConnection>(c: &mut C) -> QueryResult<()> {
    C::TransactionManager::begin_transaction(c).await
}

async fn end_on<C: AsyncConnection, T>(c: &mut C, result: QueryResult<T>) -> QueryResult<T> {
    match result {
        Ok(value) => {
            C::TransactionManager::commit_transaction(c).await?;
            Ok(value)
        }
        Err(e) => match C::TransactionManager::rollback_transaction(c).await {
            Ok(()) | Err(diesel::result::Error::BrokenTransactionManager) => Err(e),
            Err(rollback) => Err(rollback),
        },
    }
}

/// Whether the connection can serve the next unit: not left inside a
/// transaction (a unit whose caller went away mid-way) nor broken.
pub(crate) fn reusable<C: AsyncConnection>(c: &mut C) -> bool {
    if C::TransactionManager::is_broken_transaction_manager(c) {
        return false;
    }
    matches!(
        C::TransactionManager::transaction_manager_status_mut(c).transaction_depth(),
        Ok(None)
    )
}
