//! Walking the report's pages: the CSV as a stream of chunks (a page of
//! shipments each, then the summary), and the summary alone for the PDF.
//!
//! The pages are read by a task of their own, one page ahead of their use
//! ([`Pages`]), and the CSV's pages are summed and written on the blocking
//! pool: the next page is read while this one is written out, on two cores.

use std::sync::Arc;

use actix_web::web::Bytes;
use futures_util::{Stream, StreamExt as _};
use tokio::sync::mpsc;
use tonne_kernel::AccountId;
use tonne_shipments::{ReadError, ReportPage, ReportSummary, ShipmentFilter, ShipmentsService};
use tonne_wire::shipments::report_csv;

use super::slots::Slot;

/// Pages read ahead of their use.
const AHEAD: usize = 1;

/// The report's pages in order, read by their own task one page ahead;
/// dropping this stops the reading (a client that went away).
struct Pages {
    rx: mpsc::Receiver<Result<ReportPage, ReadError>>,
    reader: tokio::task::JoinHandle<()>,
}

impl Pages {
    fn start(
        service: Arc<dyn ShipmentsService>,
        account: AccountId,
        filter: ShipmentFilter,
    ) -> Self {
        let (tx, rx) = mpsc::channel(AHEAD);
        let reader = tokio::spawn(async move {
            let mut after = None;
            loop {
                let page = service.report_page(account, &filter, after).await;
                let next = page.as_ref().ok().and_then(|p| p.next);
                if tx.send(page).await.is_err() {
                    return; // nobody reads on
                }
                match next {
                    Some(last) => after = Some(last),
                    None => return,
                }
            }
        });
        Self { rx, reader }
    }

    /// The next page; `None` after the last (or after a failure was handed out).
    async fn next(&mut self) -> Option<Result<ReportPage, ReadError>> {
        self.rx.recv().await
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Where the CSV's walk is.
enum Walk {
    /// More pages may come; the first when `first`.
    Pages {
        pages: Pages,
        summary: Box<ReportSummary>,
        first: bool,
    },
    /// Every page is written: the summary follows.
    Summary(Box<ReportSummary>),
    Done,
}

fn stopped(e: &ReadError) -> actix_web::Error {
    tracing::error!(error = %e, "a shipment report stopped midway");
    actix_web::error::ErrorServiceUnavailable("the report stopped midway")
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
    let start = Walk::Pages {
        pages: Pages::start(service, account, filter),
        summary: Box::default(),
        first: true,
    };
    futures_util::stream::unfold(start, |walk| async move {
        match walk {
            Walk::Done => None,
            Walk::Summary(summary) => {
                Some((Ok(Bytes::from(report_csv::summary(&summary))), Walk::Done))
            }
            Walk::Pages {
                mut pages,
                mut summary,
                first,
            } => match pages.next().await {
                Some(Ok(page)) => {
                    let more = page.next.is_some();
                    // summed and written on the blocking pool: the other core,
                    // while this thread's reader fetches the next page
                    let written = actix_web::web::block(move || {
                        for line in &page.lines {
                            summary.add(line);
                        }
                        let mut chunk = if first {
                            report_csv::header()
                        } else {
                            Vec::new()
                        };
                        chunk.extend(report_csv::lines(&page.lines));
                        (chunk, summary)
                    })
                    .await;
                    let Ok((chunk, summary)) = written else {
                        return Some((
                            Err(actix_web::error::ErrorServiceUnavailable(
                                "the report stopped midway",
                            )),
                            Walk::Done,
                        ));
                    };
                    let next = if more {
                        Walk::Pages {
                            pages,
                            summary,
                            first: false,
                        }
                    } else {
                        Walk::Summary(summary)
                    };
                    Some((Ok(Bytes::from(chunk)), next))
                }
                Some(Err(e)) => Some((Err(stopped(&e)), Walk::Done)),
                // the reader ended without a last page: it was stopped
                None => Some((
                    Err(actix_web::error::ErrorServiceUnavailable(
                        "the report stopped midway",
                    )),
                    Walk::Done,
                )),
            },
        }
    })
    // the report's place is held while the body is written out
    .map(move |chunk| {
        let _held = &slot;
        chunk
    })
}

/// The report's summary: every page walked (one read ahead), only the sums kept.
pub async fn summary(
    service: Arc<dyn ShipmentsService>,
    account: AccountId,
    filter: &ShipmentFilter,
) -> Result<ReportSummary, ReadError> {
    let mut summary = ReportSummary::default();
    let mut pages = Pages::start(service, account, filter.clone());
    while let Some(page) = pages.next().await {
        let page = page?;
        for line in &page.lines {
            summary.add(line);
        }
        if page.next.is_none() {
            break;
        }
    }
    Ok(summary)
}
