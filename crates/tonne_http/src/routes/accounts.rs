//! `/v1/accounts` and `/v1/accounts/client`.

use actix_web::{HttpResponse, web};
use serde::{Deserialize, Serialize};
use tonne_accounts::{
    Account, AccountChanges, AccountName, AccountScope, Beneficiary, NewAccount, PortfolioId,
};
use tonne_kernel::{AccountMode, Currency};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::extract::{Authenticated, JsonBody, ListQuery};
use crate::state::AppState;
use crate::wire::{
    AccountType, BodyErrors, CurrencyCode, ErrorsDoc, KeyErrors, PageParams, paginated,
};

/// `scope` of a regular account.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountScopeTag {
    /// Always `account`.
    Account,
}

/// `scope` of a client account.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClientScopeTag {
    /// Always `client_account`.
    ClientAccount,
}

/// Fields common to accounts and client accounts.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountBase {
    /// The account's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its organisation.
    pub organisation_id: String,
    /// Its currency.
    pub currency: CurrencyCode,
    /// Cash balance, a decimal string in the account's currency.
    #[schema(pattern = r"^[0-9]+(\.[0-9]+)?$", example = "0.00")]
    pub balance: String,
    /// Sum of placed and unpaid orders (usually negative).
    #[schema(pattern = r"^-?[0-9]+(\.[0-9]+)?$", example = "0.00")]
    pub balance_outstanding: String,
    /// Live or test.
    #[serde(rename = "type")]
    pub account_type: AccountType,
    /// Logo URL.
    pub logo: Option<String>,
    /// Retirement beneficiary.
    pub beneficiary: Option<String>,
    /// Bundle portfolio.
    pub bundle_portfolio_id: Option<String>,
}

/// The contract's `Account`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountBody {
    #[serde(flatten)]
    base: AccountBase,
    scope: AccountScopeTag,
    /// The paired account of the other mode.
    sibling_id: String,
}

/// The contract's `ClientAccount`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientAccountBody {
    #[serde(flatten)]
    base: AccountBase,
    scope: ClientScopeTag,
}

/// `GET /accounts/me`: an `Account`, or a `ClientAccount` when acting as one.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AnyAccountBody {
    /// A regular account.
    Account(AccountBody),
    /// A client account.
    Client(ClientAccountBody),
}

/// The contract's `AccountPair`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountPairBody {
    live: AccountBody,
    test: AccountBody,
}

paginated! {
    /// The contract's `PaginatedAccounts`, with `next_cursor`.
    PaginatedAccounts of AccountBody
}

paginated! {
    /// The contract's `PaginatedClientAccounts`, with `next_cursor`.
    PaginatedClientAccounts of ClientAccountBody
}

/// The contract's `CreateAccountRequest` (and `CreateClientAccountRequest`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateAccountRequest {
    /// Account name (1–255 characters).
    name: String,
    /// Account currency.
    currency: CurrencyCode,
    /// Retirement beneficiary (1–255 characters; `""` on a client account means none).
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    #[schema(nullable = false)]
    beneficiary: Option<String>,
}

/// The contract's `UpdateAccountRequest`: a full replacement of the editable fields.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateAccountRequest {
    /// New name (a test account's must equal its current name).
    name: String,
    /// New beneficiary; absent clears it.
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    #[schema(nullable = false)]
    beneficiary: Option<String>,
    /// Bundle portfolio id; absent or `""` clears it.
    #[serde(default, deserialize_with = "crate::extract::non_null")]
    #[schema(nullable = false)]
    bundle_portfolio_id: Option<String>,
}

fn currency_code(c: Currency) -> CurrencyCode {
    match c {
        Currency::Gbp => CurrencyCode::Gbp,
        Currency::Eur => CurrencyCode::Eur,
        Currency::Usd => CurrencyCode::Usd,
        Currency::Sek => CurrencyCode::Sek,
        Currency::Chf => CurrencyCode::Chf,
        Currency::Pln => CurrencyCode::Pln,
        Currency::Dkk => CurrencyCode::Dkk,
        Currency::Nok => CurrencyCode::Nok,
    }
}

