//! The driving port of the use case and what it answers.

use async_trait::async_trait;
use tonne_estimation::EstimateError;
use tonne_estimation::estimate::{
    AnnotationsPatch, Estimate, EstimateFilter, EstimateKind, NewEstimate,
};
use tonne_estimation::ports::EstimationError;
use tonne_kernel::{AccountId, Cursor, Page, PageRequest};
use tonne_ordering::{Quote, QuoteError};

/// An estimate and the quote of offsetting its mass.
#[derive(Debug)]
pub struct QuotedEstimate {
    /// The estimate as computed (and stored).
    pub estimate: Estimate,
    /// `None` when the estimate has no mass (money movement); else the quote,
    /// or why the estimate's quote terms cannot be priced (never
    /// `QuoteError::Unexpected`: a store failure fails the whole use case).
    pub quote: Option<Result<Quote, QuoteError>>,
}

/// The estimate use cases, each answering the estimate with its quote.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait QuotedEstimatesService: Send + Sync {
    /// Computes and stores an estimate and quotes it. `Ok(None)` for money
    /// movement: nothing to estimate, nothing stored, nothing quoted.
    async fn create(
        &self,
        account: AccountId,
        new: NewEstimate,
    ) -> Result<Option<QuotedEstimate>, EstimationError>;

    /// Computes each entry on its own, stores the estimated ones in one
    /// transaction and prices all their quotes together; the answers keep the
    /// entries' order (`Ok(None)` for money movement, `Err` for an entry the
    /// engine refused).
    async fn create_many(
        &self,
        account: AccountId,
        batch: Vec<NewEstimate>,
    ) -> Result<Vec<Result<Option<QuotedEstimate>, EstimateError>>, EstimationError>;

    /// The account's estimate with this id (of `kind`, if given), quoted now.
    async fn get(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        id: &str,
    ) -> Result<QuotedEstimate, EstimationError>;

    /// The account's estimates of `kinds` that pass the filter, most recent
    /// first, a page at a time, each quoted now (see `EstimationService::list`).
    async fn list(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        filter: EstimateFilter,
        page: PageRequest<Cursor>,
    ) -> Result<Page<QuotedEstimate>, EstimationError>;

    /// The account's estimate with this idempotency key (of `kind`, if
    /// given), quoted now.
    async fn get_by_idempotency_key(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        key: &str,
    ) -> Result<QuotedEstimate, EstimationError>;

    /// Changes what the client attached to an estimate of one of `kinds`
    /// (see `EstimationService::annotate`) and quotes it.
    async fn annotate(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        id: &str,
        patch: AnnotationsPatch,
    ) -> Result<QuotedEstimate, EstimationError>;

    /// Recomputes an estimate in place (see `EstimationService::update`) and
    /// quotes it.
    async fn update(
        &self,
        account: AccountId,
        id: &str,
        new: NewEstimate,
    ) -> Result<QuotedEstimate, EstimationError>;
}
