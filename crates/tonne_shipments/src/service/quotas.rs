//! The bounds of an upload and of a calculation: which limits a write counts
//! against and by how much (an upload: one pending batch, its rows as stored
//! shipments and their bytes as sent; a calculation: one outstanding
//! calculation), under the organisation's limits where it has its own, else
//! the installation's defaults. Without a [`ShipmentQuotas`] port (tests,
//! tools) the writes are unbounded.

use tonne_kernel::{BoundedWriteError, Bounds, Limits, Quota};

use super::Shipments;
use crate::batch::{NewBatch, NewCalculation};
use crate::quotas::ShipmentQuotas;

/// The account's limits: the organisation's overrides over the defaults.
async fn limits(
    quotas: &dyn ShipmentQuotas,
    defaults: &Limits,
    account: tonne_kernel::AccountId,
) -> Result<Limits, BoundedWriteError> {
    Ok(quotas.overrides(account).await?.apply(defaults))
}

/// Bytes of the rows as sent.
fn bytes(rows: &[String]) -> u64 {
    rows.iter()
        .map(|r| u64::try_from(r.len()).unwrap_or(u64::MAX))
        .fold(0, u64::saturating_add)
}

/// What an upload counts against.
pub(super) fn batch_bounds(limits: &Limits, batch: &NewBatch) -> Bounds {
    limits.bounds(&[
        (Quota::PendingBatches, 1),
        (
            Quota::StoredShipments,
            u64::try_from(batch.rows.len()).unwrap_or(u64::MAX),
        ),
        (Quota::StoredBytes, bytes(&batch.rows)),
    ])
}

/// Stores an uploaded batch within the account's bounds.
pub(super) async fn insert_batch(s: &Shipments, batch: &NewBatch) -> Result<(), BoundedWriteError> {
    let Some((quotas, defaults)) = &s.quotas else {
        return Ok(s.repo.insert_batch(batch).await?);
    };
    let limits = limits(quotas.as_ref(), defaults, batch.account_id).await?;
    quotas
        .insert_batch_within(batch, &batch_bounds(&limits, batch))
        .await
}

/// Queues a calculation within the account's bounds.
pub(super) async fn insert_calculation(
    s: &Shipments,
    calculation: &NewCalculation,
) -> Result<(), BoundedWriteError> {
    let Some((quotas, defaults)) = &s.quotas else {
        return Ok(s.repo.insert_calculation(calculation).await?);
    };
    let limits = limits(quotas.as_ref(), defaults, calculation.account_id).await?;
    quotas
        .insert_calculation_within(
            calculation,
            &limits.bounds(&[(Quota::OutstandingCalculations, 1)]),
        )
        .await
}

#[cfg(test)]
mod tests;
