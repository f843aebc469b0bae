//! `GET /v1/offset-links/{id}`: one offset link of the acting account.

use actix_web::{HttpResponse, web};

use super::logo::link_answer;
use super::wire::{NoSuchLink, OffsetLinkResponse};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::KeyErrors;

/// One offset link of the acting account.
#[utoipa::path(get, path = "/v1/offset-links/{id}", tag = "Offset links", operation_id = "getOffsetLink",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The offset link's id")),
    responses((status = 200, description = "OK", body = OffsetLinkResponse), NoSuchLink, KeyErrors))]
pub async fn get(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let details = state.links.get(who.account_id(), &id).await?;
    link_answer(&state, &who, &details).await
}
