//! `/v1/accounts` and `/v1/accounts/client`.

use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::StreamExt as _;
use serde::{Deserialize, Serialize};
use tonne_accounts::{
    Account, AccountActivity, AccountIdempotencyKey, AccountName, AccountPatch, AccountScope,
    Beneficiary, ExternalPagesVisibility, Handle, InvalidField, NameFilter, NewAccount,
    OrganisationType, PortfolioId,
};
use tonne_kernel::{AccountMode, Currency};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, codes};
use crate::extract::{Authenticated, JsonBody, PageQuery};
use crate::logo_image::{self, MAX_LOGO_BYTES};
use crate::state::AppState;
use crate::wire::{AccountType, BodyErrors, CurrencyCode, ErrorsDoc, KeyErrors, paginated};

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

/// The contract's `AccountExternalPagesVisibility` (request and response).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = AccountExternalPagesVisibility)]
pub enum ExternalPagesVisibilityCode {
    /// Anyone may see the account's external pages.
    Public,
    /// Only the account (the default).
    Hidden,
    /// Only through a verified token (3.9.2's value; the 2024 document has no
    /// such value, so only a client that sends it reads it back).
    Private,
}

impl From<ExternalPagesVisibility> for ExternalPagesVisibilityCode {
    fn from(v: ExternalPagesVisibility) -> Self {
        match v {
            ExternalPagesVisibility::Public => Self::Public,
            ExternalPagesVisibility::Hidden => Self::Hidden,
            ExternalPagesVisibility::Private => Self::Private,
        }
    }
}

impl From<ExternalPagesVisibilityCode> for ExternalPagesVisibility {
    fn from(v: ExternalPagesVisibilityCode) -> Self {
        match v {
            ExternalPagesVisibilityCode::Public => Self::Public,
            ExternalPagesVisibilityCode::Hidden => Self::Hidden,
            ExternalPagesVisibilityCode::Private => Self::Private,
        }
    }
}

/// The 3.9.2 client's `AccountOrganisationType`.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = AccountOrganisationType)]
pub enum OrganisationTypeCode {
    /// The organisation ships goods and accounts for its own freight.
    Shipper,
    /// The organisation carries or supplies on behalf of shippers.
    Supplier,
}

/// Fields common to accounts and client accounts (the contract's `AccountBase`).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AccountBase)]
pub struct AccountBaseResponse {
    /// The account's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its organisation.
    pub organisation_id: String,
    /// Its organisation's type.
    pub organisation_type: OrganisationTypeCode,
    /// Its URL-friendly handle, unique per organisation and type; null until set.
    #[schema(pattern = r"^[a-z0-9-_]+$")]
    pub handle: Option<String>,
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
    /// Logo URL (served by Tonne at `/logos/{id}`).
    pub logo: Option<String>,
    /// Retirement beneficiary.
    pub beneficiary: Option<String>,
    /// Bundle portfolio.
    pub bundle_portfolio_id: Option<String>,
    /// Visibility of the account's external pages.
    pub external_pages_visibility: ExternalPagesVisibilityCode,
}

/// The contract's `Account`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AccountBody)]
pub struct AccountResponse {
    #[serde(flatten)]
    base: AccountBaseResponse,
    scope: AccountScopeTag,
    /// The paired account of the other mode.
    sibling_id: String,
}

/// The contract's `ClientAccount`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ClientAccountBody)]
pub struct ClientAccountResponse {
    #[serde(flatten)]
    base: AccountBaseResponse,
    scope: ClientScopeTag,
    /// The key the client account was created with, if any.
    idempotency_key: Option<String>,
}

/// The 3.9.2 client's `ClientAccountWithAnalyticSummary`: a client account in a list.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ClientAccountWithAnalyticSummary)]
pub struct ClientAccountWithSummaryResponse {
    #[serde(flatten)]
    account: ClientAccountResponse,
    /// When the account's last estimate was created; null if it has none.
    last_active_date: Option<String>,
    /// How many estimates the account has created, all time.
    number_of_estimates: i64,
    /// The tCO2e of those estimates, a decimal string.
    #[schema(pattern = r"^[0-9]+(\.[0-9]+)?$", example = "12.5")]
    total_emissions: String,
}

