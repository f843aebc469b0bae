//! A calculation's job step: the next chunk of the shipments it selects, by
//! id after its progress, recalculated and saved with the progress in one
//! transaction (only while the job's lease holds), so that memory stays
//! bounded, a step is short and a restart resumes.

use tonne_kernel::{JobClaim, Step, StoreError};

use super::{CHUNK, Shipments};
use crate::calculate;
use crate::emissions::ShipmentEmissions;
use crate::ids::CalculationId;

pub(super) async fn step(s: &Shipments, job: &JobClaim) -> Result<Step, StoreError> {
    let id = job.parsed_subject::<CalculationId>()?;
    let Some(claim) = s.repo.open_calculation(&job.lease, id).await? else {
        return Ok(Step::Done);
    };
    let rows = s.repo.calculation_rows(&claim, CHUNK).await?;
    let Some(last) = rows.last().map(|r| r.id) else {
        s.repo.finish_calculation(&claim).await?;
        return Ok(Step::Done);
    };
    let results = rows
        .iter()
        .map(|r| (r.id, recalculate(s, &r.row)))
        .collect();
    s.repo
        .save_calculated(&claim, results, last, s.clock.now() + s.lease)
        .await?;
    if rows.len() < usize::try_from(CHUNK).unwrap_or(usize::MAX) {
        s.repo.finish_calculation(&claim).await?;
        return Ok(Step::Done);
    }
    Ok(Step::More)
}

/// The job was given up: the calculation ends where it got to.
pub(super) async fn give_up(s: &Shipments, job: &JobClaim) -> Result<(), StoreError> {
    let id = job.parsed_subject::<CalculationId>()?;
    match s.repo.open_calculation(&job.lease, id).await? {
        Some(claim) => s.repo.finish_calculation(&claim).await,
        None => Ok(()),
    }
}

/// A stored row's emissions now (`None` if it no longer calculates, e.g.
/// after a factor was withdrawn).
fn recalculate(s: &Shipments, row: &str) -> Option<ShipmentEmissions> {
    let mut draft = s.decoder.decode(row).ok()?;
    draft.check().ok()?;
    calculate::emissions(&draft).ok()
}
