//! `GET /v1/shipments/batches/{id}`.

use actix_web::{HttpResponse, web};
use tonne_shipments::ShipmentBatchId;

use super::wire::ShipmentBatchResponse;
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// A batch's state; once processed, every row's outcome in upload order (or
/// the batch error that kept its rows from being processed).
#[utoipa::path(get, path = "/v1/shipments/batches/{id}", tag = "Shipments", operation_id = "getShipmentBatch",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The batch's id")),
    responses(
        (status = 200, description = "OK", body = ShipmentBatchResponse),
        (status = 404, description = "No batch of this account has this id", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn get_shipment_batch(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id: ShipmentBatchId = id
        .parse()
        .map_err(|_| ApiError::not_found("id: no shipment batch has this id"))?;
    let batch = state.shipments.batch(who.account_id(), id).await?;
    Ok(HttpResponse::Ok().json(ShipmentBatchResponse::of(&batch)))
}
