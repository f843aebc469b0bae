//! The ports of the estimation hexagon: [`EstimationService`] (driving: what
//! adapters call) and [`EstimateRepository`] and [`Engine`] (driven: what the
//! service needs).

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Cursor, EstimateId, Page, PageRequest, StoreError};

use crate::errors::EstimateError;
use crate::estimate::{
    Annotations, AnnotationsPatch, Computed, Estimate, EstimateFilter, EstimateKind,
    EstimateRequest, NewEstimate,
};

/// The estimate use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait EstimationService: Send + Sync {
    /// Computes and stores an estimate. `Ok(None)` for money movement:
    /// nothing to estimate and nothing stored.
    async fn create(
        &self,
        account: AccountId,
        new: NewEstimate,
    ) -> Result<Option<Estimate>, EstimationError>;

    /// Computes each entry on its own and stores the estimated ones in one
    /// transaction; the answers keep the entries' order (`Ok(None)` for money
    /// movement, `Err` for an entry the engine refused).
    async fn create_many(
        &self,
        account: AccountId,
        batch: Vec<NewEstimate>,
    ) -> Result<Vec<Result<Option<Estimate>, EstimateError>>, EstimationError>;

    /// The account's estimate with this id (of `kind`, if given), as computed then.
    async fn get(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        id: &str,
    ) -> Result<Estimate, EstimationError>;

    /// The account's estimate with this idempotency key (of `kind`, if given).
    async fn get_by_idempotency_key(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        key: &str,
    ) -> Result<Estimate, EstimationError>;

    /// The account's estimates of `kinds` that pass the filter, most recent
    /// first, a page at a time (`after`: the last id of the previous page).
    async fn list(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        filter: EstimateFilter,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Estimate>, EstimationError>;

    /// The emission-factor catalogue: the factors that pass `query`, best
    /// match first, at most `limit` after the factor `after` (`Invalid` for an
    /// `after` the listing does not hold). Answered from memory.
    fn emission_factors(
        &self,
        query: &crate::catalogue::FactorQuery,
        after: Option<String>,
        limit: usize,
    ) -> Result<Page<crate::catalogue::CatalogueFactor>, EstimationError>;

    /// Business analytics: the account's transaction, transaction-document
    /// and passenger-transportation estimates whose annotation says they
    /// happened (`is_transaction`, `is_transaction_document`,
    /// `is_passenger_transportation`: `actual`), created in the filter's
    /// range (its `actual` is ignored), summed by business category.
    async fn business(
        &self,
        account: AccountId,
        filter: EstimateFilter,
    ) -> Result<crate::business::Business, EstimationError>;

    /// Every region some catalogue factor covers, sorted.
    fn emission_factor_regions(&self) -> Vec<String>;

    /// Operator: estimates made per UTC day over the last `days` days (today
    /// included), every day present, oldest first, across the installation.
    async fn daily_counts(&self, days: u16) -> Result<Vec<(time::Date, u64)>, EstimationError>;

    /// Changes what the client attached to an estimate of one of `kinds`
    /// (nothing is recomputed; an ordered estimate may be annotated too).
    async fn annotate(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        id: &str,
        patch: AnnotationsPatch,
    ) -> Result<Estimate, EstimationError>;

    /// Recomputes an estimate in place (same id) from a new request of the
    /// same kind: only the kinds the contract lets clients update, and never
    /// once ordered.
    async fn update(
        &self,
        account: AccountId,
        id: &str,
        new: NewEstimate,
    ) -> Result<Estimate, EstimationError>;
}

/// Why an estimate use case failed.
#[derive(Debug, thiserror::Error)]
pub enum EstimationError {
    /// The engine refused the request (each variant names its field).
    #[error(transparent)]
    Invalid(#[from] EstimateError),
    /// Unknown id, another account's, or another kind's (`estimate_not_found`).
    #[error("estimate not found")]
    NotFound,
    /// The account has an estimate with this idempotency key already
    /// (`estimate_idempotency_already_exists`); nothing was stored.
    #[error("an estimate with this idempotency_key already exists")]
    IdempotencyKeyExists,
    /// The estimate was ordered (`estimate_order_already_placed`).
    #[error("the estimate has an order and can no longer be updated")]
    AlreadyOrdered,
    /// A list's `after` names no estimate of the account.
    #[error("after: no estimate of this account has that id")]
    UnknownCursor,
    /// A bound of the account would be passed (pending documents): nothing
    /// was queued.
    #[error(transparent)]
    Quota(tonne_kernel::Exceeded),
    /// Storage failed.
    #[error(transparent)]
    Unexpected(anyhow::Error),
}

/// Computes estimates: the built-in engines over the crate's tables
/// ([`crate::service::Engines`]), or a substitute (another table, a test double).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait Engine: Send + Sync {
    /// Runs the engine of a request.
    fn compute(&self, request: &EstimateRequest) -> Result<Computed, EstimateError>;
}

/// The result of a conditional update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateOutcome {
    /// Replaced; the estimate was first created at this time.
    Updated {
        /// The stored estimate's `created_at`.
        created_at: OffsetDateTime,
        /// Its annotations after the update (those the update did not set
        /// are unchanged).
        annotations: Annotations,
    },
    /// No such estimate of this kind on this account.
    NotFound,
    /// Ordered already: it can no longer change.
    Ordered,
}

/// Storage of estimates. The store keeps the typed result (mass, detail,
/// explanation, quote terms) in its own encoding.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait EstimateRepository: Send + Sync {
    /// Estimates created per UTC day at or after `since` (days without any left
    /// out), across the installation, in one grouped query.
    async fn daily_counts(
        &self,
        since: OffsetDateTime,
    ) -> Result<Vec<(time::Date, u64)>, StoreError>;

    /// Inserts all estimates in one transaction (all or none). MUST return
    /// `Duplicate` when an idempotency key is taken on the account (a unique
    /// constraint, not a read-then-write).
    async fn insert(&self, estimates: &[Estimate]) -> Result<(), StoreError>;
    /// The account's estimate with this idempotency key.
    async fn get_by_idempotency_key(
        &self,
        account: AccountId,
        key: &str,
    ) -> Result<Option<Estimate>, StoreError>;
    /// Replaces the annotations and `updated_at` of the account's estimate
    /// `id` (of any kind, ordered or not); `false` if there is none. MUST
    /// return `Duplicate` when the idempotency key is another estimate's.
    async fn annotate(
        &self,
        account: AccountId,
        id: EstimateId,
        annotations: &Annotations,
        at: OffsetDateTime,
    ) -> Result<bool, StoreError>;
    /// The account's estimates of `kinds` that pass the filter, most recent
    /// first (`created_at`, then id), from after the cursor's estimate. MUST
    /// return `NotFound` when the cursor names no estimate of the account.
    async fn list(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        filter: &EstimateFilter,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Estimate>, StoreError>;
    /// The account's estimate with this id.
    async fn get(&self, account: AccountId, id: EstimateId)
    -> Result<Option<Estimate>, StoreError>;
    /// Replaces what was computed (mass, detail, explanation, quote terms,
    /// submitted document), the annotations it sets (an idempotency key,
    /// non-empty metadata, `actual`, `occurred_at`: absent ones stay) and
    /// `updated_at` if the estimate exists on the
    /// account, has the kind, and has no order — atomically.
    async fn update(
        &self,
        estimate: &Estimate,
        at: OffsetDateTime,
    ) -> Result<UpdateOutcome, StoreError>;
}