/// `GET /accounts/me`: an `Account`, or a `ClientAccount` when acting as one.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(as = AnyAccountBody)]
pub enum AnyAccountResponse {
    /// A regular account.
    Account(AccountResponse),
    /// A client account.
    Client(ClientAccountResponse),
}

/// The contract's `AccountPair`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AccountPairBody)]
pub struct AccountPairResponse {
    live: AccountResponse,
    test: AccountResponse,
}

/// The contract's `UploadLogoResponse`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = UploadLogoResponse)]
pub struct UploadLogoResponse {
    /// The logo's absolute URL (also the account's `logo` from now on); absent
    /// in the answer of a deletion (the account has no logo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) url: Option<String>,
}

paginated! {
    /// The contract's `PaginatedAccounts`, with `next_cursor`.
    PaginatedAccounts of AccountResponse
}

paginated! {
    /// The contract's `PaginatedClientAccounts`, with `next_cursor`.
    PaginatedClientAccounts of ClientAccountWithSummaryResponse
}

/// The contract's `CreateAccountRequest` and `CreateClientAccountRequest` (only a
/// client account takes `idempotency_key`).
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateAccountRequest {
    /// Account name (at most 255 characters).
    name: String,
    /// Account currency.
    currency: CurrencyCode,
    /// Retirement beneficiary (1–255 characters; `""` on a client account means none).
    #[schema(nullable = false)]
    beneficiary: Option<String>,
    /// URL-friendly handle, unique per organisation and account type.
    #[schema(nullable = false, pattern = r"^[a-z0-9-_]+$")]
    handle: Option<String>,
    /// Visibility of the external pages (default `hidden`).
    #[schema(nullable = false)]
    external_pages_visibility: Option<ExternalPagesVisibilityCode>,
    /// Client accounts only: creates the account once; a repeat is 409
    /// `account_idempotency_already_exists`.
    #[schema(nullable = false)]
    idempotency_key: Option<String>,
}

/// The contract's `UpdateAccountRequest`: a full replacement of name, beneficiary
/// and portfolio; handle and visibility change only when sent.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateAccountRequest {
    /// New name (a test account's must equal its current name).
    name: String,
    /// New beneficiary; absent clears it.
    #[schema(nullable = false)]
    beneficiary: Option<String>,
    /// Bundle portfolio id; absent or `""` clears it.
    #[schema(nullable = false)]
    bundle_portfolio_id: Option<String>,
    /// New handle; absent keeps the current one.
    #[schema(nullable = false, pattern = r"^[a-z0-9-_]+$")]
    handle: Option<String>,
    /// New visibility; absent keeps the current one.
    #[schema(nullable = false)]
    external_pages_visibility: Option<ExternalPagesVisibilityCode>,
}

/// The contract's `PartialUpdateAccountRequest`: only the fields sent change;
/// `null` clears `beneficiary` and `bundle_portfolio_id` and is refused elsewhere.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct PartialUpdateAccountRequest {
    /// New name (a test account's must equal its current name).
    #[schema(nullable = false)]
    name: Option<String>,
    /// New beneficiary; `null` clears it.
    #[schema(value_type = Option<String>, min_length = 1)]
    beneficiary: Option<Option<String>>,
    /// New bundle portfolio; `null` (or `""`) clears it.
    #[schema(value_type = Option<String>)]
    bundle_portfolio_id: Option<Option<String>>,
    /// New handle.
    #[schema(nullable = false, pattern = r"^[a-z0-9-_]+$")]
    handle: Option<String>,
    /// New visibility.
    #[schema(nullable = false)]
    external_pages_visibility: Option<ExternalPagesVisibilityCode>,
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

