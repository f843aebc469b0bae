//! `POST /v1/accounts` (a live/test pair) and `POST /v1/accounts/client`.

use actix_web::{HttpResponse, web};

use super::requests::{CreateAccountRequest, new_account};
use super::responses::{AccountPairResponse, ClientAccountResponse, account_body, client_body};
use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody};
use crate::state::AppState;
use crate::wire::{BodyErrors, ClientKeyForbidden, ErrorsResponse, KeyErrors};

/// Creates a live/test pair linked by `sibling_id` (live key only).
#[utoipa::path(post, path = "/v1/accounts", tag = "Accounts", operation_id = "createAccountPair",
    security(("BearerAuth" = [])), request_body = CreateAccountRequest,
    responses((status = 200, description = "OK", body = AccountPairResponse), (status = 400, description = "Invalid body, or a handle taken (handle_not_unique)", body = ErrorsResponse), (status = 403, description = "A test key, or a key acting as a client account", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_pair(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CreateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    if body.0.idempotency_key.is_some() {
        // Only CreateClientAccountRequest has it; for a pair it is an unknown field.
        return Err(ApiError::validation(
            "idempotency_key",
            "unknown field: account pairs take no idempotency key",
        ));
    }
    let (live, test) = state
        .accounts
        .create_pair(&who.0, new_account(body.0)?)
        .await?;
    Ok(HttpResponse::Ok().json(AccountPairResponse {
        live: account_body(&live),
        test: account_body(&test),
    }))
}

/// Creates a client account in the key's mode.
#[utoipa::path(post, path = "/v1/accounts/client", tag = "Client accounts", operation_id = "createClientAccount",
    security(("BearerAuth" = [])), request_body = CreateAccountRequest,
    responses((status = 200, description = "OK", body = ClientAccountResponse), (status = 400, description = "Invalid body, or a handle taken (handle_not_unique)", body = ErrorsResponse), ClientKeyForbidden, (status = 409, description = "A client account was already created with this idempotency_key (account_idempotency_already_exists)", body = ErrorsResponse), KeyErrors, BodyErrors))]
pub async fn create_client(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CreateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let mut body = body.0;
    // The contract's CreateClientAccountRequest has no minLength on beneficiary: "" means none.
    body.beneficiary = body.beneficiary.filter(|b| !b.is_empty());
    let account = state
        .accounts
        .create_client(&who.0, new_account(body)?)
        .await?;
    Ok(HttpResponse::Ok().json(client_body(&account)))
}
