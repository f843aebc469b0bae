//! Fixtures shared by Tonne's tests (a dev-dependency only).
//!
//! - [`TestDb`]: an isolated, migrated database per test — a SQLite file in a
//!   temporary directory, or a PostgreSQL database cloned from a migrated template
//!   and dropped afterwards.
//! - [`organisation`]: an organisation and its live/test accounts, stored.
//! - [`Contract`]: the reference OpenAPI contract as JSON Schemas, to validate
//!   response bodies against.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod contract;
mod db;
mod fixtures;
mod redis;

pub use contract::{Contract, ContractError, Edition};
pub use db::{TestDb, count, execute, postgres_url, require_postgres};
pub use fixtures::organisation;
pub use redis::{REDIS_ENV, redis_url, unique_prefix};

/// Instantiates each `async fn case(db: TestDb)` twice, as `sqlite::case` and
/// `postgres::case` (the PostgreSQL one skips unless a server is configured, and
/// fails under `CI=true` without one — see [`TestDb::postgres`]). With
/// `with setup;` first, each case gets `setup(db).await` instead of the database
/// (e.g. a server spawned over it).
#[macro_export]
macro_rules! on_both_backends {
    (with $setup:path; $($case:ident),* $(,)?) => {
        mod sqlite {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $case() {
                super::$case($setup($crate::TestDb::sqlite()).await).await
            } )*
        }
        mod postgres {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)] async fn $case() {
                if let Some(db) = $crate::TestDb::postgres() { super::$case($setup(db).await).await }
            } )*
        }
    };
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $case() {
                super::$case($crate::TestDb::sqlite()).await
            } )*
        }
        mod postgres {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 4)] async fn $case() {
                if let Some(db) = $crate::TestDb::postgres() { super::$case(db).await }
            } )*
        }
    };
}
