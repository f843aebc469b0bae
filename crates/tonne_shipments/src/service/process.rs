//! A batch's job step: decode, check and (when asked) calculate the next
//! chunk of its rows and store the chunk's shipments with the rows' outcomes
//! in one transaction, only while the job's lease holds. A crash loses at
//! most the chunk in hand: its rows are still unprocessed when the lease
//! runs out and another worker (or this one, restarted) takes the job over.

use std::collections::HashMap;

use tonne_kernel::{JobClaim, Step, StoreError};

use super::{CHUNK, Shipments};
use crate::batch::{BatchClaim, PendingRow, RowDone};
use crate::calculate;
use crate::ids::{ShipmentBatchId, ShipmentId};
use crate::model::{Counterparty, NewShipment};

pub(super) async fn step(s: &Shipments, job: &JobClaim) -> Result<Step, StoreError> {
    let batch = job.parsed_subject::<ShipmentBatchId>()?;
    let Some(claim) = s.repo.open_batch(&job.lease, batch).await? else {
        return Ok(Step::Done);
    };
    let contact = match &claim.contact_id {
        None => None,
        Some(id) => match s.repo.counterparty(claim.account_id, id).await? {
            Some(c) => Some(c),
            None => {
                let error = format!("contact_id: no contact '{id}' on this account");
                s.repo.finish_batch(&claim, Some(error)).await?;
                return Ok(Step::Done);
            }
        },
    };
    let mut parties = Parties {
        contact,
        known: HashMap::new(),
    };
    let rows = s.repo.pending_rows(claim.batch_id, CHUNK).await?;
    let last = rows.len() < usize::try_from(CHUNK).unwrap_or(usize::MAX);
    if !rows.is_empty() {
        let mut done = Vec::with_capacity(rows.len());
        for row in rows {
            let outcome = process_row(s, &claim, &mut parties, &row).await?;
            done.push((row.row_index, outcome));
        }
        // `NotFound`: another worker took the batch over; it goes on from its rows
        s.repo
            .complete_rows(&claim, done, s.clock.now() + s.lease)
            .await?;
    }
    if !last {
        return Ok(Step::More);
    }
    s.repo.finish_batch(&claim, None).await?;
    Ok(Step::Done)
}

/// The job was given up: the batch ends processed with the error its
/// owner reads (the rows processed before keep their outcomes; the engine's
/// reason, which may name internals, is kept on the job for operators).
pub(super) async fn give_up(s: &Shipments, job: &JobClaim) -> Result<(), StoreError> {
    let batch = job.parsed_subject::<ShipmentBatchId>()?;
    let Some(claim) = s.repo.open_batch(&job.lease, batch).await? else {
        return Ok(());
    };
    let error = "processing stopped after repeated failures; rows processed before keep \
                 their results, the others were not processed"
        .to_owned();
    s.repo.finish_batch(&claim, Some(error)).await
}

/// The batch's counterparties: its contact, or each row's by internal id
/// (looked up once per batch step).
struct Parties {
    contact: Option<Counterparty>,
    known: HashMap<String, Counterparty>,
}

async fn process_row(
    s: &Shipments,
    claim: &BatchClaim,
    parties: &mut Parties,
    row: &PendingRow,
) -> Result<RowDone, StoreError> {
    let failed = |e: crate::errors::RowError| Ok(RowDone::Failed(e.to_string()));
    let mut draft = match s.decoder.decode(&row.row) {
        Ok(d) => d,
        Err(e) => return failed(e),
    };
    if let Err(e) = draft.check() {
        return failed(e);
    }
    // every row is calculated, so that one that cannot be fails now rather
    // than at its first calculation; the figures are kept only when asked
    let emissions = match calculate::emissions(&draft) {
        Ok(e) => e,
        Err(e) => return failed(e),
    };
    let keep = claim.calculate || emissions.source == crate::vocabulary::EmissionsSource::Manual;
    let counterparty = match (&parties.contact, &draft.target_internal_id) {
        (Some(c), _) => c.clone(),
        (None, Some(internal)) => match parties.known.get(internal) {
            Some(c) => c.clone(),
            None => {
                let c = s
                    .repo
                    .counterparty_by_internal_id(
                        claim.account_id,
                        internal,
                        draft.target_internal_name.clone(),
                    )
                    .await?;
                parties.known.insert(internal.clone(), c.clone());
                c
            }
        },
        (None, None) => {
            return failed(crate::errors::RowError::new(
                "target_internal_id",
                "is required when the batch names no contact_id",
            ));
        }
    };
    Ok(RowDone::Stored(Box::new(NewShipment {
        id: ShipmentId::generate(s.ids.as_ref()),
        account_id: claim.account_id,
        batch_id: claim.batch_id,
        counterparty,
        facets: draft.facets(),
        row: row.row.clone(),
        emissions: keep.then_some(emissions),
        created_at: s.clock.now(),
    })))
}
