//! Walking the report's pages: the CSV as a stream of chunks (a page of
//! shipments each, then the summary), and the summary alone for the PDF.

use std::sync::Arc;

use actix_web::web::Bytes;
use futures_util::{Stream, StreamExt as _};
use tonne_kernel::AccountId;
use tonne_shipments::{ReadError, ReportSummary, ShipmentFilter, ShipmentId, ShipmentsService};
use tonne_wire::shipments::report_csv;

use super::slots::Slot;

/// Where the CSV's walk is.
enum Walk {
    /// The next page starts after this shipment (`None`: the first page).
    Page(Option<ShipmentId>, Box<ReportSummary>),
    /// Every page is written: the summary follows.
    Summary(Box<ReportSummary>),
    Done,
}

/// The report as CSV, streamed: the header with the first page's lines,
/// each further page's lines, then the summary's. A store failure midway
/// ends the stream with an error (the client sees the body cut short, the
/// log says why).
pub fn csv_body(
    service: Arc<dyn ShipmentsService>,
    account: AccountId,
    filter: ShipmentFilter,
    slot: Slot,
) -> impl Stream<Item = Result<Bytes, actix_web::Error>> {
    futures_util::stream::unfold(
        (Walk::Page(None, Box::default()), service, filter),
        move |(walk, service, filter)| async move {
            match walk {
                Walk::Done => None,
                Walk::Summary(summary) => Some((
                    Ok(Bytes::from(report_csv::summary(&summary))),
                    (Walk::Done, service, filter),
                )),
                Walk::Page(after, mut summary) => {
                    match service.report_page(account, &filter, after).await {
                        Ok(page) => {
                            for line in &page.lines {
                                summary.add(line);
                            }
                            let mut chunk = if after.is_none() {
                                report_csv::header()
                            } else {
                                Vec::new()
                            };
                            chunk.extend(report_csv::lines(&page.lines));
                            let next = match page.next {
                                Some(last) => Walk::Page(Some(last), summary),
                                None => Walk::Summary(summary),
                            };
                            Some((Ok(Bytes::from(chunk)), (next, service, filter)))
                        }
                        Err(e) => {
                            tracing::error!(error = %e, "a shipment report stopped midway");
                            Some((
                                Err(actix_web::error::ErrorServiceUnavailable(
                                    "the report stopped midway",
                                )),
                                (Walk::Done, service, filter),
                            ))
                        }
                    }
                }
            }
        },
    )
    // the report's place is held while the body is written out
    .map(move |chunk| {
        let _held = &slot;
        chunk
    })
}

/// The report's summary: every page walked, only the sums kept.
pub async fn summary(
    service: &dyn ShipmentsService,
    account: AccountId,
    filter: &ShipmentFilter,
) -> Result<ReportSummary, ReadError> {
    let mut summary = ReportSummary::default();
    let mut after = None;
    loop {
        let page = service.report_page(account, filter, after).await?;
        for line in &page.lines {
            summary.add(line);
        }
        match page.next {
            Some(last) => after = Some(last),
            None => return Ok(summary),
        }
    }
}
