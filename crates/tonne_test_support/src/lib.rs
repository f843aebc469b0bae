//! Fixtures shared by Tonne's tests (a dev-dependency only).
//!
//! - [`TestDb`]: an isolated, migrated database per test — a SQLite file in a
//!   temporary directory, or a PostgreSQL database cloned from a migrated template
//!   and dropped afterwards.
//! - [`Contract`]: the reference OpenAPI contract as JSON Schemas, to validate
//!   response bodies against.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod contract;
mod db;

pub use contract::{Contract, ContractError};
pub use db::{TestDb, postgres_url, require_postgres};
