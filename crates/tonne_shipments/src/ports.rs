//! The shipments domain's ports: [`ShipmentsService`] (driving) and what it
//! drives, [`ShipmentRepository`] (storage and the durable jobs) and
//! [`RowDecoder`] (a row's text to a [`ShipmentDraft`]).

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, JobClaim, JobLease, Page, PageRequest, Step, StoreError};

use crate::batch::{
    Batch, BatchClaim, BatchDetail, BatchSource, CalculationClaim, NewBatch, NewCalculation,
    PendingRow, RowDone, ShipmentCounts, ShipmentFilter, StoredRow, Upload,
};
use crate::emissions::ShipmentEmissions;
use crate::errors::{CalculateError, ReadError, RowError, UploadError};
use crate::ids::{CalculationId, ShipmentBatchId, ShipmentId};
use crate::model::{Counterparty, Shipment, ShipmentDraft};
use crate::report::ReportLine;

/// Who acts: the account a key acts as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub account_id: AccountId,
    /// Its name (shown on batches, and as the shipper's).
    pub account_name: String,
}

/// A page of shipments, with the filter's counts when asked.
#[derive(Debug, Clone, PartialEq)]
pub struct ShipmentList {
    pub page: Page<Shipment>,
    pub counts: Option<ShipmentCounts>,
}

/// Shipments per page of the report.
pub const REPORT_PAGE: u32 = 500;

/// A page of the report: its lines, and the last shipment read when more follow.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportPage {
    pub lines: Vec<ReportLine>,
    /// Where the next page starts (`None`: this was the last).
    pub next: Option<ShipmentId>,
}

/// A shipment with its report lines (one per leg, hubs included) and its
/// legs as sent: what its PACT footprint and transport activity data are
/// made of.
#[derive(Debug, Clone, PartialEq)]
pub struct ShipmentLines {
    pub shipment: Shipment,
    pub lines: Vec<ReportLine>,
    /// The legs as sent, in the row's order (empty when the row no longer
    /// decodes).
    pub legs: Vec<crate::model::LegDraft>,
}

/// The kind of the job that processes an uploaded batch (its subject: the batch's id).
pub const BATCH_JOB: &str = "shipment_batch";
/// The kind of the job that walks a calculation (its subject: the calculation's id).
pub const CALCULATION_JOB: &str = "shipment_calculation";

/// The use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ShipmentsService: Send + Sync {
    /// Stores a batch's rows as they are (checking only their number and the
    /// batch's own fields) and answers its id; rows are processed later.
    async fn upload(&self, owner: &Owner, upload: Upload) -> Result<ShipmentBatchId, UploadError>;

    /// A batch of the account, with its row results once processed.
    async fn batch(
        &self,
        account: AccountId,
        id: ShipmentBatchId,
    ) -> Result<BatchDetail, ReadError>;

    /// The account's batches, most recent first, of the given sources (all when empty).
    async fn batches(
        &self,
        account: AccountId,
        sources: Vec<BatchSource>,
        page: PageRequest<ShipmentBatchId>,
    ) -> Result<Page<Batch>, ReadError>;

    /// A shipment of the account.
    async fn shipment(&self, account: AccountId, id: ShipmentId) -> Result<Shipment, ReadError>;

    /// The account's shipments the filter selects, most recent first.
    async fn shipments(
        &self,
        account: AccountId,
        filter: ShipmentFilter,
        page: PageRequest<ShipmentId>,
        with_counts: bool,
    ) -> Result<ShipmentList, ReadError>;

    /// One page of the ISO 14083 report's lines: the shipments the filter
    /// selects after `after`, newest first, [`REPORT_PAGE`] at most, each
    /// as its [`ReportLine`]s.
    async fn report_page(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        after: Option<ShipmentId>,
    ) -> Result<ReportPage, ReadError>;

    /// The account's shipments with emissions after `after`, newest first,
    /// `limit` at most, each with its report lines (PACT's footprints).
    async fn calculated_after(
        &self,
        account: AccountId,
        after: Option<ShipmentId>,
        limit: u32,
    ) -> Result<Vec<ShipmentLines>, ReadError>;

    /// A shipment of the account with its report lines.
    async fn shipment_lines(
        &self,
        account: AccountId,
        id: ShipmentId,
    ) -> Result<ShipmentLines, ReadError>;

    /// Queues the calculation of the shipments the filter selects.
    async fn calculate(
        &self,
        account: AccountId,
        filter: ShipmentFilter,
    ) -> Result<Vec<CalculationId>, CalculateError>;

    /// One bounded step of a job of this domain, held under its lease:
    /// [`BATCH_JOB`] processes one chunk of the batch's rows,
    /// [`CALCULATION_JOB`] calculates one chunk of the calculation's
    /// shipments. `NotFound` when the lease was lost.
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError>;

    /// The job engine gave the job up: a batch ends processed with `reason`
    /// as its `batch_error` (the rows already processed keep their
    /// outcomes), a calculation ends where it got to.
    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError>;
}

