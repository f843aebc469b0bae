//! `GET /v1/shipments/{id}`.

use actix_web::{HttpResponse, web};
use tonne_shipments::ShipmentId;
use tonne_wire::shipments::ShipmentResponse;
use tonne_wire::shipments::render::render;

use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// A shipment with its legs as sent and, once calculated, its emissions.
#[utoipa::path(get, path = "/v1/shipments/{id}", tag = "Shipments", operation_id = "getShipment",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The shipment's id (Tonne's, not the client's shipment_id)")),
    responses(
        (status = 200, description = "OK", body = ShipmentResponse),
        (status = 404, description = "No shipment of this account has this id", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn get_shipment(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id: ShipmentId = id
        .parse()
        .map_err(|_| ApiError::not_found("id: no shipment has this id"))?;
    let shipment = state.shipments.shipment(who.account_id(), id).await?;
    Ok(HttpResponse::Ok().json(render(&shipment)))
}
