//! The acting account's logo, which a link shows when it says `use_logo`, and
//! the answer of a route on one link, which shows it.

use actix_web::HttpResponse;
use tonne_links::LinkDetails;

use super::wire::link_body;
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;

pub(super) async fn account_logo(
    state: &AppState,
    who: &Authenticated,
) -> Result<Option<String>, ApiError> {
    Ok(state.accounts.me(&who.0).await?.logo)
}

/// The link as the contract answers it, with the acting account's logo.
pub(super) async fn link_answer(
    state: &AppState,
    who: &Authenticated,
    details: &LinkDetails,
) -> Result<HttpResponse, ApiError> {
    let logo = account_logo(state, who).await?;
    Ok(HttpResponse::Ok().json(link_body(state, details, logo)))
}
