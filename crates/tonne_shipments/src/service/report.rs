//! The report's walk: a page of shipments at a time, each decoded once more
//! to name its legs' modes and hubs.

use tonne_kernel::AccountId;

use super::Shipments;
use crate::batch::ShipmentFilter;
use crate::errors::ReadError;
use crate::ids::ShipmentId;
use crate::ports::{REPORT_PAGE, ReportPage};
use crate::report::report_lines;

pub(super) async fn page(
    s: &Shipments,
    account: AccountId,
    filter: &ShipmentFilter,
    after: Option<ShipmentId>,
) -> Result<ReportPage, ReadError> {
    let shipments = s
        .repo
        .shipments_after(account, filter, after, REPORT_PAGE + 1)
        .await?;
    let page_size = usize::try_from(REPORT_PAGE).unwrap_or(usize::MAX);
    let more = shipments.len() > page_size;
    let mut lines = Vec::with_capacity(shipments.len() * 3);
    let mut last = None;
    for shipment in shipments.iter().take(page_size) {
        // a stored row decoded when it was stored; should it no longer
        // (a vocabulary retired since), its figures stand as one line
        let draft = s.decoder.decode(&shipment.row).ok();
        lines.extend(report_lines(shipment, draft.as_ref()));
        last = Some(shipment.id);
    }
    Ok(ReportPage {
        lines,
        next: if more { last } else { None },
    })
}