/// Turns a stored row's text into a draft; structure and vocabulary errors
/// name the field.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait RowDecoder: Send + Sync {
    fn decode(&self, row: &str) -> Result<ShipmentDraft, RowError>;
}

/// Storage of batches, shipments, counterparties and the two durable jobs.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ShipmentRepository: Send + Sync {
    /// Stores a batch, its rows and its [`BATCH_JOB`] in one transaction; `Duplicate` when the
    /// account already used the idempotency key.
    async fn insert_batch(&self, batch: &NewBatch) -> Result<(), StoreError>;

    /// A batch of the account with its row results.
    async fn batch(
        &self,
        account: AccountId,
        id: ShipmentBatchId,
    ) -> Result<Option<BatchDetail>, StoreError>;

    /// The account's batches, most recent first.
    async fn batches(
        &self,
        account: AccountId,
        sources: &[BatchSource],
        page: &PageRequest<ShipmentBatchId>,
    ) -> Result<Page<Batch>, StoreError>;

    /// The batch a job works on, marked processing, for the lease's writes;
    /// `None` once it is processed.
    async fn open_batch(
        &self,
        lease: &JobLease,
        batch: ShipmentBatchId,
    ) -> Result<Option<BatchClaim>, StoreError>;

    /// Up to `limit` rows of the batch not yet processed, by index.
    async fn pending_rows(
        &self,
        batch: ShipmentBatchId,
        limit: u32,
    ) -> Result<Vec<PendingRow>, StoreError>;

    /// In one transaction: stores the rows' shipments, records each row's
    /// outcome (only rows not yet processed) and extends the lease. Fails
    /// with `NotFound`, writing nothing, when the claim's worker no longer
    /// holds the batch or a row was already processed.
    async fn complete_rows(
        &self,
        claim: &BatchClaim,
        rows: Vec<(u32, RowDone)>,
        lease_until: OffsetDateTime,
    ) -> Result<(), StoreError>;

    /// Marks the batch processed (counts from its rows, or the batch error).
    async fn finish_batch(
        &self,
        claim: &BatchClaim,
        batch_error: Option<String>,
    ) -> Result<(), StoreError>;

    /// The account's counterparty by id.
    async fn counterparty(
        &self,
        account: AccountId,
        id: &str,
    ) -> Result<Option<Counterparty>, StoreError>;

    /// The account's counterparty known by `internal_id`, created with `name`
    /// (or the internal id) if new.
    async fn counterparty_by_internal_id(
        &self,
        account: AccountId,
        internal_id: &str,
        name: Option<String>,
    ) -> Result<Counterparty, StoreError>;

    /// A shipment of the account.
    async fn shipment(
        &self,
        account: AccountId,
        id: ShipmentId,
    ) -> Result<Option<Shipment>, StoreError>;

    /// The account's shipments the filter selects, most recent first.
    async fn shipments(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        page: &PageRequest<ShipmentId>,
    ) -> Result<Page<Shipment>, StoreError>;

    /// Up to `limit` of the account's shipments the filter selects after
    /// `after` (newest first): the report's walk, in pages larger than the
    /// list's.
    async fn shipments_after(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        after: Option<ShipmentId>,
        limit: u32,
    ) -> Result<Vec<Shipment>, StoreError>;

    /// How many shipments the filter selects, counting at most `cap + 1`.
    async fn count(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
        cap: u64,
    ) -> Result<u64, StoreError>;

    /// The filter's counts, all and with or without emissions.
    async fn counts(
        &self,
        account: AccountId,
        filter: &ShipmentFilter,
    ) -> Result<ShipmentCounts, StoreError>;

    /// Stores a calculation and its [`CALCULATION_JOB`] in one transaction.
    async fn insert_calculation(&self, calculation: &NewCalculation) -> Result<(), StoreError>;

    /// The calculation a job works on, marked processing, for the lease's
    /// writes; `None` once it is done.
    async fn open_calculation(
        &self,
        lease: &JobLease,
        id: CalculationId,
    ) -> Result<Option<CalculationClaim>, StoreError>;

    /// The next `limit` shipments of the calculation, by id, after its progress.
    async fn calculation_rows(
        &self,
        claim: &CalculationClaim,
        limit: u32,
    ) -> Result<Vec<StoredRow>, StoreError>;

    /// In one transaction: stores the shipments' emissions (`None` clears
    /// them), advances the calculation to `last` and extends the lease;
    /// `NotFound` when the worker no longer holds it.
    async fn save_calculated(
        &self,
        claim: &CalculationClaim,
        results: Vec<(ShipmentId, Option<ShipmentEmissions>)>,
        last: ShipmentId,
        lease_until: OffsetDateTime,
    ) -> Result<(), StoreError>;

    /// Marks the calculation done.
    async fn finish_calculation(&self, claim: &CalculationClaim) -> Result<(), StoreError>;
}
