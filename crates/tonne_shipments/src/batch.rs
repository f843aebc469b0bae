//! Batches: what an upload stores at once ([`NewBatch`]), how a batch is
//! seen ([`Batch`], [`RowResult`]), and the list's filter over shipments
//! ([`ShipmentFilter`]) that calculations reuse.

use time::{Date, OffsetDateTime};
use tonne_kernel::{AccountId, JobLease};

use crate::ids::{CalculationId, DataSheetId, ShipmentBatchId, ShipmentId};
use crate::model::NewShipment;
use crate::vocabulary::ModeSet;

/// Most rows one batch may hold.
pub const MAX_BATCH_ROWS: usize = 10_000;
/// Most shipments one calculation may select.
pub const MAX_CALCULATION: u64 = 200_000;

/// Through which channel a batch came.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BatchSource {
    /// `POST /v1/shipments/batches`.
    Api,
    /// A CSV data sheet (console or `POST /v1/shipments/data-sheets`).
    DataSheet,
}

impl BatchSource {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            BatchSource::Api => "api",
            BatchSource::DataSheet => "data_sheet",
        }
    }

    /// From the wire name.
    pub fn parse(s: &str) -> Option<Self> {
        [BatchSource::Api, BatchSource::DataSheet]
            .into_iter()
            .find(|b| b.as_str() == s)
    }
}

/// Where a batch is in its processing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchStatus {
    Pending,
    Processing,
    Processed,
}

impl BatchStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            BatchStatus::Pending => "pending",
            BatchStatus::Processing => "processing",
            BatchStatus::Processed => "processed",
        }
    }

    /// From the wire name.
    pub fn parse(s: &str) -> Option<Self> {
        [
            BatchStatus::Pending,
            BatchStatus::Processing,
            BatchStatus::Processed,
        ]
        .into_iter()
        .find(|b| b.as_str() == s)
    }
}

/// The data sheet a batch came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataSheet {
    pub id: DataSheetId,
    /// The file's name as uploaded.
    pub filename: String,
    /// Who uploaded it (a console user's email, or the API key's account name).
    pub uploader: Option<String>,
}

/// A batch to store with its rows, all at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBatch {
    pub id: ShipmentBatchId,
    pub account_id: AccountId,
    /// The account's name, shown on the batch.
    pub account_name: String,
    pub source: BatchSource,
    pub data_sheet: Option<DataSheet>,
    pub idempotency_key: Option<String>,
    /// The counterparty of every row, when the batch names one.
    pub contact_id: Option<String>,
    /// Whether to calculate emissions as rows are stored.
    pub calculate: bool,
    /// The rows, each as its canonical JSON text.
    pub rows: Vec<String>,
    pub created_at: OffsetDateTime,
}

/// What the caller asks to upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    pub rows: Vec<String>,
    pub contact_id: Option<String>,
    pub idempotency_key: Option<String>,
    pub calculate: bool,
    pub source: BatchSource,
    pub data_sheet: Option<(String, Option<String>)>,
}

/// A batch as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub id: ShipmentBatchId,
    pub account_id: AccountId,
    pub status: BatchStatus,
    pub source: BatchSource,
    pub account_name: String,
    pub data_sheet: Option<DataSheet>,
    pub created_at: OffsetDateTime,
    /// Rows stored; `None` until processed, or with a batch-level error.
    pub success_count: Option<u32>,
    /// Rows failed; as `success_count`.
    pub failed_count: Option<u32>,
    /// Why no row was processed, when so.
    pub batch_error: Option<String>,
}

/// One row's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowOutcome {
    Success(ShipmentId),
    Failed(String),
}

/// A processed row, by its zero-based index in the upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowResult {
    pub row_index: u32,
    pub outcome: RowOutcome,
}

/// A batch with its row results (empty until processed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchDetail {
    pub batch: Batch,
    pub results: Vec<RowResult>,
}

/// A processed row to store: its shipment, or why it failed.
#[derive(Debug, Clone, PartialEq)]
pub enum RowDone {
    Stored(Box<NewShipment>),
    Failed(String),
}

/// A row waiting to be processed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRow {
    pub row_index: u32,
    pub row: String,
}

/// A batch a worker holds until `lease_until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchClaim {
    pub batch_id: ShipmentBatchId,
    pub account_id: AccountId,
    pub account_name: String,
    pub contact_id: Option<String>,
    pub calculate: bool,
    /// The job's lease its writes present.
    pub lease: JobLease,
}

/// Which emissions a listed shipment must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EmissionsFilter {
    #[default]
    All,
    WithCo2e,
    WithoutCo2e,
}

/// The list's filters (every given one must hold; values of one filter are OR'd).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShipmentFilter {
    /// Matches the start of the client's `shipment_id`, or Tonne's id exactly.
    pub search: Option<String>,
    pub date_from: Option<Date>,
    pub date_to: Option<Date>,
    /// Modes per phase (pre, main, on): a shipment matches a phase's set if
    /// one of its legs of that phase goes by one of them.
    pub modes: [ModeSet; 3],
    pub supplier_ids: Vec<String>,
    pub shipper_ids: Vec<String>,
    pub batch_ids: Vec<ShipmentBatchId>,
    pub data_sheet_ids: Vec<DataSheetId>,
    pub ids: Vec<ShipmentId>,
    pub flagged: Option<bool>,
    pub emissions: EmissionsFilter,
}

/// Counts of the shipments a filter selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ShipmentCounts {
    pub all: u64,
    pub with_co2e: u64,
    pub without_co2e: u64,
}

/// A queued calculation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCalculation {
    pub id: CalculationId,
    pub account_id: AccountId,
    pub filter: ShipmentFilter,
    pub created_at: OffsetDateTime,
}

/// A calculation a worker holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalculationClaim {
    pub id: CalculationId,
    pub account_id: AccountId,
    pub filter: ShipmentFilter,
    /// The last shipment done (the calculation walks ids upwards).
    pub after: Option<ShipmentId>,
    /// The job's lease its writes present.
    pub lease: JobLease,
}

/// A stored shipment's row, to calculate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRow {
    pub id: ShipmentId,
    pub row: String,
}
