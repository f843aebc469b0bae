//! `GET /v1/offset-links/{id}`: one offset link of the acting account.

use actix_web::{HttpResponse, web};

use super::logo::account_logo;
use super::wire::{OffsetLinkResponse, link_body};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// One offset link of the acting account.
#[utoipa::path(get, path = "/v1/offset-links/{id}", tag = "Offset links", operation_id = "getOffsetLink",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The offset link's id")),
    responses(
        (status = 200, description = "OK", body = OffsetLinkResponse),
        (status = 404, description = "No link of the acting account has this id", body = ErrorsResponse),
        KeyErrors,
    ))]
pub async fn get(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let details = state.links.get(who.account_id(), &id).await?;
    let logo = account_logo(&state, &who).await?;
    Ok(HttpResponse::Ok().json(link_body(&state, &details, logo)))
}
