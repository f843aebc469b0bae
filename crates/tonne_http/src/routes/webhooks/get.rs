//! `GET /v1/webhooks/{id}`: one webhook, its secret masked.

use actix_web::{HttpResponse, web};

use super::owner::owner;
use super::wire::{NoSuchWebhook, WebhookResponse, body};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::KeyErrors;

/// One webhook (the secret's last 4 characters).
#[utoipa::path(get, path = "/v1/webhooks/{id}", tag = "Webhooks", operation_id = "getWebhook",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 200, description = "OK", body = WebhookResponse), NoSuchWebhook, KeyErrors))]
pub async fn get(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let webhook = state.webhooks.get(owner(&who.0)?, &id).await?;
    Ok(HttpResponse::Ok().json(body(&webhook)))
}