fn base(a: &Account) -> AccountBaseResponse {
    AccountBaseResponse {
        id: a.id.to_string(),
        name: a.name.as_str().to_owned(),
        organisation_id: a.organisation_id.to_string(),
        organisation_type: match a.organisation_type {
            OrganisationType::Shipper => OrganisationTypeCode::Shipper,
            OrganisationType::Supplier => OrganisationTypeCode::Supplier,
        },
        handle: a.handle.as_ref().map(|h| h.as_str().to_owned()),
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
        external_pages_visibility: a.external_pages_visibility.into(),
    }
}

fn account_body(a: &Account) -> AccountResponse {
    AccountResponse {
        base: base(a),
        scope: AccountScopeTag::Account,
        // A regular account always has a sibling (a database CHECK guarantees it).
        sibling_id: a.sibling_id.map(|s| s.to_string()).unwrap_or_default(),
    }
}

fn client_body(a: &Account) -> ClientAccountResponse {
    ClientAccountResponse {
        base: base(a),
        scope: ClientScopeTag::ClientAccount,
        idempotency_key: a.idempotency_key.as_ref().map(|k| k.as_str().to_owned()),
    }
}

fn client_summary_body(
    (a, activity): &(Account, AccountActivity),
) -> ClientAccountWithSummaryResponse {
    ClientAccountWithSummaryResponse {
        account: client_body(a),
        last_active_date: activity.last_active.map(crate::wire::rfc3339),
        number_of_estimates: activity.number_of_estimates,
        total_emissions: activity.total_emissions.to_tonnes_string(),
    }
}

fn optional<T>(
    value: Option<&str>,
    parse: impl Fn(&str) -> Result<T, InvalidField>,
) -> Result<Option<T>, ApiError> {
    Ok(value.map(parse).transpose()?)
}

fn new_account(body: CreateAccountRequest) -> Result<NewAccount, ApiError> {
    Ok(NewAccount {
        name: AccountName::parse(&body.name)?,
        currency: body.currency.into(),
        beneficiary: optional(body.beneficiary.as_deref(), Beneficiary::parse)?,
        handle: optional(body.handle.as_deref(), Handle::parse)?,
        external_pages_visibility: body
            .external_pages_visibility
            .map(Into::into)
            .unwrap_or_default(),
        idempotency_key: optional(
            body.idempotency_key.as_deref(),
            AccountIdempotencyKey::parse,
        )?,
    })
}

fn portfolio(value: Option<&str>) -> Result<Option<PortfolioId>, ApiError> {
    optional(value.filter(|p| !p.is_empty()), PortfolioId::parse)
}

fn replacement(body: UpdateAccountRequest) -> Result<AccountPatch, ApiError> {
    Ok(AccountPatch {
        name: Some(AccountName::parse(&body.name)?),
        beneficiary: Some(optional(body.beneficiary.as_deref(), Beneficiary::parse)?),
        bundle_portfolio_id: Some(portfolio(body.bundle_portfolio_id.as_deref())?),
        handle: optional(body.handle.as_deref(), Handle::parse)?,
        external_pages_visibility: body.external_pages_visibility.map(Into::into),
    })
}

fn patch(body: PartialUpdateAccountRequest) -> Result<AccountPatch, ApiError> {
    Ok(AccountPatch {
        name: optional(body.name.as_deref(), AccountName::parse)?,
        beneficiary: body
            .beneficiary
            .map(|b| optional(b.as_deref(), Beneficiary::parse))
            .transpose()?,
        bundle_portfolio_id: body
            .bundle_portfolio_id
            .map(|p| portfolio(p.as_deref()))
            .transpose()?,
        handle: optional(body.handle.as_deref(), Handle::parse)?,
        external_pages_visibility: body.external_pages_visibility.map(Into::into),
    })
}

