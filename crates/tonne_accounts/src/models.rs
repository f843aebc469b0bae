//! Organisations and their accounts: names, handles, logos, scopes, the caller
//! a key stands for, and the changes an update may make.

use time::OffsetDateTime;
use tonne_kernel::{AccountMode, ApiKeyId, Currency, Mass, Money, OrganisationId};

use crate::keys::{ApiKeySecret, KeyHash};

pub use tonne_kernel::AccountId;

/// A field of a request that failed validation, and why. Adapters name the field in their error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct InvalidField {
    /// The field's wire name.
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: String,
}

impl InvalidField {
    pub(crate) fn new(field: &'static str, reason: impl Into<String>) -> Self {
        Self {
            field,
            reason: reason.into(),
        }
    }
}

fn bounded_text(
    field: &'static str,
    value: &str,
    min_chars: usize,
    max_chars: usize,
) -> Result<String, InvalidField> {
    let chars = value.chars().count();
    if chars < min_chars {
        return Err(InvalidField::new(
            field,
            format!("must be at least {min_chars} character(s)"),
        ));
    }
    if chars > max_chars {
        return Err(InvalidField::new(
            field,
            format!("must be at most {max_chars} characters"),
        ));
    }
    Ok(value.to_owned())
}

/// An account name: at most 255 characters. The contract sets no other constraint
/// (an empty name is accepted, as the contract's schema allows).
///
/// ```
/// use tonne_accounts::AccountName;
/// assert!(AccountName::parse("Acme Corporation").is_ok());
/// assert!(AccountName::parse("").is_ok());
/// assert!(AccountName::parse(&"é".repeat(255)).is_ok());
/// assert!(AccountName::parse(&"x".repeat(256)).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountName(String);