fn base(a: &Account) -> AccountBase {
    AccountBase {
        id: a.id.to_string(),
        name: a.name.as_str().to_owned(),
        organisation_id: a.organisation_id.to_string(),
        currency: currency_code(a.currency),
        balance: a.balance.to_decimal_string(),
        balance_outstanding: a.balance_outstanding.to_decimal_string(),
        account_type: match a.mode {
            AccountMode::Live => AccountType::Live,
            AccountMode::Test => AccountType::Test,
        },
        logo: a.logo.clone(),
        beneficiary: a.beneficiary.as_ref().map(|b| b.as_str().to_owned()),
        bundle_portfolio_id: a
            .bundle_portfolio_id
            .as_ref()
            .map(|p| p.as_str().to_owned()),
    }
}

fn account_body(a: &Account) -> AccountBody {
    AccountBody {
        base: base(a),
        scope: AccountScopeTag::Account,
        // A regular account always has a sibling (a database CHECK guarantees it).
        sibling_id: a.sibling_id.map(|s| s.to_string()).unwrap_or_default(),
    }
}

fn client_body(a: &Account) -> ClientAccountBody {
    ClientAccountBody {
        base: base(a),
        scope: ClientScopeTag::ClientAccount,
    }
}

fn new_account(body: CreateAccountRequest) -> Result<NewAccount, ApiError> {
    Ok(NewAccount {
        name: AccountName::parse(&body.name)?,
        currency: body.currency.into(),
        beneficiary: body
            .beneficiary
            .as_deref()
            .map(Beneficiary::parse)
            .transpose()?,
    })
}

fn changes(body: UpdateAccountRequest) -> Result<AccountChanges, ApiError> {
    Ok(AccountChanges {
        name: AccountName::parse(&body.name)?,
        beneficiary: body
            .beneficiary
            .as_deref()
            .map(Beneficiary::parse)
            .transpose()?,
        bundle_portfolio_id: body
            .bundle_portfolio_id
            .as_deref()
            .filter(|p| !p.is_empty())
            .map(PortfolioId::parse)
            .transpose()?,
    })
}

