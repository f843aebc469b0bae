//! `PUT /v1/offset-links/{id}`: changes an offset link.

use actix_web::{HttpResponse, web};
use tonne_links::{LinkChanges, LinkStatus};

use super::logo::link_answer;
use super::wire::{
    NameTaken, NoSuchLink, OffsetLinkResponse, OffsetLinkStatus, OffsetLinkUpdateRequest, timestamp,
};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Changes an offset link (absent optional fields keep their value).
#[utoipa::path(put, path = "/v1/offset-links/{id}", tag = "Offset links", operation_id = "updateOffsetLink",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The offset link's id")), request_body = OffsetLinkUpdateRequest,
    responses((status = 200, description = "OK", body = OffsetLinkResponse), (status = 400, description = "Invalid body (including a changed require_payment)", body = ErrorsResponse), NoSuchLink, NameTaken, KeyErrors, BodyErrors))]
pub async fn update(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<OffsetLinkUpdateRequest>,
) -> Result<HttpResponse, ApiError> {
    let b = body.0;
    let changes = LinkChanges {
        name: b.name,
        title: b.title,
        description: b.description,
        bundles: b.bundles,
        value: b.value,
        emails: b.emails,
        expires_at: timestamp("expires_at", b.expires_at)?,
        use_logo: b.use_logo,
        require_payment: b.require_payment,
        status: b.status.map(|s| match s {
            OffsetLinkStatus::Enabled => LinkStatus::Enabled,
            OffsetLinkStatus::Disabled => LinkStatus::Disabled,
        }),
        // not in the contract: an update over the API keeps the link's limits
        limits: None,
    };
    let details = state.links.update(who.account_id(), &id, changes).await?;
    link_answer(&state, &who, &details).await
}
