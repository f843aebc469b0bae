//! `GET`/`PUT /v1/lune-pay/origins`: the origins the acting account's Lune
//! Pay page may send buyers back to (a Tonne extension; a `redirect_url` on
//! any other origin is refused on the page, so the page is never an open
//! redirect). Act as a client account with `Lune-Account` to set its list.

use actix_web::{HttpResponse, web};

use super::wire::{PayOriginsRequest, PayOriginsResponse};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// The acting account's allowed return origins.
#[utoipa::path(get, path = "/v1/lune-pay/origins", tag = "Payments", operation_id = "getLunePayOrigins",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = PayOriginsResponse), KeyErrors))]
pub async fn get(state: web::Data<AppState>, who: Authenticated) -> Result<HttpResponse, ApiError> {
    let origins = state.links.pay_origins(who.account_id()).await?;
    Ok(HttpResponse::Ok().json(PayOriginsResponse { origins }))
}

/// Replaces the acting account's allowed return origins.
#[utoipa::path(put, path = "/v1/lune-pay/origins", tag = "Payments", operation_id = "putLunePayOrigins",
    security(("BearerAuth" = [])), request_body = PayOriginsRequest,
    responses((status = 200, description = "OK", body = PayOriginsResponse), (status = 400, description = "An origin is not https://host[:port], or more than 20", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn put(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<PayOriginsRequest>,
) -> Result<HttpResponse, ApiError> {
    let origins = state
        .links
        .set_pay_origins(who.account_id(), body.0.origins)
        .await?;
    Ok(HttpResponse::Ok().json(PayOriginsResponse { origins }))
}
