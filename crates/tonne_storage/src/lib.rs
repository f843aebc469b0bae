//! Diesel storage adapters for Tonne.
//!
//! One [`Db`] handle reaches SQLite or PostgreSQL (chosen by the URL). Work
//! of several statements runs through [`Db::query`] or [`Db::transaction`]
//! with a [`Conn`]: on PostgreSQL a pooled asynchronous connection
//! (diesel-async; no blocking thread, no libpq), on SQLite the embedded
//! connection on a blocking thread (`spawn_blocking`), never on an async
//! worker. Store code states each statement once for both (`on!`). A read of
//! one statement runs through `Db::load`: on PostgreSQL on the calling
//! thread's own asynchronous connection, pipelined with its other reads, on
//! SQLite as [`Db::query`] does.
//!
//! Repositories implement the domain ports: [`AccountStore`] and [`ApiKeyStore`]
//! for `tonne_accounts`, and [`CachedApiKeys`] and [`CachedAccounts`],
//! decorators that keep key and account look-ups off the database for a
//! bounded time and, on PostgreSQL, forget what other processes announce
//! ([`follow`]). [`ImpactStore`] serves the
//! impact domain from daily figures that [`OrderStore`] and [`EstimateStore`]
//! keep in the transaction of each change.

/// Runs one read-only statement with `Db::load`, returning its rows:
/// `load!(db, (a, b) => statement)` moves the captures `a` and `b` into the
/// statement, which is written once and built for the backend that runs it
/// (a `SelectBy` names its backend, so one value cannot serve both).
macro_rules! load {
    ($db:expr, ($($capture:ident),* $(,)?) => $query:expr) => {
        // Named in full: diesel-async's `RunQueryDsl`, in scope in converted
        // stores, offers a `load` on every type.
        $crate::db::Db::load(
            &$db,
            ($($capture,)*),
            move |($($capture,)*)| $query,
            move |($($capture,)*)| $query,
        )
    };
}

/// States storage work once for both backends: `on!(conn, |c| body)` builds
/// `body` for the connection inside a [`Conn`](crate::db::Conn) — PostgreSQL's
/// asynchronous one or SQLite's — with `c` bound to it; the body awaits its
/// statements with `diesel_async::RunQueryDsl`.
macro_rules! on {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::Conn::Pg(lease) => {
                let $c: &mut ::diesel_async::AsyncPgConnection = &mut *lease;
                $body
            }
            $crate::db::Conn::Sqlite(lease) => {
                let $c: &mut $crate::db::SqliteConn = &mut *lease;
                $body
            }
        }
    };
}

/// Stamps column `$column` of row `$id` of `$table` with `$at` unless it is
/// stamped already (a revocation, a removal), in a unit of work on `$conn`:
/// the number of rows changed.
macro_rules! stamp_once {
    ($conn:expr, $table:ident, $column:ident, $id:expr, $at:expr) => {
        on!($conn, |c| diesel::update(
            $table::table.find($id).filter($table::$column.is_null()),
        )
        .set($table::$column.eq(Some($at)))
        .execute(c)
        .await)
    };
}

/// Where a keyset page starts: the `(created_at, id)` of row `$after` of
/// `$table` when it is account `$account`'s (`NotFound` otherwise), `None`
/// for the first page; on `$conn`, in a unit of work.
macro_rules! page_position {
    ($conn:expr, $table:ident, $after:expr, $account:expr) => {
        match $after {
            None => None,
            Some(after) => Some(on!($conn, |c| $table::table
                .filter($table::id.eq(after))
                .filter($table::account_id.eq($account))
                .select(($table::created_at, $table::id))
                .first::<(time::PrimitiveDateTime, String)>(c)
                .await)?),
        }
    };
}

/// Loads a page of the boxed query `$q` of `$table` on `$c`, newest first
/// (by creation, then id), after `$position` (the `(created_at, id)` of the
/// previous page's last row, if any), one row more than `$limit` (to tell
/// whether more follow).
macro_rules! newest_first_page {
    ($q:expr, $table:ident, $position:expr, $limit:expr, $c:expr) => {{
        let mut q = $q;
        if let Some((at, id)) = $position {
            // `created_at <= at` bounds the index range scan; the OR only
            // breaks ties at the boundary, so a deep page costs what the
            // first one does.
            q = q
                .filter($table::created_at.le(*at))
                .filter($table::created_at.lt(*at).or($table::id.lt(id.clone())));
        }
        q.order(($table::created_at.desc(), $table::id.desc()))
            .limit(i64::from($limit.get()) + 1)
            .load($c)
            .await
    }};
}

mod accounts;
mod audit;
mod backup;
mod catalogue;
mod db;
mod directories;
mod estimates;
mod impact;
mod invoices;
mod jobs;
mod keys;
mod mapping;
mod offset_links;
mod orders;
mod outbox;
mod pact_clients;
mod pact_partners;
mod quotas;
mod schema;
mod secrets;
mod shipments;
mod stats;
mod stock;
mod users;
mod versions;
mod webhooks;

pub use accounts::{AccountStore, CachedAccounts};
pub use audit::AuditStore;
pub use backup::{Backup, BackupError};
pub use catalogue::CatalogueStore;
pub use db::{
    Backend, Conn, DatabaseUrl, DatabaseUrlError, Db, DbError, Follower, Inline, PgLease,
    PoolSettings, PoolStatus, SqliteConn, SqliteLease, follow, hide_password,
};
pub use estimates::{DocumentJobStore, EstimateStore};
pub use impact::ImpactStore;
pub use invoices::InvoiceStore;
pub use jobs::JobStore;
pub use keys::{ApiKeyStore, CachedApiKeys};
pub use offset_links::OffsetLinkStore;
pub use orders::OrderStore;
pub use pact_clients::PactClientStore;
pub use pact_partners::PactPartnerStore;
pub use quotas::QuotaStore;
pub use secrets::{OpenError, SecretsKey, SecretsKeyError};
pub use shipments::ShipmentStore;
pub use users::UserStore;
pub use versions::{CachedVersionPins, VersionPinStore};
pub use webhooks::WebhookStore;
