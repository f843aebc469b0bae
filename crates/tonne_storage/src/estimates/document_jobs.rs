//! The asynchronous transaction documents, each queued with a job of the
//! job engine (`crate::jobs`, claimed there under a lease). Completing a
//! document stores its estimate (with its daily count) and marks it done in
//! one transaction, and only while the job's worker still holds the lease.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::Text;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_estimation::document_jobs::{
    DOCUMENT_JOB, DocumentJobClaim, DocumentJobId, DocumentJobRepository, NewDocumentJob,
};
use tonne_estimation::estimate::Estimate;
use tonne_kernel::{AccountId, EstimateId, JobLease, StoreError};

use super::counted;
use super::rows::row;
use crate::db::error::store_error;
use crate::db::{Conn, Db, DbError};
use crate::impact::rollups;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{estimates, transaction_document_jobs as docs};

const QUEUED: &str = "queued";
const PROCESSING: &str = "processing";
const DONE: &str = "done";
const FAILED: &str = "failed";

/// The jobs on either backend.
#[derive(Debug, Clone)]
pub struct DocumentJobStore {
    pub(super) db: Db,
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

/// Ends the document, only while the job's worker holds the lease (its
/// row locked to the transaction's end); `NotFound` when another worker
/// took it.
async fn hold(
    conn: &mut Conn,
    claim: &DocumentJobClaim,
    status: &str,
    error: Option<&str>,
    at: OffsetDateTime,
) -> QueryResult<()> {
    crate::jobs::hold(conn, &claim.lease, None).await?;
    let changed = on!(conn, |c| diesel::update(
        docs::table
            .filter(docs::id.eq(claim.id.to_string()))
            .filter(docs::status.eq(PROCESSING)),
    )
    .set((
        docs::status.eq(status),
        docs::error.eq(error),
        docs::updated_at.eq(to_sql_time(at)),
    ))
    .execute(c)
    .await)?;
    if changed == 1 {
        Ok(())
    } else {
        Err(DieselError::NotFound)
    }
}

/// Stores a queued job (`enqueue`, and the bounded enqueue of
/// `document_quotas`).
pub(super) async fn insert(conn: &mut Conn, job: &NewDocumentJob) -> QueryResult<()> {
    on!(&mut *conn, |c| diesel::insert_into(docs::table)
        .values((
            docs::id.eq(job.id.to_string()),
            docs::account_id.eq(job.account_id.to_string()),
            docs::estimate_id.eq(job.estimate_id.to_string()),
            docs::body.eq(&job.body),
            docs::tolerance.eq(&job.tolerance),
            docs::correlation_id.eq(&job.correlation_id),
            docs::status.eq(QUEUED),
            docs::created_at.eq(to_sql_time(job.created_at)),
            docs::updated_at.eq(to_sql_time(job.created_at)),
        ))
        .execute(c)
        .await)?;
    crate::jobs::enqueue(
        conn,
        DOCUMENT_JOB,
        job.account_id,
        &job.id.to_string(),
        job.created_at,
    )
    .await
}

#[async_trait]
impl DocumentJobRepository for DocumentJobStore {
    async fn enqueue(&self, job: &NewDocumentJob) -> Result<(), StoreError> {
        let job = job.clone();
        self.db
            .transaction(move |conn| Box::pin(async move { insert(conn, &job).await }))
            .await
            .map_err(|e| store_error(e, "queueing a transaction document"))
    }

    async fn open(
        &self,
        lease: &JobLease,
        id: DocumentJobId,
    ) -> Result<Option<DocumentJobClaim>, StoreError> {
        let lease = lease.clone();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let sql = format!(
                        "UPDATE transaction_document_jobs SET status = '{PROCESSING}' \
                         WHERE id = $1 AND status IN ('{QUEUED}', '{PROCESSING}') \
                         RETURNING id, account_id, estimate_id, body, tolerance"
                    );
                    let opened: Vec<Claimed> = on!(conn, |c| diesel::sql_query(&sql)
                        .bind::<Text, _>(id.to_string())
                        .load(c)
                        .await)?;
                    let Some(row) = opened.into_iter().next() else {
                        return Ok(None);
                    };
                    Ok(Some(DocumentJobClaim {
                        id: parse_id::<DocumentJobId>("document job id", &row.id)?,
                        account_id: parse_id::<AccountId>("account id", &row.account_id)?,
                        estimate_id: parse_id::<EstimateId>("estimate id", &row.estimate_id)?,
                        body: row.body,
                        tolerance: row.tolerance,
                        lease: lease.clone(),
                    }))
                })
            })
            .await
            .map_err(|e| store_error(e, "opening a transaction document"))
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
            .transaction(move |conn| {
                Box::pin(async move {
                    hold(&mut *conn, &claim, DONE, None, at).await?;
                    on!(&mut *conn, |c| diesel::insert_into(estimates::table)
                        .values(&row)
                        .execute(c)
                        .await)?;
                    rollups::estimates_counted(conn, std::iter::once(counted(&row))).await
                })
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
            .transaction(move |conn| {
                Box::pin(async move { hold(conn, &claim, FAILED, Some(&reason), at).await })
            })
            .await
            .map_err(|e| store_error(e, "failing a transaction document"))
    }
}
