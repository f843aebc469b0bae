//! `GET /v1/webhooks/{id}/attempts`: the delivery attempts (Tonne's extension).

use actix_web::{HttpResponse, web};

use super::owner::owner;
use super::wire::{NoSuchWebhook, PaginatedAttempts, attempt_body};
use crate::error::ApiError;
use crate::extract::{Authenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{InvalidParameter, KeyErrors};

/// The webhook's delivery attempts, most recent first (Tonne's extension).
#[utoipa::path(get, path = "/v1/webhooks/{id}/attempts", tag = "Webhooks", operation_id = "listWebhookAttempts",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The webhook's id"), PageQuery),
    responses((status = 200, description = "OK", body = PaginatedAttempts), InvalidParameter, NoSuchWebhook, KeyErrors))]
pub async fn attempts(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .webhooks
        .attempts(owner(&who.0)?, &id, query.page()?)
        .await?;
    Ok(PaginatedAttempts::answer(
        &page,
        |a| a.id.to_string(),
        attempt_body,
    ))
}
