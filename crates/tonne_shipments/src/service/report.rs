//! The report's walk: a page of shipments at a time, each as its report
//! lines.

use tonne_kernel::AccountId;

use super::Shipments;
use crate::batch::ShipmentFilter;
use crate::errors::ReadError;
use crate::ids::ShipmentId;
use crate::ports::{REPORT_PAGE, ReportPage};

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
        lines.extend(s.lines_of(shipment));
        last = Some(shipment.id);
    }
    Ok(ReportPage {
        lines,
        next: if more { last } else { None },
    })
}
