//! `client_account` (client 3.9.2's `EstimateClientAccountRequest`, on
//! multi-leg shipping and transaction estimates): the client account of the
//! caller's organisation the estimate is made on behalf of.

use serde::{Deserialize, Serialize};
use tonne_accounts::{
    AccountIdempotencyKey, AccountName, Beneficiary, Handle, InvalidField, NewAccount,
};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::routes::accounts::ExternalPagesVisibilityCode;
use crate::wire::CurrencyCode;

/// Names a client account by `handle` or `idempotency_key` (at least one);
/// the other fields are used only when it has to be created.
#[tonne_http_macros::request]
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[schema(as = EstimateClientAccountBody)]
pub struct EstimateClientAccountRequest {
    /// The account name (when created).
    pub name: String,
    /// The account currency (when created).
    pub currency: CurrencyCode,
    /// The retirement beneficiary (when created).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beneficiary: Option<String>,
    /// Visibility of its external pages (when created; default `hidden`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_pages_visibility: Option<ExternalPagesVisibilityCode>,
    /// Names the client account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handle: Option<String>,
    /// Names the client account (the key it was created with).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}

fn field(e: InvalidField) -> ApiError {
    ApiError::validation(&format!("client_account.{}", e.field), e.reason)
}

impl EstimateClientAccountRequest {
    /// The account to find or create, every field checked as by
    /// `POST /v1/accounts/client` (`""` as beneficiary means none).
    pub fn parse(&self) -> Result<NewAccount, ApiError> {
        if self.handle.is_none() && self.idempotency_key.is_none() {
            return Err(ApiError::validation(
                "client_account",
                "send a handle or an idempotency_key to name the client account",
            ));
        }
        Ok(NewAccount {
            name: AccountName::parse(&self.name).map_err(field)?,
            currency: self.currency.into(),
            beneficiary: self
                .beneficiary
                .as_deref()
                .filter(|b| !b.is_empty())
                .map(Beneficiary::parse)
                .transpose()
                .map_err(field)?,
            handle: self
                .handle
                .as_deref()
                .map(Handle::parse)
                .transpose()
                .map_err(field)?,
            external_pages_visibility: self
                .external_pages_visibility
                .map(Into::into)
                .unwrap_or_default(),
            idempotency_key: self
                .idempotency_key
                .as_deref()
                .map(AccountIdempotencyKey::parse)
                .transpose()
                .map_err(field)?,
        })
    }
}
