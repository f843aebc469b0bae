//! Reads: an account's calculated shipments with their report lines, a
//! page at a time (what PACT's footprints are made of), and one of them.

use tonne_kernel::AccountId;

use super::Shipments;
use crate::batch::{EmissionsFilter, ShipmentFilter};
use crate::errors::ReadError;
use crate::ids::ShipmentId;
use crate::model::Shipment;
use crate::ports::ShipmentLines;

fn with_lines(s: &Shipments, shipment: Shipment) -> ShipmentLines {
    let (legs, lines) = s.decoded(&shipment);
    ShipmentLines {
        shipment,
        lines,
        legs,
    }
}

pub(super) async fn calculated_after(
    s: &Shipments,
    account: AccountId,
    after: Option<ShipmentId>,
    limit: u32,
) -> Result<Vec<ShipmentLines>, ReadError> {
    let filter = ShipmentFilter {
        emissions: EmissionsFilter::WithCo2e,
        ..ShipmentFilter::default()
    };
    let shipments = s
        .repo
        .shipments_after(account, &filter, after, limit)
        .await?;
    Ok(shipments.into_iter().map(|x| with_lines(s, x)).collect())
}

pub(super) async fn shipment_lines(
    s: &Shipments,
    account: AccountId,
    id: ShipmentId,
) -> Result<ShipmentLines, ReadError> {
    let shipment = s
        .repo
        .shipment(account, id)
        .await?
        .ok_or(ReadError::NotFound)?;
    Ok(with_lines(s, shipment))
}
