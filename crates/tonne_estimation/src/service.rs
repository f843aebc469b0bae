//! The estimate use cases over their ports: [`Estimations`] implements
//! [`EstimationService`] with an [`Engine`] and an [`EstimateRepository`].

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{
    AccountId, Clock, Cursor, EstimateId, IdGenerator, Page, PageRequest, StoreError,
};

use crate::errors::EstimateError;
use crate::estimate::{
    AnnotationsPatch, Computed, Estimate, EstimateFilter, EstimateKind, EstimateRequest,
    NewEstimate,
};
use crate::ports::{Engine, EstimateRepository, EstimationError, EstimationService, UpdateOutcome};

/// The built-in engines over the crate's own factor tables.
#[derive(Debug, Clone, Copy, Default)]
pub struct Engines;

impl Engine for Engines {
    fn compute(&self, request: &EstimateRequest) -> Result<Computed, EstimateError> {
        request.compute()
    }
}

/// The estimate use cases.
///
/// `Estimations::new` takes the ports in the order of the fields.
#[derive(Clone, derive_more::Constructor)]
pub struct Estimations {
    repo: Arc<dyn EstimateRepository>,
    engine: Arc<dyn Engine>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
}

/// The estimate found, if it is `account`'s and, when `kind` is given, of
/// that kind; `NotFound` otherwise.
fn owned(
    found: Option<Estimate>,
    account: AccountId,
    kind: Option<EstimateKind>,
) -> Result<Estimate, EstimationError> {
    match found {
        Some(estimate)
            if estimate.account_id == account && kind.is_none_or(|k| k == estimate.kind) =>
        {
            Ok(estimate)
        }
        _ => Err(EstimationError::NotFound),
    }
}

fn unexpected(e: StoreError) -> EstimationError {
    EstimationError::Unexpected(anyhow::anyhow!(e))
}

/// A taken idempotency key refuses the write; anything else is unexpected.
fn write_error(e: StoreError) -> EstimationError {
    match e {
        StoreError::Duplicate => EstimationError::IdempotencyKeyExists,
        StoreError::NotFound | StoreError::Unexpected(_) => unexpected(e),
    }
}

impl Estimations {
    /// Runs the engine and stamps the result as estimate `id`, now.
    fn computed(
        &self,
        id: EstimateId,
        account: AccountId,
        new: NewEstimate,
    ) -> Result<Estimate, EstimateError> {
        let kind = new.request.kind();
        let computed = tracing::debug_span!(
            "engine",
            otel.name = %format_args!("engine {}", kind.as_str()),
            estimate.kind = kind.as_str(),
        )
        .in_scope(|| self.engine.compute(&new.request))?;
        let now = self.clock.now();
        Ok(Estimate {
            id,
            account_id: account,
            kind: new.request.kind(),
            mass: computed.mass,
            detail: computed.detail,
            explanation: computed.explanation,
            quote: new.quote,
            submitted: new.submitted,
            annotations: new.annotations,
            order_id: None,
            created_at: now,
            updated_at: now,
        })
    }

    /// Computes a request; `None` for money movement.
    fn estimate(
        &self,
        account: AccountId,
        new: NewEstimate,
    ) -> Result<Option<Estimate>, EstimateError> {
        let id = EstimateId::generate(self.ids.as_ref());
        let mut estimate = self.computed(id, account, new)?;
        // `shipped_at` / `transaction_processed_at` default to the creation time
        if estimate.kind.is_annotated() && estimate.annotations.occurred_at.is_none() {
            estimate.annotations.occurred_at = Some(estimate.created_at);
        }
        Ok(estimate.mass.is_some().then_some(estimate))
    }
}

#[async_trait]
impl EstimationService for Estimations {
    async fn create(
        &self,
        account: AccountId,
        new: NewEstimate,
    ) -> Result<Option<Estimate>, EstimationError> {
        let Some(estimate) = self.estimate(account, new)? else {
            return Ok(None);
        };
        self.repo
            .insert(std::slice::from_ref(&estimate))
            .await
            .map_err(write_error)?;
        Ok(Some(estimate))
    }

    async fn create_many(
        &self,
        account: AccountId,
        batch: Vec<NewEstimate>,
    ) -> Result<Vec<Result<Option<Estimate>, EstimateError>>, EstimationError> {
        let out: Vec<Result<Option<Estimate>, EstimateError>> = batch
            .into_iter()
            .map(|new| self.estimate(account, new))
            .collect();
        let stored: Vec<Estimate> = out
            .iter()
            .filter_map(|r| r.as_ref().ok().and_then(Option::as_ref).cloned())
            .collect();
        if !stored.is_empty() {
            self.repo.insert(&stored).await.map_err(write_error)?;
        }
        Ok(out)
    }

