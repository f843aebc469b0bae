//! The bounds per account on shipments ([`tonne_kernel::Quota`]): the
//! driven port [`ShipmentQuotas`] that reads an organisation's own limits and
//! stores a batch or a calculation only within its bounds, the usage counted
//! in the write's own transaction (so that concurrent uploads of an account
//! cannot pass a bound), and the installation's defaults the use cases apply.

use async_trait::async_trait;
use tonne_kernel::{AccountId, BoundedWriteError, Bounds, LimitOverrides, StoreError};

use crate::batch::{NewBatch, NewCalculation};

/// Limits and usage of the account's shipments, and the bounded writes.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ShipmentQuotas: Send + Sync {
    /// The limits the account's organisation overrides.
    async fn overrides(&self, account: AccountId) -> Result<LimitOverrides, StoreError>;

    /// Stores the batch as [`crate::ShipmentRepository::insert_batch`] does,
    /// in one transaction that first counts the account's usage of the
    /// bounds' limits (one account's bounded writes wait for each other):
    /// `Exceeded` when the bounds do not admit it, nothing written.
    async fn insert_batch_within(
        &self,
        batch: &NewBatch,
        bounds: &Bounds,
    ) -> Result<(), BoundedWriteError>;

    /// Queues the calculation as
    /// [`crate::ShipmentRepository::insert_calculation`] does, within the
    /// bounds in the same way.
    async fn insert_calculation_within(
        &self,
        calculation: &NewCalculation,
        bounds: &Bounds,
    ) -> Result<(), BoundedWriteError>;
}
