//! The account requests (create, replace, partial update) and their
//! conversion into the domain's [`NewAccount`] and [`AccountPatch`].

use serde::Deserialize;
use tonne_accounts::{
    AccountIdempotencyKey, AccountName, AccountPatch, Beneficiary, Handle, InvalidField,
    NewAccount, PortfolioId,
};
use utoipa::ToSchema;

use super::visibility::ExternalPagesVisibilityCode;
use crate::error::ApiError;
use crate::wire::CurrencyCode;

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
    pub(super) beneficiary: Option<String>,
    /// URL-friendly handle, unique per organisation and account type.
    #[schema(nullable = false, pattern = r"^[a-z0-9-_]+$")]
    handle: Option<String>,
    /// Visibility of the external pages (default `hidden`).
    #[schema(nullable = false)]
    external_pages_visibility: Option<ExternalPagesVisibilityCode>,
    /// Client accounts only: creates the account once; a repeat is 409
    /// `account_idempotency_already_exists`.
    #[schema(nullable = false)]
    pub(super) idempotency_key: Option<String>,
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

fn optional<T>(
    value: Option<&str>,
    parse: impl Fn(&str) -> Result<T, InvalidField>,
) -> Result<Option<T>, ApiError> {
    Ok(value.map(parse).transpose()?)
}

pub(super) fn new_account(body: CreateAccountRequest) -> Result<NewAccount, ApiError> {
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

pub(super) fn replacement(body: UpdateAccountRequest) -> Result<AccountPatch, ApiError> {
    Ok(AccountPatch {
        name: Some(AccountName::parse(&body.name)?),
        beneficiary: Some(optional(body.beneficiary.as_deref(), Beneficiary::parse)?),
        bundle_portfolio_id: Some(portfolio(body.bundle_portfolio_id.as_deref())?),
        handle: optional(body.handle.as_deref(), Handle::parse)?,
        external_pages_visibility: body.external_pages_visibility.map(Into::into),
    })
}

pub(super) fn patch(body: PartialUpdateAccountRequest) -> Result<AccountPatch, ApiError> {
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
