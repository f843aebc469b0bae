//! `GET /v1/accounts/me` and `GET /v1/accounts/client/me`: the account the key acts as.

use actix_web::{HttpResponse, web};
use tonne_accounts::AccountScope;
use utoipa::IntoResponses;

use super::responses::{AnyAccountResponse, ClientAccountResponse, account_body, client_body};
use crate::error::ApiError;
use crate::extract::Authenticated;
use crate::state::AppState;
use crate::wire::{ErrorsResponse, KeyErrors};

/// 403 of reading the account a key acts as.
#[derive(IntoResponses)]
pub enum ActingAsForbidden {
    /// Lune-Account names an account this key may not act as
    #[response(status = 403)]
    Forbidden(ErrorsResponse),
}

/// The account the key acts as.
#[utoipa::path(get, path = "/v1/accounts/me", tag = "Accounts", operation_id = "getAccount",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = AnyAccountResponse), ActingAsForbidden, KeyErrors))]
pub async fn me(state: web::Data<AppState>, who: Authenticated) -> Result<HttpResponse, ApiError> {
    let account = state.accounts.me(&who.0).await?;
    let body = match account.scope {
        AccountScope::Account => AnyAccountResponse::Account(account_body(&account)),
        AccountScope::ClientAccount => AnyAccountResponse::Client(client_body(&account)),
    };
    Ok(HttpResponse::Ok().json(body))
}

/// The client account the key acts as.
#[utoipa::path(get, path = "/v1/accounts/client/me", tag = "Client accounts", operation_id = "getClientAccount",
    security(("BearerAuth" = [])),
    responses((status = 200, description = "OK", body = ClientAccountResponse), (status = 400, description = "The key does not act as a client account (account_scope_incorrect)", body = ErrorsResponse), ActingAsForbidden, KeyErrors))]
pub async fn client_me(
    state: web::Data<AppState>,
    who: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let account = state.accounts.client_me(&who.0).await?;
    Ok(HttpResponse::Ok().json(client_body(&account)))
}
