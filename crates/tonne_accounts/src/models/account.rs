//! Organisations and their accounts as stored: scope, visibility, type,
//! activity, and what creating or editing an account supplies.

use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money, OrganisationId};

use super::fields::{AccountIdempotencyKey, AccountName, Beneficiary, Handle, PortfolioId};

/// Whether an account's external pages (sustainability, analytics) are public.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ExternalPagesVisibility {
    /// Anyone may see them.
    Public,
    /// Only the account (the contract's default).
    #[default]
    Hidden,
    /// Only through a verified token (the 3.9.2 client's `private`; Tonne serves
    /// no token-gated pages yet, so to a visitor it is `Hidden`).
    Private,
}

impl ExternalPagesVisibility {
    /// The wire and storage spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ExternalPagesVisibility::Public => "public",
            ExternalPagesVisibility::Hidden => "hidden",
            ExternalPagesVisibility::Private => "private",
        }
    }
    /// Parses the wire and storage spelling.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "public" => Some(ExternalPagesVisibility::Public),
            "hidden" => Some(ExternalPagesVisibility::Hidden),
            "private" => Some(ExternalPagesVisibility::Private),
            _ => None,
        }
    }
}

/// What an organisation is to its supply chain (the 3.9.2 client's `organisation_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OrganisationType {
    /// It ships goods and accounts for its own freight emissions (every organisation
    /// until an operator says otherwise).
    #[default]
    Shipper,
    /// It carries or supplies on behalf of shippers.
    Supplier,
}

impl OrganisationType {
    /// The wire and storage spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OrganisationType::Shipper => "shipper",
            OrganisationType::Supplier => "supplier",
        }
    }
    /// Parses the wire and storage spelling.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "shipper" => Some(OrganisationType::Shipper),
            "supplier" => Some(OrganisationType::Supplier),
            _ => None,
        }
    }
}

/// What a client account has estimated, all time (client-account lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AccountActivity {
    /// When its last estimate was created, if it has any.
    pub last_active: Option<OffsetDateTime>,
    /// How many estimates it has created.
    pub number_of_estimates: i64,
    /// The CO2e of those estimates.
    pub total_emissions: Mass,
}

/// Whether an account is a regular account (with a sibling) or a client account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountScope {
    /// A regular account, one of a live/test pair.
    Account,
    /// An account run on behalf of a third party.
    ClientAccount,
}

impl AccountScope {
    /// The wire and storage spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountScope::Account => "account",
            AccountScope::ClientAccount => "client_account",
        }
    }

    /// Parses the storage spelling.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "account" => Some(AccountScope::Account),
            "client_account" => Some(AccountScope::ClientAccount),
            _ => None,
        }
    }
}

/// An organisation (tenant).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Organisation {
    /// Its id.
    pub id: OrganisationId,
    /// Its name.
    pub name: String,
    /// What it is to its supply chain; every account of it answers this.
    pub organisation_type: OrganisationType,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

/// An account or client account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Its id.
    pub id: AccountId,
    /// Its organisation.
    pub organisation_id: OrganisationId,
    /// Live or test.
    pub mode: AccountMode,
    /// Regular or client account.
    pub scope: AccountScope,
    /// The paired account of the other mode; `None` for client accounts.
    pub sibling_id: Option<AccountId>,
    /// Its name.
    pub name: AccountName,
    /// Its handle, once set.
    pub handle: Option<Handle>,
    /// Whether its external pages are public.
    pub external_pages_visibility: ExternalPagesVisibility,
    /// Its organisation's type.
    pub organisation_type: OrganisationType,
    /// The key a client account was created with, if any.
    pub idempotency_key: Option<AccountIdempotencyKey>,
    /// The currency its orders are priced in.
    pub currency: Currency,
    /// Cash balance.
    pub balance: Money,
    /// Sum of placed and unpaid orders (mostly negative).
    pub balance_outstanding: Money,
    /// Logo URL, if any.
    pub logo: Option<String>,
    /// Retirement beneficiary, if any.
    pub beneficiary: Option<Beneficiary>,
    /// Bundle portfolio, if any.
    pub bundle_portfolio_id: Option<PortfolioId>,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
}

