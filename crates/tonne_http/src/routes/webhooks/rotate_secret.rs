//! `PUT /v1/webhooks/{id}/rotate-secret`: a new signing secret, answered whole.

use actix_web::{HttpResponse, web};
use tonne_kernel::Actor;

use super::owner::owner;
use super::wire::{NoSuchWebhook, WebhookFullSecretResponse, full};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::KeyErrors;

/// A new secret, shown whole; the old one signs nothing from now on.
#[utoipa::path(put, path = "/v1/webhooks/{id}/rotate-secret", tag = "Webhooks", operation_id = "rotateWebhookSecret",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 200, description = "OK", body = WebhookFullSecretResponse), NoSuchWebhook, KeyErrors))]
pub async fn rotate_secret(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let by = Actor::ApiKey(who.0.key_id);
    let webhook = state
        .webhooks
        .rotate_secret(owner(&who.0)?, &id, &by)
        .await?;
    Ok(HttpResponse::Ok().json(full(&webhook)))
}
