//! The connection engine, apart from the repositories: one [`Db`] handle over
//! SQLite or PostgreSQL (chosen by the [`DatabaseUrl`]), its pool, the permits
//! that bound it, PostgreSQL's pipelined reads and statements sent together, the changes
//! announced to other processes' caches, the SQLite file's mode, and
//! the engine's errors with their mapping to the ports' errors.

mod announcements;
mod backend;
pub(crate) mod error;
mod followers;
mod gate;
mod migrations;
mod pg_pool;
mod pipelined;
mod placeholders;
mod pool;
mod prepared;
mod reuse;
mod rows;
mod sqlite_file;
mod sqlite_inline;
pub(crate) mod statement;
mod together;
mod unit_of_work;
mod url;

pub use announcements::follow;
pub(crate) use announcements::{announce, channel};
pub use backend::Backend;
pub use error::DbError;
pub use followers::Follower;
pub use pg_pool::PgLease;
pub(crate) use placeholders::sqlite_placeholders;
pub use pool::{Db, PoolSettings, PoolStatus};
pub(crate) use prepared::KeepPrepared;
pub(crate) use rows::{all_rows, first_row};
pub use sqlite_inline::{Inline, SqliteConn};
pub(crate) use together::{FirstCause, all_or_cause, sent_together};
pub use unit_of_work::{Conn, SqliteLease};
pub use url::{DatabaseUrl, DatabaseUrlError, hide_password};
