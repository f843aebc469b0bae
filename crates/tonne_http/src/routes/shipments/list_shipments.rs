//! `GET /v1/shipments`.

use actix_web::{HttpRequest, HttpResponse, web};
use tonne_shipments::ShipmentId;

use super::wire::{PaginatedShipmentsResponse, Query};
use crate::error::ApiError;
use crate::extract::{Authenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// The account's shipments the filters select, most recent first; with
/// `include_totals=true`, the filter's counts in `total`.
#[utoipa::path(get, path = "/v1/shipments", tag = "Shipments", operation_id = "listShipments",
    security(("BearerAuth" = [])),
    params(PageQuery,
        ("search" = Option<String>, Query, description = "Start of the client's shipment_id, or Tonne's id"),
        ("shipment_date_from" = Option<String>, Query, description = "YYYY-MM-DD, inclusive"),
        ("shipment_date_to" = Option<String>, Query, description = "YYYY-MM-DD, inclusive"),
        ("main_carriage_mot" = Option<Vec<String>>, Query, description = "road, sea, air, rail, inland_waterway; repeat the key"),
        ("pre_carriage_mot" = Option<Vec<String>>, Query, description = "As main_carriage_mot"),
        ("post_carriage_mot" = Option<Vec<String>>, Query, description = "As main_carriage_mot (on-carriage)"),
        ("supplier_id" = Option<Vec<String>>, Query, description = "Counterparty ids"),
        ("shipper_id" = Option<Vec<String>>, Query, description = "Account ids"),
        ("shipment_batch_id" = Option<Vec<String>>, Query, description = "Batch ids"),
        ("data_sheet_id" = Option<Vec<String>>, Query, description = "Data sheet ids"),
        ("id" = Option<Vec<String>>, Query, description = "Shipment ids"),
        ("flagged" = Option<bool>, Query, description = "Whether a leg's intensity is flagged"),
        ("emissions" = Option<String>, Query, description = "all, with_co2e, without_co2e"),
        ("include_totals" = Option<bool>, Query, description = "Answer the filter's counts in total")),
    responses(
        (status = 200, description = "OK", body = PaginatedShipmentsResponse),
        (status = 400, description = "A filter, limit or cursor is invalid (the message names it)", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn list_shipments(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let query = Query::of(&req)?;
    let page = query.page::<ShipmentId>()?;
    let filter = query.filter()?;
    let with_counts = query.flag("include_totals")?.unwrap_or(false);
    let list = state
        .shipments
        .shipments(who.account_id(), filter, page, with_counts)
        .await?;
    Ok(HttpResponse::Ok().json(PaginatedShipmentsResponse::of(&list.page, list.counts)))
}