/// The account the key acts as.
#[utoipa::path(get, path = "/v1/accounts/me", tag = "Accounts", operation_id = "getAccount",
    security(("BearerAuth" = [])),
    responses(
        (status = 200, description = "OK", body = AnyAccountResponse),
        (status = 403, description = "Lune-Account names an account this key may not act as", body = ErrorsDoc),
        KeyErrors,
    ))]
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
    responses(
        (status = 200, description = "OK", body = ClientAccountResponse),
        (status = 400, description = "The key does not act as a client account (account_scope_incorrect)", body = ErrorsDoc),
        (status = 403, description = "Lune-Account names an account this key may not act as", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn client_me(
    state: web::Data<AppState>,
    who: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let account = state.accounts.client_me(&who.0).await?;
    Ok(HttpResponse::Ok().json(client_body(&account)))
}

/// The name filter of the account lists.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NameQuery {
    /// case-insensitive substring of the name
    #[param(pattern = "^[a-zA-Z0-9_]{3,}$")]
    name: Option<String>,
}

impl NameQuery {
    /// The name filter, or 400.
    fn name(&self) -> Result<Option<NameFilter>, ApiError> {
        Ok(self.name.as_deref().map(NameFilter::parse).transpose()?)
    }
}

/// The organisation's accounts of the key's mode, oldest first.
#[utoipa::path(get, path = "/v1/accounts", tag = "Accounts", operation_id = "listAccounts",
    security(("BearerAuth" = [])),
    params(
        PageQuery,
        NameQuery,
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
    page: web::Query<PageQuery>,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .accounts
        .list_accounts(&who.0, AccountScope::Account, query.name()?, page.page()?)
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
        (status = 200, description = "OK", body = AccountPairResponse),
        (status = 400, description = "Invalid body, or a handle taken (handle_not_unique)", body = ErrorsDoc),
        (status = 403, description = "A test key, or a key acting as a client account", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
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

/// Updates an account; renaming a live account renames its test sibling.
#[utoipa::path(put, path = "/v1/accounts/{id}", tag = "Accounts", operation_id = "updateAccount",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The account's id")),
    request_body = UpdateAccountRequest,
    responses(
        (status = 200, description = "OK", body = AccountResponse),
        (status = 400, description = "Invalid body, an id of another organisation, mode or kind (id_invalid), a test account rename, or a handle taken (handle_not_unique)", body = ErrorsDoc),
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
        .update_account(&who.0, AccountScope::Account, &id, replacement(body.0)?)
        .await?;
    Ok(HttpResponse::Ok().json(account_body(&account)))
}

/// Changes the fields sent; renaming a live account renames its test sibling.
#[utoipa::path(patch, path = "/v1/accounts/{id}", tag = "Accounts", operation_id = "partialUpdateAccount",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The account's id")),
    request_body = PartialUpdateAccountRequest,
    responses(
        (status = 200, description = "OK", body = AccountResponse),
        (status = 400, description = "Invalid body (null where not allowed), an id of another organisation, mode or kind (id_invalid), a test account rename, or a handle taken (handle_not_unique)", body = ErrorsDoc),
        (status = 404, description = "No account has this id", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn patch_account(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<PartialUpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let account = state
        .accounts
        .update_account(&who.0, AccountScope::Account, &id, patch(body.0)?)
        .await?;
    Ok(HttpResponse::Ok().json(account_body(&account)))
}

/// The organisation's client accounts of the key's mode, oldest first.
#[utoipa::path(get, path = "/v1/accounts/client", tag = "Client accounts", operation_id = "listClientAccounts",
    security(("BearerAuth" = [])),
    params(
        PageQuery,
        NameQuery,
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
    page: web::Query<PageQuery>,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = state
        .accounts
        .list_clients(&who.0, query.name()?, page.page()?)
        .await?;
    Ok(HttpResponse::Ok().json(PaginatedClientAccounts::of(
        &page,
        |(a, _)| a.id.to_string(),
        client_summary_body,
    )))
}

/// Creates a client account in the key's mode.
#[utoipa::path(post, path = "/v1/accounts/client", tag = "Client accounts", operation_id = "createClientAccount",
    security(("BearerAuth" = [])),
    request_body = CreateAccountRequest,
    responses(
        (status = 200, description = "OK", body = ClientAccountResponse),
        (status = 400, description = "Invalid body, or a handle taken (handle_not_unique)", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        (status = 409, description = "A client account was already created with this idempotency_key (account_idempotency_already_exists)", body = ErrorsDoc),
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
        (status = 200, description = "OK", body = ClientAccountResponse),
        (status = 400, description = "Invalid body, an id of another organisation, mode or kind (id_invalid), or a handle taken (handle_not_unique)", body = ErrorsDoc),
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
        .update_account(
            &who.0,
            AccountScope::ClientAccount,
            &id,
            replacement(body.0)?,
        )
        .await?;
    Ok(HttpResponse::Ok().json(client_body(&account)))
}

/// Changes the fields sent of a client account.
#[utoipa::path(patch, path = "/v1/accounts/client/{id}", tag = "Client accounts", operation_id = "partialUpdateClientAccount",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The client account's id")),
    request_body = PartialUpdateAccountRequest,
    responses(
        (status = 200, description = "OK", body = ClientAccountResponse),
        (status = 400, description = "Invalid body (null where not allowed), an id of another organisation, mode or kind (id_invalid), or a handle taken (handle_not_unique)", body = ErrorsDoc),
        (status = 404, description = "No account has this id", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        KeyErrors,
        BodyErrors,
    ))]
pub async fn patch_client(
    state: web::Data<AppState>,
    who: Authenticated,
    id: web::Path<String>,
    body: JsonBody<PartialUpdateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let account = state
        .accounts
        .update_account(&who.0, AccountScope::ClientAccount, &id, patch(body.0)?)
        .await?;
    Ok(HttpResponse::Ok().json(client_body(&account)))
}

/// The contract's `UploadLogoRequest` (documentation of the multipart form).
#[derive(ToSchema)]
#[schema(as = UploadLogoRequest)]
pub struct UploadLogoRequest {
    /// A PNG or JPEG of at most 1 MiB and 4096×4096 pixels.
    #[schema(value_type = String, format = Binary)]
    pub logo: Vec<u8>,
}

fn is_multipart(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("multipart/form-data"))
}

/// Reads the `logo` part of a `multipart/form-data` body, bounded by [`MAX_LOGO_BYTES`].
async fn logo_part(req: &HttpRequest, mut form: Multipart) -> Result<Vec<u8>, ApiError> {
    if !is_multipart(req) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            codes::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type: the body must be multipart/form-data with a `logo` part",
        ));
    }
    let mut logo: Option<Vec<u8>> = None;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|e| ApiError::validation("body", e))?;
        let name = field.name().unwrap_or_default().to_owned();
        if name != "logo" {
            return Err(ApiError::validation(
                &name,
                "unknown form field; the only field is `logo`",
            ));
        }
        if logo.is_some() {
            return Err(ApiError::validation("logo", "sent more than once"));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|e| ApiError::validation("logo", e))?;
            if bytes.len().saturating_add(chunk.len()) > MAX_LOGO_BYTES {
                return Err(logo_image::LogoImageError::Oversize.into());
            }
            bytes.extend_from_slice(&chunk);
        }
        logo = Some(bytes);
    }
    logo.ok_or_else(|| ApiError::validation("logo", "a `logo` part is required"))
}

