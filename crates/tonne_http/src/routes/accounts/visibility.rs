//! The contract's `AccountExternalPagesVisibility`, spoken by account requests
//! and answers alike, and its mapping to the domain's visibility.

use serde::{Deserialize, Serialize};
use tonne_accounts::ExternalPagesVisibility;
use utoipa::ToSchema;

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
