//! Bounds per account: [`admit`], run first in the transaction of every
//! bounded write (a batch, a calculation, a transaction-document job), and
//! `QuotaStore`, the accounts domain's `QuotaRepository` (organisations'
//! overrides in `organisation_limits`, usage read for the console and CLI).
//!
//! `admit` first upserts the account's `account_usage` row, adding what the
//! write stores (rows and bytes; nothing for a calculation or a document):
//! on PostgreSQL the row's lock is held to commit, on SQLite the statement
//! takes the database's write lock. Either way a second bounded write of the
//! same account waits until the first commits, and then counts what it
//! stored, so concurrent writes cannot pass a bound (the margin is zero).
//! Only then are the waiting batches, calculations or documents counted.

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_accounts::quotas::{AccountUsage, QuotaRepository, StoredQuotas};
use tonne_kernel::{
    AccountId, AccountMode, AuditEntry, Bounds, Exceeded, LimitOverrides, OrganisationId, Quota,
    StoreError, Usage,
};

use crate::db::error::store_error;
use crate::db::{Conn, Db};
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{
    account_usage, accounts, organisation_limits, organisations, shipment_batches,
    shipment_calculations, transaction_document_jobs,
};

/// Batch statuses that wait for the worker.
const PENDING_BATCH: [&str; 2] = ["pending", "processing"];
/// Calculation and document-job statuses that wait for the worker.
const OUTSTANDING_JOB: [&str; 2] = ["queued", "processing"];

/// The rows of `$table` (batches or jobs) that wait, their status one of
/// `$statuses`: how many of account `$id` (`of`), or `(account, how many)`
/// of the accounts `$ids` (`per`).
macro_rules! waiting {
    (@rows $table:ident, $statuses:expr) => {
        $table::table.filter($table::status.eq_any($statuses))
    };
    ($conn:expr, $table:ident, $statuses:expr, of $id:expr) => {
        on!($conn, |c| waiting!(@rows $table, $statuses)
            .filter($table::account_id.eq(&$id))
            .count()
            .get_result::<i64>(c)
            .await)
    };
    ($conn:expr, $table:ident, $statuses:expr, per $ids:expr) => {
        on!($conn, |c| waiting!(@rows $table, $statuses)
            .filter($table::account_id.eq_any($ids))
            .group_by($table::account_id)
            .select(($table::account_id, diesel::dsl::count_star()))
            .load::<(String, i64)>(c)
            .await)
    };
}

/// The columns of an organisation's limits, as a `LimitsRow`.
macro_rules! limits_columns {
    () => {
        (
            organisation_limits::organisation_id,
            organisation_limits::max_outstanding_calculations,
            organisation_limits::max_pending_batches,
            organisation_limits::max_pending_documents,
            organisation_limits::max_stored_shipments,
            organisation_limits::max_stored_bytes,
        )
    };
}

fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// Counts the account's usage of the bounds' limits under the account's
/// lock and answers whether the bounds admit the write; when they do, adds
/// what the write stores to the account's usage. Run it first in the write's
/// transaction and write nothing more on `Ok(Err(_))` (what it wrote then,
/// the account's usage row unchanged, may commit).
pub(crate) async fn admit(
    conn: &mut Conn,
    account: AccountId,
    bounds: &Bounds,
) -> QueryResult<Result<(), Exceeded>> {
    let id = account.to_string();
    let adding = |quota: Quota| {
        int(bounds
            .demands
            .iter()
            .filter(|(q, _)| *q == quota)
            .map(|(_, n)| *n)
            .fold(0, u64::saturating_add))
    };
    let (rows, bytes) = (adding(Quota::StoredShipments), adding(Quota::StoredBytes));
    // the lock: an upsert that changes nothing (PostgreSQL locks the row to
    // commit; SQLite takes the write lock before anything is read)
    on!(&mut *conn, |c| diesel::insert_into(account_usage::table)
        .values((
            account_usage::account_id.eq(&id),
            account_usage::stored_shipments.eq(0_i64),
            account_usage::stored_bytes.eq(0_i64),
        ))
        .on_conflict(account_usage::account_id)
        .do_update()
        .set(account_usage::stored_shipments.eq(account_usage::stored_shipments))
        .execute(c)
        .await)?;
    let (stored_rows, stored_bytes): (i64, i64) = on!(&mut *conn, |c| account_usage::table
        .filter(account_usage::account_id.eq(&id))
        .select((account_usage::stored_shipments, account_usage::stored_bytes))
        .first(c)
        .await)?;
    let mut before = Usage::default();
    before.set(Quota::StoredShipments, count(stored_rows));
    before.set(Quota::StoredBytes, count(stored_bytes));
    for quota in bounds.counted() {
        let waiting: i64 = match quota {
            Quota::PendingBatches => waiting!(&mut *conn, shipment_batches, PENDING_BATCH, of id)?,
            Quota::OutstandingCalculations => {
                waiting!(&mut *conn, shipment_calculations, OUTSTANDING_JOB, of id)?
            }
            Quota::PendingDocuments => {
                waiting!(&mut *conn, transaction_document_jobs, OUTSTANDING_JOB, of id)?
            }
            Quota::StoredShipments | Quota::StoredBytes => continue,
        };
        before.set(quota, count(waiting));
    }
    if let Err(e) = bounds.admit(&before) {
        return Ok(Err(e));
    }
    if rows != 0 || bytes != 0 {
        on!(&mut *conn, |c| diesel::update(
            account_usage::table.filter(account_usage::account_id.eq(&id))
        )
        .set((
            account_usage::stored_shipments.eq(account_usage::stored_shipments + rows),
            account_usage::stored_bytes.eq(account_usage::stored_bytes + bytes),
        ))
        .execute(c)
        .await)?;
    }
    Ok(Ok(()))
}

