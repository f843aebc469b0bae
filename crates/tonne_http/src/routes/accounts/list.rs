//! `GET /v1/accounts` and `GET /v1/accounts/client`: the organisation's
//! accounts and client accounts, paginated, with a name filter.

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use tonne_accounts::{AccountScope, NameFilter};
use utoipa::{IntoParams, IntoResponses};

use super::responses::{
    PaginatedAccounts, PaginatedClientAccounts, account_body, client_summary_body,
};
use crate::error::ApiError;
use crate::extract::{Authenticated, PageQuery};
use crate::state::AppState;
use crate::wire::{ErrorsResponse, InvalidParameter, KeyErrors};

/// The name filter of the account lists.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NameQuery {
    /// case-insensitive substring of the name
    #[param(pattern = "^[a-zA-Z0-9_]{3,}$")]
    name: Option<String>,
}

/// 403 of the account lists.
#[derive(IntoResponses)]
pub enum ListForbidden {
    /// A client-account key may not list accounts
    #[response(status = 403)]
    Forbidden(ErrorsResponse),
}

impl NameQuery {
    /// The name filter, or 400.
    fn name(&self) -> Result<Option<NameFilter>, ApiError> {
        Ok(self.name.as_deref().map(NameFilter::parse).transpose()?)
    }
}

/// The organisation's accounts of the key's mode, oldest first.
#[utoipa::path(get, path = "/v1/accounts", tag = "Accounts", operation_id = "listAccounts",
    security(("BearerAuth" = [])), params(PageQuery, NameQuery),
    responses((status = 200, description = "OK", body = PaginatedAccounts), InvalidParameter, ListForbidden, KeyErrors))]
pub async fn list_accounts(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .accounts
        .list_accounts(&who.0, AccountScope::Account, query.name()?, page.page()?)
        .await?;
    Ok(PaginatedAccounts::answer(
        &page,
        |a| a.id.to_string(),
        account_body,
    ))
}

/// The organisation's client accounts of the key's mode, oldest first.
#[utoipa::path(get, path = "/v1/accounts/client", tag = "Client accounts", operation_id = "listClientAccounts",
    security(("BearerAuth" = [])), params(PageQuery, NameQuery),
    responses((status = 200, description = "OK", body = PaginatedClientAccounts), InvalidParameter, ListForbidden, KeyErrors))]
pub async fn list_clients(
    state: web::Data<AppState>,
    who: Authenticated,
    page: web::Query<PageQuery>,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .accounts
        .list_clients(&who.0, query.name()?, page.page()?)
        .await?;
    Ok(PaginatedClientAccounts::answer(
        &page,
        |(a, _)| a.id.to_string(),
        client_summary_body,
    ))
}
