//! `PUT /v1/webhooks/{id}`: changes a webhook.

use actix_web::{HttpResponse, web};
use tonne_kernel::Actor;
use tonne_webhooks::WebhookChanges;

use super::owner::owner;
use super::wire::{NoSuchWebhook, UpdateWebhookRequest, WebhookResponse, body};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBodyWithout415};
use crate::state::AppState;
use crate::wire::{BodyTooLarge, ErrorsResponse, KeyErrors};

/// Changes URL, `enabled` and the account filter.
#[utoipa::path(put, path = "/v1/webhooks/{id}", tag = "Webhooks", operation_id = "updateWebhook",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The webhook's id")), request_body = UpdateWebhookRequest,
    responses((status = 200, description = "OK", body = WebhookResponse), (status = 400, description = "Invalid body", body = ErrorsResponse), NoSuchWebhook, KeyErrors, BodyTooLarge))]
pub async fn update(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBodyWithout415<UpdateWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let owner = owner(&who.0)?;
    let body = body.0;
    let webhook = state
        .webhooks
        .update(
            owner,
            &id,
            WebhookChanges {
                url: body.url,
                enabled: body.enabled,
                account_ids: body.account_ids,
                event_types: body.event_types,
            },
            &Actor::ApiKey(who.0.key_id),
        )
        .await?;
    Ok(HttpResponse::Ok().json(self::body(&webhook)))
}