/// Organisations' overrides, and the usage of their accounts.
#[derive(Debug, Clone)]
pub struct QuotaStore {
    db: Db,
}

impl QuotaStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

type LimitsRow = (
    String,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

fn overrides_of(row: &LimitsRow) -> LimitOverrides {
    let value = |v: Option<i64>| v.map(count);
    LimitOverrides {
        outstanding_calculations: value(row.1),
        pending_batches: value(row.2),
        pending_documents: value(row.3),
        stored_shipments: value(row.4),
        stored_bytes: value(row.5),
    }
}

/// The overrides of the organisation the account belongs to.
pub(crate) async fn overrides_of_account(
    db: &Db,
    account: AccountId,
) -> Result<LimitOverrides, StoreError> {
    let id = account.to_string();
    let row: Option<LimitsRow> = db
        .query(move |conn| {
            Box::pin(async move {
                let Some(organisation) = on!(&mut *conn, |c| accounts::table
                    .filter(accounts::id.eq(&id))
                    .select(accounts::organisation_id)
                    .first::<String>(c)
                    .await)
                .optional()?
                else {
                    return Ok(None);
                };
                on!(&mut *conn, |c| organisation_limits::table
                    .filter(organisation_limits::organisation_id.eq(&organisation))
                    .select(limits_columns!())
                    .first::<LimitsRow>(c)
                    .await)
                .optional()
            })
        })
        .await
        .map_err(|e| store_error(e, "reading an organisation's limits"))?;
    Ok(row.as_ref().map(overrides_of).unwrap_or_default())
}

/// Every organisation's (or one's) overrides and accounts' usage.
async fn read(conn: &mut Conn, only: Option<String>) -> QueryResult<Vec<StoredQuotas>> {
    let orgs: Vec<(String, String)> = on!(&mut *conn, |c| {
        let mut q = organisations::table
            .select((organisations::id, organisations::name))
            .order((organisations::name, organisations::id))
            .into_boxed();
        if let Some(id) = &only {
            q = q.filter(organisations::id.eq(id.clone()));
        }
        q.load(c).await
    })?;
    if orgs.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = orgs.iter().map(|(id, _)| id.clone()).collect();
    let limits: Vec<LimitsRow> = on!(&mut *conn, |c| organisation_limits::table
        .filter(organisation_limits::organisation_id.eq_any(&ids))
        .select(limits_columns!())
        .load(c)
        .await)?;
    let accounts: Vec<(String, String, String, String)> = on!(&mut *conn, |c| accounts::table
        .filter(accounts::organisation_id.eq_any(&ids))
        .select((
            accounts::id,
            accounts::organisation_id,
            accounts::mode,
            accounts::name
        ))
        .order((accounts::mode, accounts::name, accounts::id))
        .load(c)
        .await)?;
    let account_ids: Vec<String> = accounts.iter().map(|a| a.0.clone()).collect();
    let stored: Vec<(String, i64, i64)> = on!(&mut *conn, |c| account_usage::table
        .filter(account_usage::account_id.eq_any(&account_ids))
        .select((
            account_usage::account_id,
            account_usage::stored_shipments,
            account_usage::stored_bytes
        ))
        .load(c)
        .await)?;
    let ids = &account_ids;
    let batches = waiting!(&mut *conn, shipment_batches, PENDING_BATCH, per ids)?;
    let calculations = waiting!(&mut *conn, shipment_calculations, OUTSTANDING_JOB, per ids)?;
    let documents = waiting!(&mut *conn, transaction_document_jobs, OUTSTANDING_JOB, per ids)?;
    let mut usage: HashMap<String, Usage> = HashMap::new();
    for (id, rows, bytes) in stored {
        let u = usage.entry(id).or_default();
        u.set(Quota::StoredShipments, count(rows));
        u.set(Quota::StoredBytes, count(bytes));
    }
    for (quota, counted) in [
        (Quota::PendingBatches, batches),
        (Quota::OutstandingCalculations, calculations),
        (Quota::PendingDocuments, documents),
    ] {
        for (id, n) in counted {
            usage.entry(id).or_default().set(quota, count(n));
        }
    }
    let limits: HashMap<String, LimitOverrides> = limits
        .iter()
        .map(|row| (row.0.clone(), overrides_of(row)))
        .collect();
    orgs.into_iter()
        .map(|(org, name)| {
            let accounts = accounts
                .iter()
                .filter(|a| a.1 == org)
                .map(|(id, _, mode, name)| {
                    Ok(AccountUsage {
                        account_id: parse_id("account id", id)?,
                        mode: parse_mode(mode)?,
                        name: name.clone(),
                        usage: usage.get(id).copied().unwrap_or_default(),
                    })
                })
                .collect::<QueryResult<Vec<_>>>()?;
            Ok(StoredQuotas {
                organisation_id: parse_id("organisation id", &org)?,
                organisation_name: name,
                overrides: limits.get(&org).copied().unwrap_or_default(),
                accounts,
            })
        })
        .collect()
}

fn parse_mode(mode: &str) -> QueryResult<AccountMode> {
    mode.parse().map_err(|_| {
        diesel::result::Error::DeserializationError(format!("unknown account mode {mode}").into())
    })
}

#[async_trait]
impl QuotaRepository for QuotaStore {
    async fn organisation(
        &self,
        organisation: OrganisationId,
    ) -> Result<Option<StoredQuotas>, StoreError> {
        let id = organisation.to_string();
        self.db
            .query(move |conn| Box::pin(async move { read(conn, Some(id)).await }))
            .await
            .map(|all| all.into_iter().next())
            .map_err(|e| store_error(e, "reading an organisation's limits and usage"))
    }

    async fn organisations(&self) -> Result<Vec<StoredQuotas>, StoreError> {
        self.db
            .query(move |conn| Box::pin(async move { read(conn, None).await }))
            .await
            .map_err(|e| store_error(e, "reading organisations' limits and usage"))
    }

    async fn set_overrides(
        &self,
        organisation: OrganisationId,
        overrides: &LimitOverrides,
        audit: &AuditEntry,
    ) -> Result<(), StoreError> {
        let id = organisation.to_string();
        let o = *overrides;
        let audit = audit.clone();
        let value = move |q: Quota| o.get(q).map(int);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let known: i64 = on!(&mut *conn, |c| organisations::table
                        .filter(organisations::id.eq(&id))
                        .count()
                        .get_result(c)
                        .await)?;
                    if known == 0 {
                        return Err(diesel::result::Error::NotFound);
                    }
                    let row = (
                        organisation_limits::organisation_id.eq(&id),
                        organisation_limits::max_outstanding_calculations
                            .eq(value(Quota::OutstandingCalculations)),
                        organisation_limits::max_pending_batches.eq(value(Quota::PendingBatches)),
                        organisation_limits::max_pending_documents
                            .eq(value(Quota::PendingDocuments)),
                        organisation_limits::max_stored_shipments.eq(value(Quota::StoredShipments)),
                        organisation_limits::max_stored_bytes.eq(value(Quota::StoredBytes)),
                        organisation_limits::updated_at.eq(to_sql_time(OffsetDateTime::now_utc())),
                    );
                    on!(&mut *conn, |c| diesel::insert_into(
                        organisation_limits::table
                    )
                    .values(row)
                    .on_conflict(organisation_limits::organisation_id)
                    .do_update()
                    .set((
                        organisation_limits::max_outstanding_calculations
                            .eq(excluded(organisation_limits::max_outstanding_calculations)),
                        organisation_limits::max_pending_batches
                            .eq(excluded(organisation_limits::max_pending_batches)),
                        organisation_limits::max_pending_documents
                            .eq(excluded(organisation_limits::max_pending_documents)),
                        organisation_limits::max_stored_shipments
                            .eq(excluded(organisation_limits::max_stored_shipments)),
                        organisation_limits::max_stored_bytes
                            .eq(excluded(organisation_limits::max_stored_bytes)),
                        organisation_limits::updated_at
                            .eq(excluded(organisation_limits::updated_at)),
                    ))
                    .execute(c)
                    .await)?;
                    crate::audit::record(conn, [&audit]).await
                })
            })
            .await
            .map_err(|e| store_error(e, "setting an organisation's limits"))
    }
}
