//! `POST /v1/WebhookRequest` (client 3.9.2's `webhookRequest`): in the
//! contract, a description of the request a webhook receiver gets. Tonne
//! serves it as a conformance check for receivers' fixtures: a body
//! `{"events": […]}` is checked against the contract's `WebhookEvent`
//! (`tonne_wire::webhook_request`) and answered `200 {}` when it holds, `400
//! validation_error` naming the first bad field otherwise. Nothing is read
//! or written. No key is needed (the contract lists no security for it); the
//! body limit and the rate limit (per key, else per address) apply.

use actix_web::{HttpResponse, web};
use serde_json::Value;

use crate::error::ApiError;
use crate::extract::JsonBodyWithout415;
use crate::wire::{BodyTooLarge, ErrorsResponse, RateLimited};

/// Checks a webhook request body against the contract's `WebhookRequest`.
#[utoipa::path(post, path = "/v1/WebhookRequest", tag = "Webhook request", operation_id = "webhookRequest",
    request_body(content = Object, description = "The contract's WebhookRequest: {\"events\": [WebhookEvent…]}, at most 100 events"),
    responses(
        (status = 200, description = "The body is a valid WebhookRequest: `{}`"),
        (status = 400, description = "A field is not what WebhookEvent says; the message names it", body = ErrorsResponse),
        BodyTooLarge,
        RateLimited,
    ))]
pub async fn check(body: JsonBodyWithout415<Value>) -> Result<HttpResponse, ApiError> {
    tonne_wire::webhook_request::check(&body.0)
        .map_err(|p| ApiError::validation(&p.field, p.message))?;
    Ok(HttpResponse::Ok().json(serde_json::json!({})))
}

/// Registers the route (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/WebhookRequest").route(web::post().to(check)));
}
