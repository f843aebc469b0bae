//! One connection to either backend ([`AnyConnection`]), how the pool opens
//! one (`Manager`), and how a connection the server closed is replaced.

use diesel::connection::SimpleConnection as _;
use diesel::{Connection as _, PgConnection, SqliteConnection};

use super::error::{ConnectError, connection_lost};
use super::url::DatabaseUrl;

/// One connection to either backend. Queries written with Diesel's DSL run on both.
#[derive(diesel::MultiConnection)]
pub enum AnyConnection {
    /// PostgreSQL, the production store.
    Postgresql(PgConnection),
    /// SQLite, the embedded default.
    Sqlite(SqliteConnection),
}

/// Which backend a [`Db`] talks to.
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

#[derive(Debug)]
pub(super) struct Manager {
    pub(super) url: DatabaseUrl,
}

impl Manager {
    pub(super) fn open(&self) -> Result<AnyConnection, ConnectError> {
        match &self.url {
            DatabaseUrl::Postgres(url) => {
                Ok(AnyConnection::Postgresql(PgConnection::establish(url)?))
            }
            DatabaseUrl::Sqlite(path) => Ok(AnyConnection::Sqlite(open_sqlite(path)?)),
        }
    }
}

/// Opens SQLite connections for the pool behind [`Conn`](super::Conn).
#[derive(Debug)]
pub(crate) struct SqliteManager {
    pub(super) path: std::path::PathBuf,
}

impl r2d2::ManageConnection for SqliteManager {
    type Connection = super::conn::SqliteConn;
    type Error = ConnectError;

    fn connect(&self) -> Result<Self::Connection, ConnectError> {
        Ok(
            diesel_async::sync_connection_wrapper::SyncConnectionWrapper::with_runtime(
                open_sqlite(&self.path)?,
                super::conn::Inline,
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

impl r2d2::ManageConnection for Manager {
    type Connection = AnyConnection;
    type Error = ConnectError;

    fn connect(&self) -> Result<AnyConnection, ConnectError> {
        self.open()
    }

    fn is_valid(&self, conn: &mut AnyConnection) -> Result<(), ConnectError> {
        Ok(conn.batch_execute("SELECT 1")?)
    }

    fn has_broken(&self, _conn: &mut AnyConnection) -> bool {
        false
    }
}

/// A connection the server closed (a database restart, an administrator's
/// `pg_terminate_backend`) stays dead, and the pool would hand it out again:
/// after such an error, replace it with a fresh one when the database answers
/// (else the next use tries again).
pub(super) fn heal<T>(
    url: &DatabaseUrl,
    conn: &mut AnyConnection,
    result: &diesel::QueryResult<T>,
) {
    let lost = result.as_ref().err().is_some_and(connection_lost);
    if lost && let Ok(fresh) = (Manager { url: url.clone() }).open() {
        tracing::info!("replaced a database connection the server had closed");
        *conn = fresh;
    }
}
