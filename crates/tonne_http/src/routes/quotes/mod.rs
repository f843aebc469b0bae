//! `/v1/orders/by-mass/quote` and `/v1/orders/by-value/quote`: the order engine, storing nothing.

mod wire;
pub use wire::*;

use actix_web::{HttpResponse, web};

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{
    BodyErrors, InvalidRequest, KeyErrors, MassQuoteRequest, QuoteResponse, mass_request,
    quote_body, value_request,
};

/// Prices an order by mass without placing it.
#[utoipa::path(post, path = "/v1/orders/by-mass/quote", tag = "Orders", operation_id = "getOrderQuoteByMass",
    security(("BearerAuth" = [])), request_body = MassQuoteRequest,
    responses((status = 200, description = "OK", body = QuoteResponse), InvalidRequest, KeyErrors, BodyErrors))]
pub async fn quote_by_mass(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<MassQuoteRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = mass_request(body.0)?;
    let quote = state
        .ordering
        .quote_by_mass(who.account_id(), request)
        .await?;
    Ok(HttpResponse::Ok().json(quote_body(&quote)))
}

/// Prices an order by value without placing it.
#[utoipa::path(post, path = "/v1/orders/by-value/quote", tag = "Orders", operation_id = "getOrderQuoteByValue",
    security(("BearerAuth" = [])), request_body = ValueQuoteRequest,
    responses((status = 200, description = "OK", body = QuoteResponse), InvalidRequest, KeyErrors, BodyErrors))]
pub async fn quote_by_value(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ValueQuoteRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.0;
    let request = value_request(body.value, body.bundle_selection, body.quantity_trunc)?;
    let quote = state
        .ordering
        .quote_by_value(who.account_id(), request)
        .await?;
    Ok(HttpResponse::Ok().json(quote_body(&quote)))
}

/// Registers the quote routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/orders/by-mass/quote").route(web::post().to(quote_by_mass)))
        .service(web::resource("/orders/by-value/quote").route(web::post().to(quote_by_value)));
}
