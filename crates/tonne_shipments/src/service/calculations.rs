//! Calculations: queued for the shipments a filter selects (at most
//! [`MAX_CALCULATION`]), then walked by the worker in chunks of ids, each
//! chunk's emissions saved with the calculation's progress in one
//! transaction, so that memory stays bounded and a restart resumes.

use tonne_kernel::{AccountId, StoreError};

use super::{CHUNK, Shipments};
use crate::batch::{MAX_CALCULATION, NewCalculation, ShipmentFilter};
use crate::calculate;
use crate::emissions::ShipmentEmissions;
use crate::errors::CalculateError;
use crate::ids::CalculationId;
use crate::ports::Worked;

pub(super) async fn queue(
    s: &Shipments,
    account: AccountId,
    filter: ShipmentFilter,
) -> Result<Vec<CalculationId>, CalculateError> {
    let n = s.repo.count(account, &filter, MAX_CALCULATION).await?;
    if n > MAX_CALCULATION {
        return Err(CalculateError::TooMany {
            max: MAX_CALCULATION,
        });
    }
    let id = CalculationId::generate(s.ids.as_ref());
    s.repo
        .insert_calculation(&NewCalculation {
            id,
            account_id: account,
            filter,
            created_at: s.clock.now(),
        })
        .await?;
    Ok(vec![id])
}

pub(super) async fn step(s: &Shipments, worker: &str) -> Result<Worked, StoreError> {
    let now = s.clock.now();
    let Some(mut claim) = s.repo.claim_calculation(worker, now, now + s.lease).await? else {
        return Ok(Worked::Idle);
    };
    loop {
        let rows = s.repo.calculation_rows(&claim, CHUNK).await?;
        let Some(last) = rows.last().map(|r| r.id) else {
            break;
        };
        let results = rows
            .iter()
            .map(|r| (r.id, recalculate(s, &r.row)))
            .collect();
        match s
            .repo
            .save_calculated(&claim, results, last, s.clock.now() + s.lease)
            .await
        {
            Ok(()) => claim.after = Some(last),
            Err(StoreError::NotFound) => return Ok(Worked::Progress),
            Err(e) => return Err(e),
        }
    }
    s.repo.finish_calculation(&claim).await?;
    Ok(Worked::Progress)
}

/// A stored row's emissions now (`None` if it no longer calculates, e.g.
/// after a factor was withdrawn).
fn recalculate(s: &Shipments, row: &str) -> Option<ShipmentEmissions> {
    let mut draft = s.decoder.decode(row).ok()?;
    draft.check().ok()?;
    calculate::emissions(&draft).ok()
}
