//! The wire types of `data_sheets`: what its requests and answers hold.

use serde::Serialize;
use tonne_wire::data_sheet::Problem;
use utoipa::ToSchema;

/// The data-sheet upload (documentation of the multipart form).
#[derive(ToSchema)]
#[schema(as = DataSheetUpload)]
pub struct DataSheetUpload {
    /// The CSV file (UTF-8, at most 8 MiB and 10,000 shipments); its
    /// `filename` becomes the batch's.
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    /// The counterparty of every shipment (as for batches).
    pub contact_id: Option<String>,
    /// Unique per account (as for batches).
    pub idempotency_key: Option<String>,
    /// `true` or `false` (default).
    pub calculate_emissions: Option<String>,
}

/// The batch made.
#[derive(Serialize, ToSchema)]
#[schema(as = DataSheetBatch)]
pub struct DataSheetBatch {
    /// The batch's id (`GET /v1/shipments/batches/{id}`).
    pub id: String,
}

/// A problem of a refused data sheet.
#[derive(ToSchema)]
#[schema(as = DataSheetProblem)]
#[allow(dead_code)]
pub struct DataSheetProblemResponse {
    /// The file's line (1 is the column names); null for the file as a whole.
    pub(crate) line: Option<u64>,
    /// The column's name; null for the line as a whole.
    pub(crate) column: Option<String>,
    pub(crate) message: String,
}

/// The 400 of a refused data sheet: the `Errors` element with every problem.
#[derive(ToSchema)]
#[schema(as = DataSheetErrors)]
#[allow(dead_code)]
pub struct DataSheetErrorsResponse {
    pub(crate) error: DataSheetErrorResponse,
    pub(crate) errors: Vec<DataSheetErrorResponse>,
}

/// `validation_error`, its message, and the problems.
#[derive(ToSchema)]
#[schema(as = DataSheetError)]
#[allow(dead_code)]
pub struct DataSheetErrorResponse {
    pub(crate) error_code: String,
    pub(crate) message: String,
    pub(crate) errors: Vec<DataSheetProblemResponse>,
}

/// The 400 of a data sheet with problems: the `Errors` body, its element
/// carrying every problem with its line and column.
#[derive(Serialize)]
pub(crate) struct SheetErrors<'a> {
    pub(crate) error: SheetError<'a>,
    pub(crate) errors: [SheetError<'a>; 1],
}

#[derive(Serialize, Clone, Copy)]
pub(crate) struct SheetError<'a> {
    pub(crate) error_code: &'static str,
    pub(crate) message: &'a str,
    pub(crate) errors: &'a [Problem],
}
