//! The validated text fields of a request (names, handles, beneficiaries,
//! portfolio ids, idempotency keys, name filters), and the field a failed
//! validation names.

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
pub struct AccountName(pub(super) String);

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
