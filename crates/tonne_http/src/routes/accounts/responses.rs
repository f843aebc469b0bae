//! The account answers: `Account`, `ClientAccount`, their pair, list and
//! summary shapes, and their rendering from the domain's [`Account`].

use serde::Serialize;
use tonne_accounts::{Account, AccountActivity, OrganisationType};
use tonne_kernel::{AccountMode, Currency};
use utoipa::{IntoResponses, ToSchema};

use super::visibility::ExternalPagesVisibilityCode;
use crate::wire::{AccountType, CurrencyCode, ErrorsResponse, paginated};

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
    pub(super) live: AccountResponse,
    pub(super) test: AccountResponse,
}

paginated! {
    /// The contract's `PaginatedAccounts`, with `next_cursor`.
    PaginatedAccounts of AccountResponse
}

paginated! {
    /// The contract's `PaginatedClientAccounts`, with `next_cursor`.
    PaginatedClientAccounts of ClientAccountWithSummaryResponse
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

pub(super) fn account_body(a: &Account) -> AccountResponse {
    AccountResponse {
        base: base(a),
        scope: AccountScopeTag::Account,
        // A regular account always has a sibling (a database CHECK guarantees it).
        sibling_id: a.sibling_id.map(|s| s.to_string()).unwrap_or_default(),
    }
}

pub(super) fn client_body(a: &Account) -> ClientAccountResponse {
    ClientAccountResponse {
        base: base(a),
        scope: ClientScopeTag::ClientAccount,
        idempotency_key: a.idempotency_key.as_ref().map(|k| k.as_str().to_owned()),
    }
}

pub(super) fn client_summary_body(
    (a, activity): &(Account, AccountActivity),
) -> ClientAccountWithSummaryResponse {
    ClientAccountWithSummaryResponse {
        account: client_body(a),
        last_active_date: activity.last_active.map(crate::wire::rfc3339),
        number_of_estimates: activity.number_of_estimates,
        total_emissions: activity.total_emissions.to_tonnes_string(),
    }
}

/// 404 of a route on one account.
#[derive(IntoResponses)]
pub enum NoSuchAccount {
    /// No account has this id
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}
