//! `PUT /v1/webhooks/{id}/rotate-secret`: a new signing secret, answered whole.

use actix_web::{HttpResponse, web};
use tonne_kernel::Actor;

use super::owner::owner;
use super::wire::{WebhookFullSecretResponse, full};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// A new secret, shown whole; the old one signs nothing from now on.
#[utoipa::path(put, path = "/v1/webhooks/{id}/rotate-secret", tag = "Webhooks", operation_id = "rotateWebhookSecret",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The webhook's id")),
    responses(
        (status = 200, description = "OK", body = WebhookFullSecretResponse),
        (status = 404, description = "No webhook of this organisation and mode has this id", body = ErrorsResponse),
        KeyErrors,
    ))]
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
