//! The accounts domain of Tonne.
//!
//! An **organisation** is a tenant. It owns **accounts** that come in live/test
//! pairs linked by `sibling_id`, and **client accounts** run on behalf of a third
//! party. **API keys** belong to an organisation, have a mode and a default
//! account, and are stored only as SHA-256 hashes.
//!
//! The crate is pure: storage is reached through the driven ports in [`ports`],
//! and adapters drive it through the [`AccountsService`] trait implemented by
//! [`Accounts`].
//!
//! ```
//! use tonne_accounts::{ApiKeySecret, KeyHash};
//! use tonne_kernel::AccountMode;
//!
//! let secret = ApiKeySecret::generate(AccountMode::Test);
//! assert!(secret.expose().starts_with("tonne_test_"));
//! assert_eq!(ApiKeySecret::mode_of(secret.expose()), Some(AccountMode::Test));
//! // Only the hash is stored; it is what a lookup uses.
//! assert_eq!(KeyHash::of(secret.expose()), KeyHash::of(secret.expose()));
//! ```

pub mod audit;
mod errors;
mod keys;
mod models;
pub mod pact;
pub mod ports;
pub mod quotas;
mod service;
#[cfg(test)]
mod testing;
pub mod users;
pub mod versions;

pub use errors::{
    AdminError, AuthError, CreateAccountError, ListAccountsError, ReadAccountError,
    UpdateAccountError,
};
pub use keys::{ApiKeySecret, KeyHash};
pub use models::{
    Account, AccountActivity, AccountChanges, AccountId, AccountIdempotencyKey, AccountName,
    AccountPatch, AccountScope, Beneficiary, BootstrapAccount, Bootstrapped, Caller, CreatedKey,
    EncodedLogo, ExternalPagesVisibility, Handle, InvalidField, Logo, LogoFormat, LogoId,
    NameFilter, NewAccount, Organisation, OrganisationType, PortfolioId,
};
pub use models::{ApiKey, LAST_USED_GRANULARITY};
pub use ports::AccountsService;
#[cfg(any(test, feature = "mock"))]
pub use ports::{MockAccountRepository, MockAccountsService, MockApiKeyRepository};
pub use service::Accounts;
