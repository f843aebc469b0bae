//! `DocumentJobStore` as the estimation domain's `DocumentQuotas`: a
//! transaction-document job queued only within the account's bound, its
//! queued and running jobs counted first in the queueing transaction
//! (`crate::quotas::admit`).

use async_trait::async_trait;
use tonne_estimation::document_jobs::NewDocumentJob;
use tonne_estimation::document_quotas::DocumentQuotas;
use tonne_kernel::{AccountId, BoundedWriteError, Bounds, LimitOverrides, StoreError};

use super::document_jobs::{DocumentJobStore, insert};
use crate::db::error::store_error;
use crate::quotas::{admit, overrides_of_account};

#[async_trait]
impl DocumentQuotas for DocumentJobStore {
    async fn overrides(&self, account: AccountId) -> Result<LimitOverrides, StoreError> {
        overrides_of_account(&self.db, account).await
    }

    async fn enqueue_within(
        &self,
        job: &NewDocumentJob,
        bounds: &Bounds,
    ) -> Result<(), BoundedWriteError> {
        let (job, bounds) = (job.clone(), bounds.clone());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    if let Err(e) = admit(conn, job.account_id, &bounds).await? {
                        return Ok(Err(e));
                    }
                    insert(conn, &job).await.map(Ok)
                })
            })
            .await
            .map_err(|e| store_error(e, "queueing a transaction document"))?
            .map_err(BoundedWriteError::Exceeded)
    }
}
