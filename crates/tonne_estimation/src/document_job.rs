//! A transaction document's job as stored: its id, what is queued, what a
//! worker holds, and the storage port ([`DocumentJobRepository`]) — apart
//! from the use cases (`document_jobs`) so that the bound on queued
//! documents (`document_quotas`) can name them without a circle.

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, EstimateId, JobLease, StoreError};

use crate::estimate::Estimate;

tonne_kernel::define_id!(
    /// A transaction-document job.
    DocumentJobId
);

/// A job to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDocumentJob {
    pub id: DocumentJobId,
    pub account_id: AccountId,
    /// The id the estimate will have.
    pub estimate_id: EstimateId,
    /// The request as accepted (the wire's JSON, read again by the
    /// [`DocumentDecoder`]).
    pub body: String,
    /// `relative_amount_tolerance_threshold` as accepted.
    pub tolerance: String,
    pub correlation_id: Option<String>,
    pub created_at: OffsetDateTime,
}

/// A job a worker holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentJobClaim {
    pub id: DocumentJobId,
    pub account_id: AccountId,
    pub estimate_id: EstimateId,
    pub body: String,
    pub tolerance: String,
    /// The job engine's lease its writes present.
    pub lease: JobLease,
}

/// The kind of the job engine's job that makes a document's estimate (its
/// subject: the [`DocumentJobId`]).
pub const DOCUMENT_JOB: &str = "transaction_document";

/// Storage of the jobs.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait DocumentJobRepository: Send + Sync {
    /// Stores a queued job with its [`DOCUMENT_JOB`] in one transaction.
    async fn enqueue(&self, job: &NewDocumentJob) -> Result<(), StoreError>;
    /// The document a job engine's job works on, marked processing, for the
    /// lease's writes; `None` once done or failed.
    async fn open(
        &self,
        lease: &JobLease,
        id: DocumentJobId,
    ) -> Result<Option<DocumentJobClaim>, StoreError>;
    /// Stores the estimate and marks the job done, in one transaction, only
    /// while the claim's worker holds the job: `NotFound` otherwise (nothing
    /// written), `Duplicate` when the estimate's idempotency key is taken.
    async fn complete(
        &self,
        claim: &DocumentJobClaim,
        estimate: &Estimate,
        at: OffsetDateTime,
    ) -> Result<(), StoreError>;
    /// Marks the job failed with the reason (while the worker holds it).
    async fn fail(
        &self,
        claim: &DocumentJobClaim,
        reason: &str,
        at: OffsetDateTime,
    ) -> Result<(), StoreError>;
}
