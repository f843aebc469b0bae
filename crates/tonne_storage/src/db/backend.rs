//! Which backend a [`Db`](super::Db) talks to ([`Backend`]), how SQLite's
//! pool opens a connection (`SqliteManager`), and the first connection that
//! tells an unreachable database at start-up.

use diesel::connection::SimpleConnection as _;
use diesel::{Connection as _, SqliteConnection};

use super::error::ConnectError;
use super::url::DatabaseUrl;

/// Which backend a [`Db`](super::Db) talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

impl Backend {
    /// The OpenTelemetry `db.system` name.
    pub fn system_name(self) -> &'static str {
        match self {
            Self::Postgres => "postgresql",
            Self::Sqlite => "sqlite",
        }
    }
}

/// Opens one connection and closes it, so that an unreachable database fails
/// at start-up with the driver's own message. On PostgreSQL through
/// diesel-async's blocking wrapper, on a thread of its own (its runtime must
/// not run inside the caller's).
pub(super) fn try_connect(url: &DatabaseUrl) -> Result<(), ConnectError> {
    match url {
        DatabaseUrl::Postgres(url) => std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    diesel_async::async_connection_wrapper::AsyncConnectionWrapper::<
                        diesel_async::AsyncPgConnection,
                    >::establish(url)
                    .map(drop)
                    .map_err(ConnectError::from)
                })
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }),
        DatabaseUrl::Sqlite(path) => open_sqlite(path).map(drop),
    }
}

/// Opens SQLite connections for the pool behind [`Conn`](super::Conn).
#[derive(Debug)]
pub(crate) struct SqliteManager {
    pub(super) path: std::path::PathBuf,
}

impl r2d2::ManageConnection for SqliteManager {
    type Connection = super::sqlite_inline::SqliteConn;
    type Error = ConnectError;

    fn connect(&self) -> Result<Self::Connection, ConnectError> {
        Ok(
            diesel_async::sync_connection_wrapper::SyncConnectionWrapper::with_runtime(
                open_sqlite(&self.path)?,
                super::sqlite_inline::Inline,
            ),
        )
    }

    fn is_valid(&self, _conn: &mut Self::Connection) -> Result<(), ConnectError> {
        Ok(())
    }

    fn has_broken(&self, _conn: &mut Self::Connection) -> bool {
        false
    }
}

/// Opens the SQLite file with the pragmas every connection needs.
pub(super) fn open_sqlite(path: &std::path::Path) -> Result<SqliteConnection, ConnectError> {
    let mut conn = SqliteConnection::establish(&path.to_string_lossy())?;
    conn.batch_execute(
        "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; \
         PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;",
    )?;
    Ok(conn)
}
