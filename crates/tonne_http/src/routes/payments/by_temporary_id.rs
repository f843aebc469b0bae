//! `GET /v1/payments/by-temporary-id/{temporary_id}`: the payment Lune Pay's
//! page made, by the temporary id it sent the buyer back with, for 15 minutes
//! from the payment; then (and for an id never issued) 404 `not_found`, the
//! contract's answer for an expired id. An id that is not a UUID is 400. No
//! key is needed (the contract lists no security for the route): the
//! temporary id is the capability, and the answer holds what the contract's
//! `Payment` holds — the order — and nothing else.

use actix_web::{HttpResponse, web};
use tonne_wire::OrderResponse;

use super::wire::PaymentResponse;
use crate::error::ApiError;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, RateLimited};

/// A payment by its temporary id.
#[utoipa::path(get, path = "/v1/payments/by-temporary-id/{temporary_id}", tag = "Payments", operation_id = "getPaymentByTemporaryId",
    params(("temporary_id" = uuid::Uuid, Path, description = "The payment's temporary id (a UUID)")),
    responses((status = 200, description = "OK", body = PaymentResponse), (status = 400, description = "Not a UUID", body = ErrorsResponse), (status = 404, description = "No payment has this temporary id, or it is older than 15 minutes", body = ErrorsResponse), RateLimited))]
pub async fn by_temporary_id(
    state: web::Data<AppState>,
    temporary_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let Ok(id) = uuid::Uuid::try_parse(&temporary_id) else {
        return Err(ApiError::validation("temporary_id", "must be a UUID"));
    };
    match state.links.payment(id).await {
        Ok(Some(order)) => Ok(HttpResponse::Ok().json(PaymentResponse {
            kind: "order",
            order: OrderResponse::from(&order).with_base(&state.pages.public_url),
        })),
        Ok(None) => Err(ApiError::not_found(
            "no payment has this temporary id, or it expired (temporary ids answer for 15 minutes)",
        )),
        Err(e) => Err(ApiError::internal(&anyhow::anyhow!(e))),
    }
}
