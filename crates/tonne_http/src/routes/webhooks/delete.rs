//! `DELETE /v1/webhooks/{id}`: removes a webhook.

use actix_web::{HttpResponse, web};
use tonne_kernel::Actor;

use super::owner::owner;
use super::wire::NoSuchWebhook;
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::KeyErrors;

/// Deletes a webhook: nothing is sent to it from now on.
#[utoipa::path(delete, path = "/v1/webhooks/{id}", tag = "Webhooks", operation_id = "deleteWebhook",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 200, description = "OK (empty body)"), NoSuchWebhook, KeyErrors))]
pub async fn delete(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let by = Actor::ApiKey(who.0.key_id);
    state.webhooks.delete(owner(&who.0)?, &id, &by).await?;
    Ok(HttpResponse::Ok().finish())
}
