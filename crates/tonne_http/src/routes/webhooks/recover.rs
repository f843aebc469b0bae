//! `POST /v1/webhooks/{id}/recover`: re-sends the events since a time
//! (Tonne's extension).

use actix_web::{HttpResponse, web};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use tonne_kernel::Actor;

use super::owner::owner;
use super::wire::{NoSuchWebhook, RecoverWebhookRequest, WebhookRecoveryResponse};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBodyWithout415};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors, rfc3339};

/// Re-sends, in order per account, every event of the webhook's accounts since a
/// time (Tonne's extension, in the spirit of Svix's recover). The dispatcher
/// delivers them as usual (signed, retried); answers once they are queued.
#[utoipa::path(post, path = "/v1/webhooks/{id}/recover", tag = "Webhooks", operation_id = "recoverWebhook",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The webhook's id")), request_body = RecoverWebhookRequest,
    responses((status = 202, description = "Queued", body = WebhookRecoveryResponse), (status = 400, description = "since not RFC 3339 or in the future, or an account the webhook does not deliver for", body = ErrorsResponse), NoSuchWebhook, KeyErrors, BodyErrors))]
pub async fn recover(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBodyWithout415<RecoverWebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    let since = OffsetDateTime::parse(&body.0.since, &Rfc3339)
        .map_err(|e| ApiError::validation("since", format!("not an RFC 3339 time: {e}")))?;
    let account = body
        .0
        .account_id
        .as_deref()
        .map(|a| {
            a.parse::<tonne_kernel::AccountId>()
                .map_err(|_| ApiError::validation("account_id", "not an account id"))
        })
        .transpose()?;
    let done = state
        .webhooks
        .recover(
            owner(&who.0)?,
            &id,
            since,
            account,
            &Actor::ApiKey(who.0.key_id),
        )
        .await?;
    Ok(HttpResponse::Accepted().json(WebhookRecoveryResponse {
        webhook_id: id.into_inner(),
        since: rfc3339(since.to_offset(time::UtcOffset::UTC)),
        accounts: done.streams,
        events: done.events,
    }))
}
