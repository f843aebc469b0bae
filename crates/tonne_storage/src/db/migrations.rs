//! The embedded migrations, applied at start-up (under an advisory lock on
//! PostgreSQL, so that several processes may start at once) and reverted in
//! the tests of `down.sql`.

use diesel::Connection as _;
use diesel::connection::SimpleConnection as _;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness as _, embed_migrations};

use super::error::{ConnectError, DbError};
use super::pool::Db;
use super::url::DatabaseUrl;

const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");

/// Any lock id will do as long as every Tonne process uses the same one.
const MIGRATION_LOCK_ID: i64 = 0x0074_6f6e_6e65;

impl Db {
    /// Applies pending migrations (blocking; call at start-up). On PostgreSQL an
    /// advisory lock lets several processes start at once. Returns the versions applied.
    pub fn migrate(&self) -> Result<Vec<String>, DbError> {
        self.migrations(|harness| match harness {
            Harness::Postgres(c) => {
                c.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK_ID})"))?;
                let result = c.run_pending_migrations(POSTGRES_MIGRATIONS).map(versions);
                c.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_ID})"))?;
                result.map_err(|e| DbError::Migration(e.to_string()))
            }
            Harness::Sqlite(c) => c
                .run_pending_migrations(SQLITE_MIGRATIONS)
                .map(versions)
                .map_err(|e| DbError::Migration(e.to_string())),
        })
    }

    /// Reverts every migration (tests of `down.sql`).
    pub fn revert_all(&self) -> Result<(), DbError> {
        self.migrations(|harness| {
            match harness {
                Harness::Postgres(c) => c.revert_all_migrations(POSTGRES_MIGRATIONS).map(drop),
                Harness::Sqlite(c) => c.revert_all_migrations(SQLITE_MIGRATIONS).map(drop),
            }
            .map_err(|e| DbError::Migration(e.to_string()))
        })
    }

    /// Runs `work` with a connection of its own that Diesel's migration
    /// harness can drive. On PostgreSQL that is diesel-async's
    /// `AsyncConnectionWrapper`, on a thread of its own (the wrapper drives its
    /// connection with a runtime of its own, which must not run inside the
    /// caller's).
    fn migrations<T: Send>(
        &self,
        work: impl FnOnce(Harness<'_>) -> Result<T, DbError> + Send,
    ) -> Result<T, DbError> {
        let failed = |source: ConnectError| DbError::Connect {
            url: self.url().to_string(),
            source,
        };
        match self.url() {
            DatabaseUrl::Postgres(url) => std::thread::scope(|scope| {
                scope
                    .spawn(|| {
                        let mut c = MigrationConnection::establish(url)
                            .map_err(|e| failed(ConnectError::Connection(e)))?;
                        work(Harness::Postgres(&mut c))
                    })
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            }),
            DatabaseUrl::Sqlite(path) => {
                let mut c = super::backend::open_sqlite(path).map_err(failed)?;
                work(Harness::Sqlite(&mut c))
            }
        }
    }
}

/// PostgreSQL's connection for migrations: diesel-async's, seen as a blocking one.
type MigrationConnection =
    diesel_async::async_connection_wrapper::AsyncConnectionWrapper<diesel_async::AsyncPgConnection>;

/// A connection the migration harness drives.
enum Harness<'a> {
    Postgres(&'a mut MigrationConnection),
    Sqlite(&'a mut diesel::SqliteConnection),
}

fn versions(applied: Vec<diesel::migration::MigrationVersion<'_>>) -> Vec<String> {
    applied.into_iter().map(|m| m.to_string()).collect()
}
