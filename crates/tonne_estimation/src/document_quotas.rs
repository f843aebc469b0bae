//! The bound per account on asynchronous transaction documents
//! ([`tonne_kernel::Quota::PendingDocuments`]): the driven port
//! [`DocumentQuotas`] that reads an organisation's own limits and queues a
//! job only within its bounds (the account's queued and running jobs counted
//! in the queueing transaction), and [`enqueue`], the rule the use case
//! applies: the organisation's limit where it has one, else the default.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{
    AccountId, BoundedWriteError, Bounds, LimitOverrides, Limits, Quota, StoreError,
};

use crate::document_job::{DocumentJobRepository, NewDocumentJob};
use crate::ports::EstimationError;

/// Limits of the account's documents, and the bounded enqueue.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait DocumentQuotas: Send + Sync {
    /// The limits the account's organisation overrides.
    async fn overrides(&self, account: AccountId) -> Result<LimitOverrides, StoreError>;

    /// Queues the job as [`DocumentJobRepository::enqueue`] does, in one
    /// transaction that first counts the account's queued and running jobs:
    /// `Exceeded` when the bounds do not admit it, nothing written.
    async fn enqueue_within(
        &self,
        job: &NewDocumentJob,
        bounds: &Bounds,
    ) -> Result<(), BoundedWriteError>;
}

/// The quota port and the installation's defaults.
pub type DocumentBounds = (Arc<dyn DocumentQuotas>, Limits);

/// Queues a job: within the account's bound when `quotas` is given
/// (`EstimationError::Quota` past it, nothing written), else as it is.
pub async fn enqueue(
    repo: &dyn DocumentJobRepository,
    quotas: Option<&DocumentBounds>,
    job: &NewDocumentJob,
) -> Result<(), EstimationError> {
    let unexpected = |e: StoreError| EstimationError::Unexpected(anyhow::anyhow!(e));
    let Some((quotas, defaults)) = quotas else {
        return repo.enqueue(job).await.map_err(unexpected);
    };
    let limits = quotas
        .overrides(job.account_id)
        .await
        .map_err(unexpected)?
        .apply(defaults);
    match quotas
        .enqueue_within(job, &limits.bounds(&[(Quota::PendingDocuments, 1)]))
        .await
    {
        Ok(()) => Ok(()),
        Err(BoundedWriteError::Exceeded(e)) => Err(EstimationError::Quota(e)),
        Err(BoundedWriteError::Store(e)) => Err(unexpected(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document_job::{DocumentJobId, MockDocumentJobRepository};
    use time::macros::datetime;
    use tonne_kernel::{EstimateId, Usage};

    fn job() -> NewDocumentJob {
        NewDocumentJob {
            id: DocumentJobId::from_uuid(uuid::Uuid::from_u128(1)),
            account_id: AccountId::from_uuid(uuid::Uuid::from_u128(7)),
            estimate_id: EstimateId::from_uuid(uuid::Uuid::from_u128(2)),
            body: "{}".into(),
            tolerance: "0.1".into(),
            correlation_id: None,
            created_at: datetime!(2026-11-28 12:00 UTC),
        }
    }

    /// A port whose store has `pending` jobs queued for the account.
    fn quotas(overridden: Option<u64>, pending: u64) -> MockDocumentQuotas {
        let mut q = MockDocumentQuotas::new();
        q.expect_overrides().returning(move |_| {
            let mut o = LimitOverrides::default();
            o.set(Quota::PendingDocuments, overridden);
            Ok(o)
        });
        q.expect_enqueue_within()
            .withf(|_, b| b.demands == [(Quota::PendingDocuments, 1)])
            .returning(move |_, b| {
                let mut usage = Usage::default();
                usage.set(Quota::PendingDocuments, pending);
                b.admit(&usage).map_err(BoundedWriteError::Exceeded)
            });
        q
    }

    fn never_enqueued() -> MockDocumentJobRepository {
        let mut repo = MockDocumentJobRepository::new();
        repo.expect_enqueue().never();
        repo
    }

    #[tokio::test]
    async fn a_document_is_queued_below_the_default_and_refused_at_it() {
        let max = Limits::DEFAULT.pending_documents;
        let bounds: DocumentBounds = (Arc::new(quotas(None, max - 1)), Limits::DEFAULT);
        enqueue(&never_enqueued(), Some(&bounds), &job())
            .await
            .unwrap();
        let bounds: DocumentBounds = (Arc::new(quotas(None, max)), Limits::DEFAULT);
        let Err(EstimationError::Quota(e)) =
            enqueue(&never_enqueued(), Some(&bounds), &job()).await
        else {
            panic!("expected the bound");
        };
        assert_eq!(
            (e.limit, e.max, e.used),
            (Quota::PendingDocuments, max, max)
        );
    }

    #[tokio::test]
    async fn the_organisations_limit_replaces_the_default() {
        let bounds: DocumentBounds = (Arc::new(quotas(Some(1), 1)), Limits::DEFAULT);
        assert!(matches!(
            enqueue(&never_enqueued(), Some(&bounds), &job()).await,
            Err(EstimationError::Quota(e)) if e.max == 1
        ));
    }

    #[tokio::test]
    async fn without_a_quota_port_the_job_is_queued_as_it_is() {
        let mut repo = MockDocumentJobRepository::new();
        repo.expect_enqueue().times(1).returning(|_| Ok(()));
        enqueue(&repo, None, &job()).await.unwrap();
    }
}
