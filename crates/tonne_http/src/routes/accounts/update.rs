//! `PUT` and `PATCH` of `/v1/accounts/{id}` and `/v1/accounts/client/{id}`:
//! a full replacement or a partial update of an account or client account.

use actix_web::{HttpResponse, web};
use tonne_accounts::{AccountPatch, AccountScope};

use super::requests::{PartialUpdateAccountRequest, UpdateAccountRequest, patch, replacement};
use super::responses::{
    AccountResponse, ClientAccountResponse, NoSuchAccount, account_body, client_body,
};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ClientKeyForbidden, ErrorsResponse, KeyErrors};

/// Applies `patch` to the caller's account `id` of `scope`, answered in that
/// scope's shape.
async fn update(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    scope: AccountScope,
    patch: AccountPatch,
) -> Result<HttpResponse, ApiError> {
    let account = state
        .accounts
        .update_account(&who.0, scope, &id, patch)
        .await?;
    Ok(match scope {
        AccountScope::Account => HttpResponse::Ok().json(account_body(&account)),
        AccountScope::ClientAccount => HttpResponse::Ok().json(client_body(&account)),
    })
}

/// Updates an account; renaming a live account renames its test sibling.
#[utoipa::path(put, path = "/v1/accounts/{id}", tag = "Accounts", operation_id = "updateAccount",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The account's id")), request_body = UpdateAccountRequest,
    responses((status = 200, description = "OK", body = AccountResponse), (status = 400, description = "Invalid body, an id of another organisation, mode or kind (id_invalid), a test account rename, or a handle taken (handle_not_unique)", body = ErrorsResponse), NoSuchAccount, ClientKeyForbidden, KeyErrors, BodyErrors))]
pub async fn update_account(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<UpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    update(state, who, id, AccountScope::Account, replacement(body.0)?).await
}

/// Changes the fields sent; renaming a live account renames its test sibling.
#[utoipa::path(patch, path = "/v1/accounts/{id}", tag = "Accounts", operation_id = "partialUpdateAccount",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The account's id")), request_body = PartialUpdateAccountRequest,
    responses((status = 200, description = "OK", body = AccountResponse), (status = 400, description = "Invalid body (null where not allowed), an id of another organisation, mode or kind (id_invalid), a test account rename, or a handle taken (handle_not_unique)", body = ErrorsResponse), NoSuchAccount, ClientKeyForbidden, KeyErrors, BodyErrors))]
pub async fn patch_account(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<PartialUpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    update(state, who, id, AccountScope::Account, patch(body.0)?).await
}

/// Updates a client account.
#[utoipa::path(put, path = "/v1/accounts/client/{id}", tag = "Client accounts", operation_id = "updateClientAccount",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The client account's id")), request_body = UpdateAccountRequest,
    responses((status = 200, description = "OK", body = ClientAccountResponse), (status = 400, description = "Invalid body, an id of another organisation, mode or kind (id_invalid), or a handle taken (handle_not_unique)", body = ErrorsResponse), NoSuchAccount, ClientKeyForbidden, KeyErrors, BodyErrors))]
pub async fn update_client(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<UpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    update(
        state,
        who,
        id,
        AccountScope::ClientAccount,
        replacement(body.0)?,
    )
    .await
}

/// Changes the fields sent of a client account.
#[utoipa::path(patch, path = "/v1/accounts/client/{id}", tag = "Client accounts", operation_id = "partialUpdateClientAccount",
    security(("BearerAuth" = [])), params(("id" = String, Path, description = "The client account's id")), request_body = PartialUpdateAccountRequest,
    responses((status = 200, description = "OK", body = ClientAccountResponse), (status = 400, description = "Invalid body (null where not allowed), an id of another organisation, mode or kind (id_invalid), or a handle taken (handle_not_unique)", body = ErrorsResponse), NoSuchAccount, ClientKeyForbidden, KeyErrors, BodyErrors))]
pub async fn patch_client(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<PartialUpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    update(state, who, id, AccountScope::ClientAccount, patch(body.0)?).await
}
