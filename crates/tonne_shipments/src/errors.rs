//! The domain's errors.

use tonne_kernel::StoreError;

/// Why one row of a batch failed: the field (`legs[1].origin`) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct RowError {
    /// The field, as a path into the row.
    pub field: String,
    pub message: String,
}

impl RowError {
    /// A row error.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Why an upload was refused as a whole (nothing is stored).
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// The batch has no rows, or more than [`crate::MAX_BATCH_ROWS`].
    #[error("shipments: {0}")]
    Size(String),
    /// A batch with this idempotency key was already uploaded by the account.
    #[error("a shipment batch with this idempotency key already exists")]
    IdempotencyKeyUsed,
    /// A field of the batch itself is invalid.
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    /// A bound of the account would be passed (pending batches, stored
    /// shipments or bytes): nothing is stored.
    #[error(transparent)]
    Quota(tonne_kernel::Exceeded),
    #[error(transparent)]
    Store(StoreError),
}

/// Why a read failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// No such shipment or batch for this account.
    #[error("not found")]
    NotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a calculation was refused.
#[derive(Debug, thiserror::Error)]
pub enum CalculateError {
    /// The filters select more than [`crate::MAX_CALCULATION`] shipments.
    #[error("the filters select more than {max} shipments")]
    TooMany { max: u64 },
    /// The account has as many calculations outstanding as it may: nothing
    /// is queued.
    #[error(transparent)]
    Quota(tonne_kernel::Exceeded),
    #[error(transparent)]
    Store(#[from] StoreError),
}