async fn upload_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    id: web::Path<String>,
    form: Multipart,
    scope: AccountScope,
) -> Result<HttpResponse, ApiError> {
    let bytes = logo_part(&req, form).await?;
    let image = web::block(move || logo_image::reencode(&bytes))
        .await
        .map_err(|e| ApiError::internal(&anyhow::anyhow!("logo re-encoding panicked: {e}")))??;
    let account = state
        .accounts
        .set_logo(&who.0, scope, &id, image, &state.pages.public_url)
        .await?;
    Ok(HttpResponse::Ok().json(UploadLogoResponse {
        url: Some(account.logo.unwrap_or_default()),
    }))
}

/// Replaces an account's logo (PNG or JPEG, re-encoded by Tonne).
#[utoipa::path(post, path = "/v1/accounts/{id}/logo", tag = "Accounts", operation_id = "updateAccountLogo",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The account's id")),
    request_body(content = UploadLogoRequest, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "OK", body = UploadLogoResponse),
        (status = 400, description = "Not a PNG or JPEG that decodes (unsupported_image_format), too many pixels, or an id of another organisation, mode or kind (id_invalid)", body = ErrorsDoc),
        (status = 404, description = "No account has this id", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        (status = 413, description = "More than 1 MiB", body = ErrorsDoc),
        (status = 415, description = "Not multipart/form-data", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn account_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    id: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    upload_logo(state, who, req, id, form, AccountScope::Account).await
}

/// Replaces a client account's logo (PNG or JPEG, re-encoded by Tonne).
#[utoipa::path(post, path = "/v1/accounts/client/{id}/logo", tag = "Client accounts", operation_id = "updateClientAccountLogo",
    security(("BearerAuth" = [])),
    params(("id" = String, Path, description = "The client account's id")),
    request_body(content = UploadLogoRequest, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "OK", body = UploadLogoResponse),
        (status = 400, description = "Not a PNG or JPEG that decodes (unsupported_image_format), too many pixels, or an id of another organisation, mode or kind (id_invalid)", body = ErrorsDoc),
        (status = 404, description = "No account has this id", body = ErrorsDoc),
        (status = 403, description = "A key acting as a client account", body = ErrorsDoc),
        (status = 413, description = "More than 1 MiB", body = ErrorsDoc),
        (status = 415, description = "Not multipart/form-data", body = ErrorsDoc),
        KeyErrors,
    ))]
