//! `ShipmentStore` as the shipments domain's `ShipmentQuotas`: a batch or a
//! calculation written only within the account's bounds, counted first in
//! the write's own transaction (`crate::quotas::admit`).

use async_trait::async_trait;
use tonne_kernel::{AccountId, BoundedWriteError, Bounds, LimitOverrides, StoreError};
use tonne_shipments::{NewBatch, NewCalculation, ShipmentQuotas};

use super::{ShipmentStore, batches, jobs};
use crate::db::error::failed;
use crate::quotas::{admit, overrides_of_account};

#[async_trait]
impl ShipmentQuotas for ShipmentStore {
    async fn overrides(&self, account: AccountId) -> Result<LimitOverrides, StoreError> {
        overrides_of_account(&self.db, account).await
    }

    async fn insert_batch_within(
        &self,
        batch: &NewBatch,
        bounds: &Bounds,
    ) -> Result<(), BoundedWriteError> {
        let (batch, bounds) = (batch.clone(), bounds.clone());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    if let Err(e) = admit(conn, batch.account_id, &bounds).await? {
                        return Ok(Err(e));
                    }
                    batches::insert(conn, &batch).await.map(Ok)
                })
            })
            .await
            .map_err(failed("storing a shipment batch"))?
            .map_err(BoundedWriteError::Exceeded)
    }

    async fn insert_calculation_within(
        &self,
        calculation: &NewCalculation,
        bounds: &Bounds,
    ) -> Result<(), BoundedWriteError> {
        let (calculation, bounds) = (calculation.clone(), bounds.clone());
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    if let Err(e) = admit(conn, calculation.account_id, &bounds).await? {
                        return Ok(Err(e));
                    }
                    jobs::insert_calculation(conn, &calculation).await.map(Ok)
                })
            })
            .await
            .map_err(failed("queueing a shipment calculation"))?
            .map_err(BoundedWriteError::Exceeded)
    }
}