/// The account the key acts as.
#[utoipa::path(get, path = "/v1/accounts/me", tag = "Accounts", operation_id = "getAccount",
    security(("BearerAuth" = [])),
    responses(
        (status = 200, description = "OK", body = AnyAccountBody),
        (status = 403, description = "Lune-Account names an account this key may not act as", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn me(state: web::Data<AppState>, who: Authenticated) -> Result<HttpResponse, ApiError> {
    let account = state.accounts.me(&who.0).await?;
    let body = match account.scope {
        AccountScope::Account => AnyAccountBody::Account(account_body(&account)),
        AccountScope::ClientAccount => AnyAccountBody::Client(client_body(&account)),
    };
    Ok(HttpResponse::Ok().json(body))
}

/// The organisation's accounts of the key's mode, oldest first.
#[utoipa::path(get, path = "/v1/accounts", tag = "Accounts", operation_id = "listAccounts",
    security(("BearerAuth" = [])),
    params(
        PageParams,
        ("name" = Option<String>, Query, description = "case-insensitive substring of the name", pattern = "^[a-zA-Z0-9_]{3,}$"),
    ),
    responses(
        (status = 200, description = "OK", body = PaginatedAccounts),
        (status = 400, description = "Invalid parameter", body = ErrorsDoc),
        (status = 403, description = "A client-account key may not list accounts", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn list_accounts(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .accounts
        .list_accounts(&who.0, AccountScope::Account, query.name()?, query.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(PaginatedAccounts::of(
        &page,
        |a| a.id.to_string(),
        account_body,
    )))
}

/// Creates a live/test pair linked by `sibling_id` (live key only).
#[utoipa::path(post, path = "/v1/accounts", tag = "Accounts", operation_id = "createAccountPair",
    security(("BearerAuth" = [])),
    request_body = CreateAccountRequest,
    responses(
        (status = 200, description = "OK", body = AccountPairBody),
        (status = 400, description = "Invalid body", body = ErrorsDoc),
        (status = 403, description = "A test key, or a key acting as a client account", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn create_pair(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<CreateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let (live, test) = state
        .accounts
        .create_pair(&who.0, new_account(body.0)?)
        .await?;
    Ok(HttpResponse::Ok().json(AccountPairBody {
        live: account_body(&live),
        test: account_body(&test),
    }))
}

/// Updates an account; renaming a live account renames its test sibling.
#[utoipa::path(put, path = "/v1/accounts/{id}", tag = "Accounts", operation_id = "updateAccount",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The account's id")),
    request_body = UpdateAccountRequest,
    responses(
        (status = 200, description = "OK", body = AccountBody),
        (status = 400, description = "Invalid body, an id of another organisation, mode or kind (id_invalid), or a test account rename", body = ErrorsDoc),
        (status = 404, description = "No account has this id", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn update_account(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<UpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let account = state
        .accounts
        .update_account(&who.0, AccountScope::Account, &id, changes(body.0)?)
        .await?;
    Ok(HttpResponse::Ok().json(account_body(&account)))
}

/// The organisation's client accounts of the key's mode, oldest first.
#[utoipa::path(get, path = "/v1/accounts/client", tag = "Client accounts", operation_id = "listClientAccounts",
    security(("BearerAuth" = [])),
    params(
        PageParams,
        ("name" = Option<String>, Query, description = "case-insensitive substring of the name", pattern = "^[a-zA-Z0-9_]{3,}$"),
    ),
    responses(
        (status = 200, description = "OK", body = PaginatedClientAccounts),
        (status = 400, description = "Invalid parameter", body = ErrorsDoc),
        (status = 403, description = "A client-account key may not list accounts", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn list_clients(
    state: web::Data<AppState>,
    who: Authenticated,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .accounts
        .list_accounts(
            &who.0,
            AccountScope::ClientAccount,
            query.name()?,
            query.page()?,
        )
        .await?;
    Ok(HttpResponse::Ok().json(PaginatedClientAccounts::of(
        &page,
        |a| a.id.to_string(),
        client_body,
    )))
}

/// Creates a client account in the key's mode.
#[utoipa::path(post, path = "/v1/accounts/client", tag = "Client accounts", operation_id = "createClientAccount",
    security(("BearerAuth" = [])),
    request_body = CreateAccountRequest,
    responses(
        (status = 200, description = "OK", body = ClientAccountBody),
        (status = 400, description = "Invalid body", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
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

/// Updates a client account.
#[utoipa::path(put, path = "/v1/accounts/client/{id}", tag = "Client accounts", operation_id = "updateClientAccount",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The client account's id")),
    request_body = UpdateAccountRequest,
    responses(
        (status = 200, description = "OK", body = ClientAccountBody),
        (status = 400, description = "Invalid body, or an id of another organisation, mode or kind (id_invalid)", body = ErrorsDoc),
        (status = 404, description = "No account has this id", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn update_client(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<UpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let account = state
        .accounts
        .update_account(&who.0, AccountScope::ClientAccount, &id, changes(body.0)?)
        .await?;
    Ok(HttpResponse::Ok().json(client_body(&account)))
}

/// Registers the account routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/accounts/me").route(web::get().to(me)))
        .service(
            web::resource("/accounts/client")
                .route(web::get().to(list_clients))
                .route(web::post().to(create_client)),
        )
        .service(web::resource("/accounts/client/{id}").route(web::put().to(update_client)))
        .service(
            web::resource("/accounts")
                .route(web::get().to(list_accounts))
                .route(web::post().to(create_pair)),
        )
        .service(web::resource("/accounts/{id}").route(web::put().to(update_account)));
}