impl AccountName {
    /// Validates a name.
    pub fn parse(value: &str) -> Result<Self, InvalidField> {
        bounded_text("name", value, 0, 255).map(Self)
    }
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The retirement beneficiary shown on certificates: 1–255 characters (the contract's `minLength: 1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beneficiary(String);

impl Beneficiary {
    /// Validates a beneficiary.
    pub fn parse(value: &str) -> Result<Self, InvalidField> {
        bounded_text("beneficiary", value, 1, 255).map(Self)
    }
    /// The beneficiary.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A bundle portfolio reference: 1–255 characters (the contract gives no format).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortfolioId(String);

impl PortfolioId {
    /// Validates a portfolio id.
    pub fn parse(value: &str) -> Result<Self, InvalidField> {
        bounded_text("bundle_portfolio_id", value, 1, 255).map(Self)
    }
    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An account's `handle`: a client-defined, URL-friendly name, unique per
/// organisation and account type (live/test): 1–64 characters of `[a-z0-9-_]`
/// (the contract's pattern; the bound is Tonne's).
///
/// ```
/// use tonne_accounts::Handle;
/// assert!(Handle::parse("acme-eu_2").is_ok());
/// assert!(Handle::parse("").is_err());
/// assert!(Handle::parse("Acme").is_err());
/// assert!(Handle::parse(&"a".repeat(65)).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handle(String);

impl Handle {
    /// Validates a handle.
    pub fn parse(value: &str) -> Result<Self, InvalidField> {
        let ok = (1..=64).contains(&value.len())
            && value
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if ok {
            Ok(Self(value.to_owned()))
        } else {
            Err(InvalidField::new(
                "handle",
                "must be 1 to 64 characters of a-z, 0-9, '-' or '_'",
            ))
        }
    }
    /// The handle.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The `idempotency_key` a client account was created with: 1–255 characters,
/// once per organisation and mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountIdempotencyKey(String);

impl AccountIdempotencyKey {
    /// Validates a key.
    pub fn parse(value: &str) -> Result<Self, InvalidField> {
        bounded_text("idempotency_key", value, 1, 255).map(Self)
    }
    /// The key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

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

tonne_kernel::define_id!(
    /// Identifies one uploaded logo (a new id per upload, so its URL never serves stale bytes).
    LogoId
);

/// The two image formats a logo is stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogoFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

impl LogoFormat {
    /// The media type it is served with (also its storage spelling).
    pub fn content_type(self) -> &'static str {
        match self {
            LogoFormat::Png => "image/png",
            LogoFormat::Jpeg => "image/jpeg",
        }
    }
    /// Parses the media type.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "image/png" => Some(LogoFormat::Png),
            "image/jpeg" => Some(LogoFormat::Jpeg),
            _ => None,
        }
    }
}

/// A logo image already decoded and re-encoded by an adapter (never the uploaded bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedLogo {
    /// Its format.
    pub format: LogoFormat,
    /// The re-encoded bytes.
    pub bytes: Vec<u8>,
}

/// A stored logo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logo {
    /// Its id (the last segment of its URL).
    pub id: LogoId,
    /// The account it belongs to.
    pub account_id: AccountId,
    /// The image.
    pub image: EncodedLogo,
    /// Upload time.
    pub created_at: OffsetDateTime,
}

/// A case-insensitive substring filter on account names, as the contract allows:
/// at least three characters of `[A-Za-z0-9_]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameFilter(String);

impl NameFilter {
    /// Validates a filter.
    pub fn parse(value: &str) -> Result<Self, InvalidField> {
        let ok = value.len() >= 3
            && value.len() <= 255
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if ok {
            Ok(Self(value.to_owned()))
        } else {
            Err(InvalidField::new(
                "name",
                "must be at least 3 characters of letters, digits or '_'",
            ))
        }
    }
    /// The filter text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
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

/// Who is calling, resolved from an API key and an optional `Lune-Account` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// The key used.
    pub key_id: ApiKeyId,
    /// The key's organisation; every read and write is confined to it.
    pub organisation_id: OrganisationId,
    /// The key's mode; every read and write is confined to it.
    pub mode: AccountMode,
    /// The account acted as.
    pub account_id: AccountId,
    /// Whether that account is a client account.
    pub scope: AccountScope,
}

/// An account id and the key created for it, as `tonne bootstrap` prints them.
#[derive(Debug, Clone)]
pub struct BootstrapAccount {
    /// The account.
    pub account_id: AccountId,
    /// Its first API key, shown once.
    pub api_key: ApiKeySecret,
}

/// The result of creating a new organisation with its first account pair and keys.
#[derive(Debug, Clone)]
pub struct Bootstrapped {
    /// The new organisation.
    pub organisation_id: OrganisationId,
    /// The live account and key.
    pub live: BootstrapAccount,
    /// The test account and key.
    pub test: BootstrapAccount,
}

/// A key just created: its record id, default account, and the secret, shown once.
#[derive(Debug, Clone)]
pub struct CreatedKey {
    /// The record id (to revoke it).
    pub id: ApiKeyId,
    /// The default account.
    pub account_id: AccountId,
    /// Its mode.
    pub mode: AccountMode,
    /// The secret.
    pub secret: ApiKeySecret,
}

/// How precisely a key's last use is kept: a key in use is written at most
/// once per this period, never on every request.
pub const LAST_USED_GRANULARITY: time::Duration = time::Duration::hours(1);

/// A stored API key record (never the secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    /// Record id, used to list and revoke.
    pub id: ApiKeyId,
    /// Owning organisation.
    pub organisation_id: OrganisationId,
    /// Live or test.
    pub mode: AccountMode,
    /// The account the key acts as when no `Lune-Account` header is sent.
    pub account_id: AccountId,
    /// Whether that default account is a client account (fixed for the key's life).
    pub account_scope: AccountScope,
    /// SHA-256 of the secret.
    pub hash: KeyHash,
    /// `tonne_live_abcd`: enough to recognise a key in a list.
    pub display_prefix: String,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// When it was revoked, if it was.
    pub revoked_at: Option<OffsetDateTime>,
    /// When it was last used, to the hour (see [`LAST_USED_GRANULARITY`]).
    pub last_used_at: Option<OffsetDateTime>,
}