pub async fn client_logo(
    state: web::Data<AppState>,
    who: Authenticated,
    req: HttpRequest,
    id: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    upload_logo(state, who, req, id, form, AccountScope::ClientAccount).await
}

/// `GET /logos/{id}`: a stored logo, public (its URL is the account's `logo`).
pub async fn serve_logo(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let logo = state
        .accounts
        .logo(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("no logo has this id"))?;
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static(logo.image.format.content_type()),
        ))
        // A new upload gets a new id, so a logo's bytes never change.
        .insert_header((
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ))
        .insert_header((
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .body(logo.image.bytes))
}

/// Registers the public logo route (outside `/v1`: no key needed).
pub fn configure_public(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/logos/{id}").route(web::get().to(serve_logo)));
}

/// Registers the account routes (under `/v1`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/accounts/me").route(web::get().to(me)))
        .service(
            web::resource("/accounts/client")
                .route(web::get().to(list_clients))
                .route(web::post().to(create_client)),
        )
        .service(web::resource("/accounts/client/me").route(web::get().to(client_me)))
        .service(
            web::resource("/accounts/client/{id}")
                .route(web::put().to(update_client))
                .route(web::patch().to(patch_client)),
        )
        .service(
            web::resource("/accounts/client/{id}/logo")
                .route(web::post().to(client_logo))
                .route(web::delete().to(super::delete_logo::client_logo)),
        )
        .service(
            web::resource("/accounts")
                .route(web::get().to(list_accounts))
                .route(web::post().to(create_pair)),
        )
        .service(
            web::resource("/accounts/{id}")
                .route(web::put().to(update_account))
                .route(web::patch().to(patch_account)),
        )
        .service(
            web::resource("/accounts/{id}/logo")
                .route(web::post().to(account_logo))
                .route(web::delete().to(super::delete_logo::account_logo)),
        );
}
