//! `GET /v1/webhooks`: the organisation's webhooks of the key's mode, with the
//! account filter.

use actix_web::{HttpRequest, HttpResponse, web};

use super::owner::owner;
use super::wire::{WebhookResponse, body};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// `?account_id=A&account_id=B` (also `account_id[]=`, and comma-separated values).
fn account_filter(req: &HttpRequest) -> Result<Vec<String>, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string())
        .map_err(|e| ApiError::validation("query", e))?;
    Ok(pairs
        .into_iter()
        .filter(|(k, _)| k == "account_id" || k == "account_id[]")
        .flat_map(|(_, v)| {
            v.split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect())
}

/// The organisation's webhooks of the key's mode, oldest first (an array, as the contract says).
#[utoipa::path(get, path = "/v1/webhooks", tag = "Webhooks", operation_id = "listAllWebhooks",
    security(("BearerAuth" = [])), params(("account_id" = Option<Vec<String>>, Query, description = "Only webhooks that push events for any of these accounts")),
    responses((status = 200, description = "OK", body = Vec<WebhookResponse>), (status = 400, description = "An account id of another organisation or mode", body = ErrorsResponse), KeyErrors))]
pub async fn list(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let owner = owner(&who.0)?;
    let filter = account_filter(&req)?;
    let webhooks = state.webhooks.list(owner, filter).await?;
    Ok(HttpResponse::Ok().json(webhooks.iter().map(body).collect::<Vec<_>>()))
}
