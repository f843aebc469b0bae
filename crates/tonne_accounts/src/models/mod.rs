//! Organisations and their accounts: names, handles, logos, scopes, the caller
//! a key stands for, and the changes an update may make.

mod account;
mod api_keys;
mod fields;
mod logos;

pub use account::{
    Account, AccountActivity, AccountChanges, AccountPatch, AccountScope, ExternalPagesVisibility,
    NewAccount, Organisation, OrganisationType,
};
pub use api_keys::{
    ApiKey, BootstrapAccount, Bootstrapped, Caller, CreatedKey, LAST_USED_GRANULARITY,
};
pub use fields::{
    AccountIdempotencyKey, AccountName, Beneficiary, Handle, InvalidField, NameFilter, PortfolioId,
};
pub use logos::{EncodedLogo, Logo, LogoFormat, LogoId};

pub use tonne_kernel::AccountId;
