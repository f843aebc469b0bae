//! `GET /v1/shipments/report` (a Tonne extension): the ISO 14083 report of
//! the account's shipments over a period, as CSV (streamed) or PDF.

use actix_web::{HttpRequest, HttpResponse, web};
use time::Date;

use super::wire::Query;
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::shipment_report::{
    PER_ACCOUNT, ReportHeading, Slot, csv_body, file_name, render, summary,
};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// The report's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Csv,
    Pdf,
}

/// `from`/`to`, or the list's `shipment_date_from`/`shipment_date_to`, not both.
fn period(query: &Query) -> Result<(Option<Date>, Option<Date>), ApiError> {
    let pick = |short: &str, long: &str| -> Result<Option<Date>, ApiError> {
        match (query.date(short)?, query.date(long)?) {
            (Some(_), Some(_)) => Err(ApiError::validation(
                short,
                format!("give {short} or {long}, not both"),
            )),
            (a, b) => Ok(a.or(b)),
        }
    };
    let from = pick("from", "shipment_date_from")?;
    let to = pick("to", "shipment_date_to")?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        return Err(ApiError::validation("from", "is later than to"));
    }
    Ok((from, to))
}

/// The ISO 14083 report of the shipments the filters select (the list's
/// filters; `from` and `to` bound the shipment date, inclusive): a line per
/// leg and the summary (totals WTW/WTT/TTW, by mode, carriage phase and hub
/// type, intensities, data shares, sources, fallbacks, exclusions) as CSV,
/// or the summary as a PDF to hand over.
#[utoipa::path(get, path = "/v1/shipments/report", tag = "Shipments", operation_id = "getShipmentReport",
    security(("BearerAuth" = [])),
    params(
        ("from" = Option<String>, Query, description = "First shipment date, YYYY-MM-DD, inclusive"),
        ("to" = Option<String>, Query, description = "Last shipment date, YYYY-MM-DD, inclusive"),
        ("format" = Option<String>, Query, description = "csv (default) or pdf"),
        ("search" = Option<String>, Query, description = "As listShipments"),
        ("main_carriage_mot" = Option<Vec<String>>, Query, description = "As listShipments"),
        ("pre_carriage_mot" = Option<Vec<String>>, Query, description = "As listShipments"),
        ("post_carriage_mot" = Option<Vec<String>>, Query, description = "As listShipments"),
        ("supplier_id" = Option<Vec<String>>, Query, description = "As listShipments"),
        ("shipment_batch_id" = Option<Vec<String>>, Query, description = "As listShipments"),
        ("flagged" = Option<bool>, Query, description = "As listShipments"),
        ("emissions" = Option<String>, Query, description = "As listShipments")),
    responses((status = 200, description = "The report (text/csv, or application/pdf)", content_type = "text/csv"), (status = 400, description = "A filter, date or format is invalid (the message names it)", body = ErrorsResponse), KeyErrors))]
pub async fn shipment_report(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let query = Query::of(&req)?;
    let format = match query.one("format") {
        None | Some("csv") => Format::Csv,
        Some("pdf") => Format::Pdf,
        Some(other) => {
            return Err(ApiError::validation(
                "format",
                format!("'{other}' is not one of: csv, pdf"),
            ));
        }
    };
    let (from, to) = period(&query)?;
    let mut filter = query.filter_without_dates()?;
    filter.date_from = from;
    filter.date_to = to;
    let Some(slot) = Slot::take(who.account_id()) else {
        return Err(ApiError::new(
            actix_web::http::StatusCode::TOO_MANY_REQUESTS,
            crate::error::codes::RATE_LIMITED,
            format!("the account has {PER_ACCOUNT} reports being made; retry once one is done"),
        )
        .retry_after(5));
    };
    let file = file_name(from, to);
    match format {
        Format::Csv => Ok(HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header((
                "Content-Disposition",
                format!("attachment; filename=\"{file}.csv\""),
            ))
            .streaming(csv_body(
                state.shipments.clone(),
                who.account_id(),
                filter,
                slot,
            ))),
        Format::Pdf => {
            let sums = summary(state.shipments.clone(), who.account_id(), &filter).await?;
            let account = state.accounts.me(&who.0).await?;
            let heading = ReportHeading::new(account.name.as_str().to_owned(), from, to);
            let pdf = web::block(move || render(&heading, &sums))
                .await
                .map_err(|e| ApiError::internal(&anyhow::anyhow!(e).context("rendering a report")));
            drop(slot);
            let pdf = pdf?;
            Ok(HttpResponse::Ok()
                .content_type("application/pdf")
                .insert_header((
                    "Content-Disposition",
                    format!("inline; filename=\"{file}.pdf\""),
                ))
                .body(pdf))
        }
    }
}
