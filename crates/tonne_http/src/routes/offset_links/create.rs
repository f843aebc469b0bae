//! `POST /v1/offset-links`: creates an offset link on the acting account.

use actix_web::{HttpResponse, web};
use tonne_links::{LimitsDraft, LinkDraft};

use super::logo::link_answer;
use super::wire::{NameTaken, OffsetLinkRequest, OffsetLinkResponse, timestamp};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ErrorsResponse, KeyErrors};

/// Creates an offset link on the acting account.
#[utoipa::path(post, path = "/v1/offset-links", tag = "Offset links", operation_id = "createOffsetLink",
    security(("BearerAuth" = [])), request_body = OffsetLinkRequest,
    responses((status = 200, description = "OK", body = OffsetLinkResponse), (status = 400, description = "Invalid body, bundle_id_invalid or offset_link_bundles_size_invalid", body = ErrorsResponse), NameTaken, KeyErrors, BodyErrors))]
pub async fn create(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<OffsetLinkRequest>,
) -> Result<HttpResponse, ApiError> {
    let b = body.0;
    let draft = LinkDraft {
        name: b.name,
        title: b.title,
        description: b.description,
        bundles: b.bundles,
        value: b.value,
        emails: b.emails,
        expires_at: timestamp("expires_at", b.expires_at)?,
        use_logo: b.use_logo,
        require_payment: b.require_payment.unwrap_or(false),
        // the contract has no limits: a link made over the API takes the
        // server's defaults; its owner changes them in the console
        limits: LimitsDraft::default(),
    };
    let details = state.links.create(who.account_id(), draft).await?;
    link_answer(&state, &who, &details).await
}
