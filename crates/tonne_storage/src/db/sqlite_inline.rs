//! SQLite's connection as store code holds it: the embedded blocking
//! connection behind diesel-async's traits, its calls run where they are
//! made ([`Inline`]).

use std::error::Error;

use diesel::SqliteConnection;
use diesel_async::sync_connection_wrapper::{SpawnBlocking, SyncConnectionWrapper};
use futures_util::future::BoxFuture;

/// SQLite's blocking connection, seen through diesel-async's traits.
pub type SqliteConn = SyncConnectionWrapper<SqliteConnection, Inline>;

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
