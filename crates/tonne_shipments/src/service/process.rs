//! The batch worker's step: claim a waiting batch, then chunk by chunk decode,
//! check and (when asked) calculate its rows and store the chunk's shipments
//! with the rows' outcomes in one transaction. A crash loses at most the
//! chunk in hand: its rows are still unprocessed when the lease runs out and
//! another worker (or this one, restarted) takes the batch over.

use std::collections::HashMap;

use tonne_kernel::StoreError;

use super::{CHUNK, Shipments};
use crate::batch::{BatchClaim, PendingRow, RowDone};
use crate::calculate;
use crate::ids::ShipmentId;
use crate::model::{Counterparty, NewShipment};
use crate::ports::Worked;

pub(super) async fn step(s: &Shipments, worker: &str) -> Result<Worked, StoreError> {
    let now = s.clock.now();
    let Some(claim) = s.repo.claim_batch(worker, now, now + s.lease).await? else {
        return Ok(Worked::Idle);
    };
    let contact = match &claim.contact_id {
        None => None,
        Some(id) => match s.repo.counterparty(claim.account_id, id).await? {
            Some(c) => Some(c),
            None => {
                let error = format!("contact_id: no contact '{id}' on this account");
                s.repo.finish_batch(&claim, Some(error)).await?;
                return Ok(Worked::Progress);
            }
        },
    };
    let mut parties = Parties {
        contact,
        known: HashMap::new(),
    };
    loop {
        let rows = s.repo.pending_rows(claim.batch_id, CHUNK).await?;
        if rows.is_empty() {
            break;
        }
        let mut done = Vec::with_capacity(rows.len());
        for row in rows {
            let outcome = process_row(s, &claim, &mut parties, &row).await?;
            done.push((row.row_index, outcome));
        }
        match s
            .repo
            .complete_rows(&claim, done, s.clock.now() + s.lease)
            .await
        {
            Ok(()) => {}
            // another worker took the batch over: it goes on from its rows
            Err(StoreError::NotFound) => return Ok(Worked::Progress),
            Err(e) => return Err(e),
        }
    }
    s.repo.finish_batch(&claim, None).await?;
    Ok(Worked::Progress)
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
