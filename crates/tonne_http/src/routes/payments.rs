//! `GET /v1/payments/by-temporary-id/{temporary_id}` (client 3.9.2's
//! `getPaymentByTemporaryId`): Lune Pay's look-up of a payment by the
//! temporary id its checkout hands the buyer's browser for 15 minutes. Tonne
//! has no Lune Pay and issues no temporary ids (its hosted checkout shows its
//! own confirmation page; a payment provider plugs in behind the links'
//! `CardPayments` port), so every well-formed id is unknown: 404 `not_found`,
//! the answer the contract gives once an id has expired. An id that is not a
//! UUID is 400 `validation_error`. No key is needed (the contract lists no
//! security for the route); the answer says the same with or without one.

use actix_web::{HttpResponse, web};

use crate::error::ApiError;
use crate::wire::{ErrorsResponse, RateLimited};

/// A payment by its temporary id: never found on Tonne (docs/API.md, "Payments").
#[utoipa::path(get, path = "/v1/payments/by-temporary-id/{temporary_id}", tag = "Payments", operation_id = "getPaymentByTemporaryId",
    params(("temporary_id" = String, Path, description = "The payment's temporary id (a UUID)")),
    responses(
        (status = 400, description = "Not a UUID", body = ErrorsResponse),
        (status = 404, description = "No payment has this temporary id (Tonne issues none)", body = ErrorsResponse),
        RateLimited,
    ))]
pub async fn by_temporary_id(temporary_id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    if uuid::Uuid::try_parse(&temporary_id).is_err() {
        return Err(ApiError::validation("temporary_id", "must be a UUID"));
    }
    Err(ApiError::not_found(
        "no payment has this temporary id: Tonne issues none (orders are paid by invoice or on its hosted checkout)",
    ))
}

/// Registers the route (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/payments/by-temporary-id/{temporary_id}")
            .route(web::get().to(by_temporary_id)),
    );
}
