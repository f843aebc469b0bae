//! Why an ordering use case refused: one error type per use case (catalogue
//! reads, quotes, creating, reading, transitioning and placing orders,
//! retirement records).

/// Why a catalogue item could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    /// No such project or bundle.
    #[error("not found")]
    NotFound,
    /// A list parameter is invalid.
    #[error("{field}: {reason}")]
    Invalid { field: &'static str, reason: String },
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why a quote (or an order) could not be priced.
#[derive(Debug, thiserror::Error)]
pub enum QuoteError {
    /// The mass or value is zero, negative, too precise, too large, or buys nothing.
    #[error("{0}")]
    QuantityInvalid(String),
    /// Percentages do not sum to 100.
    #[error("{0}")]
    RatiosInvalid(String),
    /// Percentages are malformed, or given for some bundles and not others.
    #[error("{0}")]
    RatiosFormat(String),
    /// A bundle is unknown, disabled, repeated, or not priced in the account's currency.
    #[error("{0}")]
    BundleInvalid(String),
    /// Another field is invalid.
    #[error("{field}: {reason}")]
    Invalid { field: &'static str, reason: String },
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why an order could not be created.
#[derive(Debug, thiserror::Error)]
pub enum CreateOrderError {
    /// The request does not price (see [`QuoteError`]).
    #[error(transparent)]
    Quote(#[from] QuoteError),
    /// The account already has an order with this idempotency key.
    #[error("an order with this idempotency_key already exists")]
    IdempotencyKeyExists,
    /// The estimate has been ordered already (or changed while ordering).
    #[error("an order was already placed for this estimate")]
    EstimateAlreadyOrdered,
}

/// Why an order could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadOrderError {
    /// No such order (or not visible to the caller).
    #[error("order not found")]
    NotFound,
    /// A list parameter is invalid.
    #[error("{field}: {reason}")]
    Invalid { field: &'static str, reason: String },
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why an order could not change status.
#[derive(Debug, thiserror::Error)]
pub enum TransitionError {
    /// No such order.
    #[error("order not found")]
    NotFound,
    /// The state machine does not allow it.
    #[error("an order cannot go from {from} to {to}")]
    Illegal {
        /// Current status.
        from: &'static str,
        /// Requested status.
        to: &'static str,
    },
    /// Another process changed the order first; read it again.
    #[error("the order changed concurrently")]
    Conflict,
    /// The registry serial number is not one (blank, over
    /// [`MAX_SERIAL_CHARS`](crate::orders::MAX_SERIAL_CHARS) characters, or
    /// with control characters); nothing was changed.
    #[error("registry serial number: {0}")]
    InvalidSerial(&'static str),
    /// The order is on hold (its reason, e.g. a disputed card payment): only
    /// `cancelled` or `failed` may follow until the hold is released.
    #[error("the order is on hold: {0}")]
    OnHold(String),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why retirement records were refused.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// No such order.
    #[error("order not found")]
    NotFound,
    /// Records are kept once the order is retiring or complete.
    #[error("an order that is {0} has no retirement to record")]
    NotRetiring(&'static str),
    /// A record names a project the order did not retire, or is malformed.
    #[error("{0}")]
    Invalid(String),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}

/// Why the store could not place an order (one answer per cause, decided by the
/// store's own constraints inside the placing transaction).
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// The account already has an order with this idempotency key.
    #[error("the account already has an order with this idempotency key")]
    IdempotencyKeyTaken,
    /// The estimate is ordered already, or its mass changed since it was read.
    #[error("the estimate is ordered already or changed")]
    EstimateAlreadyOrdered,
    /// Storage failed.
    #[error(transparent)]
    Unexpected(#[from] anyhow::Error),
}
