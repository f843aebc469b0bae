//! `POST /v1/webhooks`: creates a webhook (its whole secret answered once).

use actix_web::{HttpResponse, web};
use tonne_kernel::Actor;
use tonne_webhooks::NewWebhook;

use super::owner::owner;
use super::wire::{CreateWebhookRequest, WebhookFullSecretResponse, full};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Registers a webhook; the answer is the only time (with rotation) the whole secret is shown.
#[utoipa::path(post, path = "/v1/webhooks", tag = "Webhooks", operation_id = "createWebhook",
    security(("BearerAuth" = [])), request_body = CreateWebhookRequest,
    responses((status = 200, description = "OK", body = WebhookFullSecretResponse), (status = 400, description = "Invalid URL or target, unknown or foreign account id, or webhook_limit_reached", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CreateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let owner = owner(&who.0)?;
    let body = body.0;
    let webhook = state
        .webhooks
        .create(
            owner,
            NewWebhook {
                url: body.url,
                account_ids: body.account_ids,
                event_types: body.event_types,
            },
            &Actor::ApiKey(who.0.key_id),
        )
        .await?;
    Ok(HttpResponse::Ok().json(full(&webhook)))
}
