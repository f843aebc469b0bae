//! `DELETE /v1/accounts/{id}/logo` and `DELETE /v1/accounts/client/{id}/logo`
//! (client 3.9.2's `deleteAccountLogo` and `deleteClientAccountLogo`): the
//! account has no logo afterwards and the old logo URL answers 404. The
//! answer is the contract's `UploadLogoResponse` without its (optional) `url`:
//! `{}`. A second delete answers the same and writes nothing. The access
//! rules are the upload's: another organisation's or mode's account, or an
//! unknown id, is 404 `not_found`; the other kind of account is 400
//! `id_invalid`; a key acting as a client account is 403.

use actix_web::{HttpResponse, web};
use tonne_accounts::AccountScope;

use super::logos::UploadLogoResponse;
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ClientKeyForbidden, ErrorsResponse, KeyErrors};

async fn delete(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    scope: AccountScope,
) -> Result<HttpResponse, ApiError> {
    state.accounts.delete_logo(&who.0, scope, &id).await?;
    Ok(HttpResponse::Ok().json(UploadLogoResponse { url: None }))
}

/// Removes an account's logo.
#[utoipa::path(delete, path = "/v1/accounts/{id}/logo", tag = "Accounts", operation_id = "deleteAccountLogo",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The account's id")),
    responses((status = 200, description = "The account has no logo (also when it had none): `{}`", body = UploadLogoResponse), (status = 400, description = "An id of a client account (id_invalid)", body = ErrorsResponse), (status = 404, description = "No account of the caller's organisation and mode has this id", body = ErrorsResponse), ClientKeyForbidden, KeyErrors))]
pub async fn account_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    delete(state, who, id, AccountScope::Account).await
}

/// Removes a client account's logo.
#[utoipa::path(delete, path = "/v1/accounts/client/{id}/logo", tag = "Client accounts", operation_id = "deleteClientAccountLogo",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The client account's id")),
    responses((status = 200, description = "The client account has no logo (also when it had none): `{}`", body = UploadLogoResponse), (status = 400, description = "An id of a regular account (id_invalid)", body = ErrorsResponse), (status = 404, description = "No client account of the caller's organisation and mode has this id", body = ErrorsResponse), ClientKeyForbidden, KeyErrors))]
pub async fn client_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    delete(state, who, id, AccountScope::ClientAccount).await
}