#[cfg(any(test, feature = "mock"))]
impl Account {
    /// A test account (test support, `mock` feature): named "Acme", priced in
    /// GBP, zero balances, no sibling, logo, beneficiary or portfolio.
    pub fn sample(
        id: AccountId,
        organisation_id: OrganisationId,
        mode: AccountMode,
        scope: AccountScope,
        at: OffsetDateTime,
    ) -> Self {
        Self {
            id,
            organisation_id,
            mode,
            scope,
            sibling_id: None,
            name: AccountName("Acme".into()),
            handle: None,
            external_pages_visibility: ExternalPagesVisibility::Hidden,
            organisation_type: OrganisationType::Shipper,
            idempotency_key: None,
            currency: Currency::Gbp,
            balance: Money::zero(Currency::Gbp),
            balance_outstanding: Money::zero(Currency::Gbp),
            logo: None,
            beneficiary: None,
            bundle_portfolio_id: None,
            created_at: at,
            updated_at: at,
        }
    }
}

/// What a caller supplies to create an account pair or a client account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    pub name: AccountName,
    pub currency: Currency,
    /// Optional beneficiary.
    pub beneficiary: Option<Beneficiary>,
    /// Optional handle (else none until set).
    pub handle: Option<Handle>,
    /// Visibility of its external pages (the contract's default: hidden).
    pub external_pages_visibility: ExternalPagesVisibility,
    /// Client accounts only: the creation's idempotency key.
    pub idempotency_key: Option<AccountIdempotencyKey>,
}

impl NewAccount {
    /// A new account with a name and currency and nothing else set.
    pub fn named(name: AccountName, currency: Currency) -> Self {
        Self {
            name,
            currency,
            beneficiary: None,
            handle: None,
            external_pages_visibility: ExternalPagesVisibility::Hidden,
            idempotency_key: None,
        }
    }
}

/// The editable fields of an account after an edit, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountChanges {
    /// New name (for a test account, it must equal the current one).
    pub name: AccountName,
    /// New beneficiary, or `None` to clear it.
    pub beneficiary: Option<Beneficiary>,
    /// New portfolio, or `None` to clear it.
    pub bundle_portfolio_id: Option<PortfolioId>,
    /// New handle, or `None` to clear it.
    pub handle: Option<Handle>,
    /// New visibility of the external pages.
    pub external_pages_visibility: ExternalPagesVisibility,
}

/// An edit of an account: each field is `None` to keep the current value, or
/// `Some(new)` (where the contract allows clearing, `Some(None)` clears).
/// `PUT` is a patch that names name, beneficiary and portfolio (absent ones clear),
/// and handle and visibility only when sent; `PATCH` names what it sends.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AccountPatch {
    /// New name.
    pub name: Option<AccountName>,
    /// New beneficiary, or `Some(None)` to clear it.
    pub beneficiary: Option<Option<Beneficiary>>,
    /// New portfolio, or `Some(None)` to clear it.
    pub bundle_portfolio_id: Option<Option<PortfolioId>>,
    /// New handle (it cannot be cleared through the API).
    pub handle: Option<Handle>,
    /// New visibility.
    pub external_pages_visibility: Option<ExternalPagesVisibility>,
}

impl AccountPatch {
    /// The account's editable fields after this patch.
    pub fn apply_to(self, current: &Account) -> AccountChanges {
        AccountChanges {
            name: self.name.unwrap_or_else(|| current.name.clone()),
            beneficiary: self
                .beneficiary
                .unwrap_or_else(|| current.beneficiary.clone()),
            bundle_portfolio_id: self
                .bundle_portfolio_id
                .unwrap_or_else(|| current.bundle_portfolio_id.clone()),
            handle: self.handle.or_else(|| current.handle.clone()),
            external_pages_visibility: self
                .external_pages_visibility
                .unwrap_or(current.external_pages_visibility),
        }
    }
}