    async fn get(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        id: &str,
    ) -> Result<Estimate, EstimationError> {
        let id: EstimateId = id.parse().map_err(|_| EstimationError::NotFound)?;
        let found = self.repo.get(account, id).await.map_err(unexpected)?;
        owned(found, account, kind)
    }

    fn emission_factors(
        &self,
        query: &crate::catalogue::FactorQuery,
        after: Option<String>,
        limit: usize,
    ) -> Result<Page<crate::catalogue::CatalogueFactor>, EstimationError> {
        Ok(crate::catalogue::catalogue().page(query, after.as_deref(), limit)?)
    }

    fn emission_factor_regions(&self) -> Vec<String> {
        crate::catalogue::catalogue().regions().to_vec()
    }

    async fn daily_counts(&self, days: u16) -> Result<Vec<(time::Date, u64)>, EstimationError> {
        let today = self.clock.now().date();
        let first = today - time::Duration::days(i64::from(days.max(1)) - 1);
        let sparse = self
            .repo
            .daily_counts(first.midnight().assume_utc())
            .await
            .map_err(unexpected)?;
        let mut filled = Vec::new();
        let mut day = first;
        while day <= today {
            let n = sparse
                .iter()
                .find(|(d, _)| *d == day)
                .map_or(0, |(_, n)| *n);
            filled.push((day, n));
            match day.next_day() {
                Some(next) => day = next,
                None => break,
            }
        }
        Ok(filled)
    }

    async fn list(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        filter: EstimateFilter,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Estimate>, EstimationError> {
        match self.repo.list(account, kinds, &filter, &page).await {
            Ok(page) => Ok(page),
            Err(StoreError::NotFound) => Err(EstimationError::UnknownCursor),
            Err(e) => Err(unexpected(e)),
        }
    }

    async fn business(
        &self,
        account: AccountId,
        filter: EstimateFilter,
    ) -> Result<crate::business::Business, EstimationError> {
        let kinds = [
            EstimateKind::Transaction,
            EstimateKind::TransactionDocument,
            EstimateKind::PassengerTransportation,
        ];
        let filter = EstimateFilter {
            actual: Some(true),
            ..filter
        };
        let mut sums = crate::business::Business::default();
        let mut page = PageRequest {
            limit: tonne_kernel::Limit::new(tonne_kernel::Limit::MAX)
                .map_err(|_| EstimationError::Unexpected(anyhow::anyhow!("page size")))?,
            after: None,
        };
        loop {
            let found = self
                .repo
                .list(account, &kinds, &filter, &page)
                .await
                .map_err(unexpected)?;
            found.items.iter().for_each(|e| sums.add(e));
            match found.last_if_more() {
                Some(last) => page.after = Some(Cursor::after(&last.id)),
                None => return Ok(sums),
            }
        }
    }

    async fn get_by_idempotency_key(
        &self,
        account: AccountId,
        kind: Option<EstimateKind>,
        key: &str,
    ) -> Result<Estimate, EstimationError> {
        let found = self
            .repo
            .get_by_idempotency_key(account, key)
            .await
            .map_err(unexpected)?;
        owned(found, account, kind)
    }

    async fn annotate(
        &self,
        account: AccountId,
        kinds: &[EstimateKind],
        id: &str,
        patch: AnnotationsPatch,
    ) -> Result<Estimate, EstimationError> {
        let mut estimate = self.get(account, None, id).await?;
        if !kinds.contains(&estimate.kind) {
            return Err(EstimationError::NotFound);
        }
        let at = self.clock.now();
        estimate.annotations = estimate.annotations.patched(&patch);
        estimate.updated_at = at;
        let found = self
            .repo
            .annotate(account, estimate.id, &estimate.annotations, at)
            .await
            .map_err(write_error)?;
        if !found {
            return Err(EstimationError::NotFound);
        }
        Ok(estimate)
    }

    async fn update(
        &self,
        account: AccountId,
        id: &str,
        new: NewEstimate,
    ) -> Result<Estimate, EstimationError> {
        let kind = new.request.kind();
        if !kind.is_updatable() {
            return Err(EstimationError::NotFound);
        }
        let id: EstimateId = id.parse().map_err(|_| EstimationError::NotFound)?;
        let mut estimate = self.computed(id, account, new)?;
        let at = estimate.updated_at;
        match self.repo.update(&estimate, at).await.map_err(write_error)? {
            UpdateOutcome::Updated {
                created_at,
                annotations,
            } => {
                estimate.created_at = created_at;
                estimate.annotations = annotations;
                Ok(estimate)
            }
            UpdateOutcome::NotFound => Err(EstimationError::NotFound),
            UpdateOutcome::Ordered => Err(EstimationError::AlreadyOrdered),
        }
    }
}

#[cfg(test)]
mod tests;
