//! `POST /v1/shipments/calculate`.

use actix_web::{HttpRequest, HttpResponse, web};

use super::wire::{CalculationResponse, Query};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// Queues the calculation of the shipments the filters (in the query, as
/// for the list) select: at most 200,000, else 400.
/// An account has at most `max_outstanding_calculations` queued or running
/// (2 by default): past it 429 `account_limit_reached` with `Retry-After`,
/// nothing queued.
#[utoipa::path(post, path = "/v1/shipments/calculate", tag = "Shipments", operation_id = "calculateShipments",
    security(("BearerAuth" = [])),
    params(
        ("search" = Option<String>, Query, description = "As for GET /v1/shipments"),
        ("shipment_date_from" = Option<String>, Query, description = "YYYY-MM-DD, inclusive"),
        ("shipment_date_to" = Option<String>, Query, description = "YYYY-MM-DD, inclusive"),
        ("main_carriage_mot" = Option<Vec<String>>, Query, description = "Repeat the key"),
        ("pre_carriage_mot" = Option<Vec<String>>, Query, description = "Repeat the key"),
        ("post_carriage_mot" = Option<Vec<String>>, Query, description = "Repeat the key"),
        ("supplier_id" = Option<Vec<String>>, Query, description = "Counterparty ids"),
        ("shipper_id" = Option<Vec<String>>, Query, description = "Account ids"),
        ("shipment_batch_id" = Option<Vec<String>>, Query, description = "Batch ids"),
        ("data_sheet_id" = Option<Vec<String>>, Query, description = "Data sheet ids"),
        ("id" = Option<Vec<String>>, Query, description = "Shipment ids"),
        ("flagged" = Option<bool>, Query, description = "Flagged legs"),
        ("emissions" = Option<String>, Query, description = "all, with_co2e, without_co2e")),
    responses(
        (status = 200, description = "OK", body = CalculationResponse),
        (status = 400, description = "A filter is invalid, or the filters select more than 200,000 shipments", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn calculate_shipments(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let filter = Query::of(&req)?.filter()?;
    let ids = state.shipments.calculate(who.account_id(), filter).await?;
    Ok(HttpResponse::Ok().json(CalculationResponse {
        calculation_batch_ids: ids.iter().map(ToString::to_string).collect(),
    }))
}
