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
//!   thread ([`Inline`](super::Inline)): [`Db`](crate::Db) runs the whole unit on one blocking
//!   thread, so SQLite's blocking calls never reach an async worker and a unit
//!   costs one hop, not one per statement.

use diesel::connection::AnsiTransactionManager;
use diesel::result::QueryResult;
use diesel_async::{AsyncConnection, TransactionManager as _};

use super::pg_pool::PgLease;
use super::sqlite_inline::SqliteConn;

/// A pooled SQLite connection, lent to one unit of work.
pub struct SqliteLease(pub(crate) r2d2::PooledConnection<super::backend::SqliteManager>);

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

impl Conn {
    /// Runs one `insert_into(..).values(rows)` of many rows: one statement
    /// on PostgreSQL; on SQLite, whose batch insert Diesel writes row by
    /// row, on the embedded connection itself.
    pub(crate) async fn insert_rows<Q>(&mut self, insert: Q) -> QueryResult<usize>
    where
        Q: diesel_async::methods::ExecuteDsl<diesel_async::AsyncPgConnection>
            + diesel::RunQueryDsl<diesel::SqliteConnection>
            + diesel::query_dsl::methods::ExecuteDsl<diesel::SqliteConnection>
            + Send
            + 'static,
    {
        match self {
            Self::Pg(c) => diesel_async::RunQueryDsl::execute(insert, &mut **c).await,
            Self::Sqlite(c) => {
                c.spawn_blocking(move |c| diesel::RunQueryDsl::execute(insert, c))
                    .await
            }
        }
    }
}

/// Opens a transaction on the connection inside.
///
/// On SQLite it takes the write lock at once (`BEGIN IMMEDIATE`), waiting
/// for it up to the connection's `busy_timeout`: a deferred transaction that
/// reads first takes a snapshot, and when another process (the CLI beside the
/// server) commits before it writes, its upgrade to a writer fails at once
/// with `database is locked` — no timeout helps, the snapshot is stale. A
/// unit of [`Db::transaction`](crate::Db::transaction) is a writer, and
/// inside one process writers already take their turn one at a time, so
/// taking the lock first costs nothing there. Reads without a transaction
/// ([`Db::query`](crate::Db::query)) take no lock.
pub(crate) async fn begin(conn: &mut Conn) -> QueryResult<()> {
    match conn {
        Conn::Pg(lease) => begin_on(&mut **lease).await,
        Conn::Sqlite(lease) => {
            lease
                .spawn_blocking(|c| {
                    AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")
                })
                .await
        }
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::sync::mpsc;
    use std::time::Duration;

    use diesel::sql_types::BigInt;
    use diesel_async::{RunQueryDsl as _, SimpleAsyncConnection as _};

    use super::*;
    use crate::db::{DatabaseUrl, Db, PoolSettings};

    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }

    async fn exec(conn: &mut Conn, sql: &'static str) -> QueryResult<()> {
        on!(conn, |c| c.batch_execute(sql).await)
    }

    /// Two handles on one database stand for two processes (the server and
    /// the CLI): each has its own connections and its own in-process writer
    /// turn. One holds a write; the other's transaction reads, then writes. On
    /// SQLite it waits for the first to commit (it took the write lock at
    /// `BEGIN`), where a deferred transaction would have read a snapshot the
    /// commit made stale and failed at once with `database is locked`. On
    /// PostgreSQL it reads what is committed and neither waits nor fails.
    async fn a_writer_that_reads_first_waits_for_another_connections_write(url: &str) {
        let open = || Db::connect(&DatabaseUrl::parse(url).unwrap(), PoolSettings::default());
        let (server, cli) = (open().unwrap(), open().unwrap());
        server
            .transaction(|conn| Box::pin(exec(conn, "CREATE TABLE turns (n BIGINT)")))
            .await
            .unwrap();

        let (held_tx, held_rx) = tokio::sync::oneshot::channel();
        let (read_tx, read_rx) = mpsc::channel::<()>();
        let holder = tokio::spawn(async move {
            server
                .transaction(move |conn| {
                    Box::pin(async move {
                        exec(conn, "INSERT INTO turns VALUES (1)").await?;
                        let _ = held_tx.send(());
                        // Long enough for the other transaction to read
                        // first, had it been let in.
                        let _ = read_rx.recv_timeout(Duration::from_millis(500));
                        Ok(())
                    })
                })
                .await
        });
        held_rx.await.unwrap();
        let waited = cli
            .transaction(move |conn| {
                Box::pin(async move {
                    let seen = on!(&mut *conn, |c| diesel::sql_query(
                        "SELECT count(*) AS n FROM turns"
                    )
                    .get_result::<Count>(c)
                    .await)?;
                    let _ = read_tx.send(());
                    exec(conn, "INSERT INTO turns VALUES (2)").await?;
                    Ok(seen.n)
                })
            })
            .await;
        holder.await.unwrap().unwrap();
        let seen = waited.expect("the second writer waits its turn, it does not fail");
        let total = cli
            .query(|conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::sql_query(
                        "SELECT count(*) AS n FROM turns"
                    )
                    .get_result::<Count>(c)
                    .await)
                })
            })
            .await
            .unwrap();
        assert_eq!(total.n, 2);
        if url.starts_with("sqlite") {
            assert_eq!(seen, 1, "on SQLite it read after the first committed");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_sqlite_writer_that_reads_first_waits_for_another_connections_write() {
        let db = tonne_test_support::TestDb::sqlite();
        a_writer_that_reads_first_waits_for_another_connections_write(db.url()).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_postgres_writer_that_reads_first_commits_beside_another_connections_write() {
        if let Some(db) = tonne_test_support::TestDb::postgres() {
            a_writer_that_reads_first_waits_for_another_connections_write(db.url()).await;
        }
    }
}
