//! `GET /v1/offset-links`: the acting account's offset links, newest first.

use actix_web::{HttpResponse, web};

use super::logo::account_logo;
use super::wire::{PaginatedOffsetLinks, link_body};
use crate::error::ApiError;
use crate::extract::{Authenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{InvalidParameter, KeyErrors};

/// The acting account's offset links, newest first.
#[utoipa::path(get, path = "/v1/offset-links", tag = "Offset links", operation_id = "listOffsetLinks",
    security(("BearerAuth" = [])), params(PageQuery),
    responses((status = 200, description = "OK", body = PaginatedOffsetLinks), InvalidParameter, KeyErrors))]
pub async fn list(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state.links.list(who.account_id(), query.page()?).await?;
    let logo = account_logo(&state, &who).await?;
    Ok(PaginatedOffsetLinks::answer(
        &page,
        |d| d.link.id.to_string(),
        |d| link_body(&state, d, logo.clone()),
    ))
}
