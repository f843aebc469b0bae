//! The durable jobs of asynchronous transaction documents, claimed under a
//! lease as the shipments jobs are (`FOR UPDATE SKIP LOCKED` on PostgreSQL,
//! the same conditional UPDATE in SQLite's one writer). Completing a job
//! stores its estimate (with its daily count) and marks the job done in one
//! transaction, and only while the claim's worker still holds the job.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::Text;
use time::OffsetDateTime;
use tonne_estimation::document_jobs::{
    DocumentJobClaim, DocumentJobId, DocumentJobRepository, NewDocumentJob,
};
use tonne_estimation::estimate::Estimate;
use tonne_kernel::{AccountId, EstimateId, StoreError};

use super::{counted, row};
use crate::db::error::store_error;
use crate::db::{AnyConnection, Db, DbError};
use crate::impact::rollups;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{estimates, transaction_document_jobs as jobs};
use crate::shipments::sql::{Bind, Sql};

const QUEUED: &str = "queued";
const PROCESSING: &str = "processing";
const DONE: &str = "done";
const FAILED: &str = "failed";

/// The jobs on either backend.
#[derive(Debug, Clone)]
pub struct DocumentJobStore {
    db: Db,
}

impl DocumentJobStore {
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[derive(QueryableByName)]
struct Claimed {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = Text)]
    account_id: String,
    #[diesel(sql_type = Text)]
    estimate_id: String,
    #[diesel(sql_type = Text)]
    body: String,
    #[diesel(sql_type = Text)]
    tolerance: String,
}

/// Extends the lease of the job the claim's worker holds (locking its row
/// to the transaction's end); `NotFound` when another worker took it.
fn hold(
    conn: &mut AnyConnection,
    claim: &DocumentJobClaim,
    status: &str,
    error: Option<&str>,
    at: OffsetDateTime,
) -> QueryResult<()> {
    let changed = diesel::update(
        jobs::table
            .filter(jobs::id.eq(claim.id.to_string()))
            .filter(jobs::status.eq(PROCESSING))
            .filter(jobs::lease_owner.eq(&claim.worker)),
    )
    .set((
        jobs::status.eq(status),
        jobs::error.eq(error),
        jobs::lease_owner.eq(None::<String>),
        jobs::lease_until.eq(None::<time::PrimitiveDateTime>),
        jobs::updated_at.eq(to_sql_time(at)),
    ))
    .execute(conn)?;
    if changed == 1 {
        Ok(())
    } else {
        Err(DieselError::NotFound)
    }
}

#[async_trait]
impl DocumentJobRepository for DocumentJobStore {
    async fn enqueue(&self, job: &NewDocumentJob) -> Result<(), StoreError> {
        let job = job.clone();
        self.db
            .write(move |conn| {
                diesel::insert_into(jobs::table)
                    .values((
                        jobs::id.eq(job.id.to_string()),
                        jobs::account_id.eq(job.account_id.to_string()),
                        jobs::estimate_id.eq(job.estimate_id.to_string()),
                        jobs::body.eq(&job.body),
                        jobs::tolerance.eq(&job.tolerance),
                        jobs::correlation_id.eq(&job.correlation_id),
                        jobs::status.eq(QUEUED),
                        jobs::created_at.eq(to_sql_time(job.created_at)),
                        jobs::updated_at.eq(to_sql_time(job.created_at)),
                    ))
                    .execute(conn)
                    .map(|_| ())
            })
            .await
            .map_err(|e| store_error(e, "queueing a transaction document"))
    }

    async fn claim(
        &self,
        worker: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> Result<Option<DocumentJobClaim>, StoreError> {
        let worker = worker.to_owned();
        self.db
            .write(move |conn| {
                let lock = match conn {
                    AnyConnection::Postgresql(_) => " FOR UPDATE SKIP LOCKED",
                    AnyConnection::Sqlite(_) => "",
                };
                let mut sql = Sql::new(&format!(
                    "UPDATE transaction_document_jobs SET status = '{PROCESSING}', lease_owner = "
                ));
                sql.text(worker.clone())
                    .push(", lease_until = ")
                    .bind(Bind::Time(to_sql_time(until)))
                    .push(&format!(
                        " WHERE id IN (SELECT id FROM transaction_document_jobs \
                         WHERE status IN ('{QUEUED}', '{PROCESSING}') \
                         AND (status = '{QUEUED}' OR lease_until < "
                    ))
                    .bind(Bind::Time(to_sql_time(now)))
                    .push(&format!(
                        ") ORDER BY id LIMIT 1{lock}) \
                         RETURNING id, account_id, estimate_id, body, tolerance"
                    ));
                let Some(row) = sql.load_blocking::<Claimed>(conn)?.into_iter().next() else {
                    return Ok(None);
                };
                Ok(Some(DocumentJobClaim {
                    id: parse_id::<DocumentJobId>("document job id", &row.id)?,
                    account_id: parse_id::<AccountId>("account id", &row.account_id)?,
                    estimate_id: parse_id::<EstimateId>("estimate id", &row.estimate_id)?,
                    body: row.body,
                    tolerance: row.tolerance,
                    worker: worker.clone(),
                }))
            })
            .await
            .map_err(|e| store_error(e, "claiming a transaction document"))
    }

    async fn complete(
        &self,
        claim: &DocumentJobClaim,
        estimate: &Estimate,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let row = row(estimate).map_err(|e| store_error(DbError::Query(e), "encoding"))?;
        let claim = claim.clone();
        self.db
            .write(move |conn| {
                hold(conn, &claim, DONE, None, at)?;
                let insert = diesel::insert_into(estimates::table).values(&row);
                match conn {
                    AnyConnection::Postgresql(c) => insert.execute(c)?,
                    AnyConnection::Sqlite(c) => insert.execute(c)?,
                };
                rollups::estimates_counted(conn, std::iter::once(counted(&row)))
            })
            .await
            .map_err(|e| store_error(e, "completing a transaction document"))
    }

    async fn fail(
        &self,
        claim: &DocumentJobClaim,
        reason: &str,
        at: OffsetDateTime,
    ) -> Result<(), StoreError> {
        let (claim, reason) = (claim.clone(), reason.chars().take(500).collect::<String>());
        self.db
            .write(move |conn| hold(conn, &claim, FAILED, Some(&reason), at))
            .await
            .map_err(|e| store_error(e, "failing a transaction document"))
    }
}
