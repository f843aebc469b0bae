//! Ports of the accounts domain.
//!
//! [`AccountsService`] is the driving port (HTTP and the CLI call it);
//! [`AccountRepository`] and [`ApiKeyRepository`] are driven ports that storage
//! adapters implement. Each method documents the errors an adapter MUST return.

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{
    AccountMode, Actor, ApiKeyId, AuditEntry, Cursor, OrganisationId, Page, PageRequest,
};

use crate::errors::{
    AdminError, AuthError, CreateAccountError, ListAccountsError, ReadAccountError,
    UpdateAccountError,
};
use crate::keys::KeyHash;
use crate::models::ApiKey;
use crate::models::{
    Account, AccountActivity, AccountChanges, AccountId, AccountIdempotencyKey, AccountPatch,
    AccountScope, Bootstrapped, Caller, CreatedKey, EncodedLogo, Handle, Logo, LogoId, NameFilter,
    NewAccount, Organisation,
};

pub use tonne_kernel::StoreError;

/// Why an account write was refused.
#[derive(Debug, thiserror::Error)]
pub enum AccountWriteError {
    /// The unique index on (organisation, mode, handle) refused the write.
    #[error("handle taken")]
    HandleTaken,
    /// The unique index on (organisation, mode, idempotency_key) refused the write.
    #[error("idempotency key taken")]
    IdempotencyKeyTaken,
    /// Anything else (`NotFound`, another `Duplicate`, `Unexpected`).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Which accounts a list returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountQuery {
    pub organisation_id: OrganisationId,
    pub mode: AccountMode,
    /// Regular accounts or client accounts.
    pub scope: AccountScope,
    /// Optional case-insensitive substring of the name.
    pub name: Option<NameFilter>,
}

/// A change to one account, and whether its sibling's name follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountUpdate {
    /// The account to change.
    pub id: AccountId,
    /// Its new editable fields.
    pub changes: AccountChanges,
    /// When set, the sibling's name is set to `changes.name` in the same transaction.
    pub rename_sibling: Option<AccountId>,
    /// Time of the change.
    pub updated_at: OffsetDateTime,
}

/// Storage of organisations and accounts.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AccountRepository: Send + Sync {
    /// Inserts an organisation with its first account pair (and the audit entry
    /// of its creation, when given), all in one transaction.
    async fn create_organisation(
        &self,
        organisation: &Organisation,
        live: &Account,
        test: &Account,
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError>;

    /// Whether any organisation exists (first start creates a demo one).
    async fn any_organisation(&self) -> Result<bool, StoreError>;

    /// The organisation, or `None`.
    async fn organisation(&self, id: OrganisationId) -> Result<Option<Organisation>, StoreError>;

    /// Organisations in id (creation) order, strictly after the cursor. MUST
    /// return `NotFound` when the cursor names no organisation.
    async fn list_organisations(
        &self,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Organisation>, StoreError>;

    /// Inserts a live/test pair in one transaction (neither row exists without the other).
    /// MUST return `HandleTaken` when the handle is taken in the organisation and mode,
    /// `Store(Duplicate)` if an id is taken.
    async fn insert_pair(&self, live: &Account, test: &Account) -> Result<(), AccountWriteError>;

    /// Inserts one client account. MUST return `HandleTaken` or `IdempotencyKeyTaken`
    /// when a unique constraint on them refuses it (never read-then-write),
    /// `Store(Duplicate)` if the id is taken.
    async fn insert_client(
        &self,
        account: &Account,
        audit: Option<AuditEntry>,
    ) -> Result<(), AccountWriteError>;

    /// The account, or `None`.
    async fn get(&self, id: AccountId) -> Result<Option<Account>, StoreError>;

    /// The accounts of the organisation and mode (either scope) whose handle
    /// is `handle` or whose idempotency key is `idempotency_key`, by id: at
    /// most two, both being unique per organisation and mode. `None` matches
    /// nothing.
    async fn by_reference(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        handle: Option<Handle>,
        idempotency_key: Option<AccountIdempotencyKey>,
    ) -> Result<Vec<Account>, StoreError>;

    /// The oldest account of a mode in an organisation (a key's default), or `None`.
    async fn first_of_mode(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
    ) -> Result<Option<Account>, StoreError>;

    /// Accounts matching the query, in id (creation) order, strictly after the cursor.
    async fn list(
        &self,
        query: &AccountQuery,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Account>, StoreError>;

    /// Applies the update (and the sibling rename) in one transaction and returns the
    /// updated account. MUST return `Store(NotFound)` if the account does not exist,
    /// `HandleTaken` if another account of the organisation and mode has the handle.
    async fn update(&self, update: &AccountUpdate) -> Result<Account, AccountWriteError>;

    /// The estimate activity of each of these accounts (accounts without estimates
    /// may be left out), in one query whatever the number of accounts.
    async fn activity(
        &self,
        ids: &[AccountId],
    ) -> Result<Vec<(AccountId, AccountActivity)>, StoreError>;

    /// Stores a logo, makes `url` the account's `logo` (with `updated_at` = the logo's
    /// time) and drops the account's previous logos, in one transaction; returns the
    /// updated account. MUST return `NotFound` if the account does not exist.
    async fn set_logo(&self, logo: &Logo, url: &str) -> Result<Account, StoreError>;

    /// A stored logo, or `None`.
    async fn logo(&self, id: LogoId) -> Result<Option<Logo>, StoreError>;

    /// Clears the account's `logo` (with `updated_at` = `at`) and drops its
    /// stored logos, in one transaction; returns the updated account. MUST
    /// return `NotFound` if the account does not exist.
    async fn delete_logo(
        &self,
        account: AccountId,
        at: OffsetDateTime,
    ) -> Result<Account, StoreError>;
}

/// Storage of API keys (hashes only).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ApiKeyRepository: Send + Sync {
    /// Inserts a key (with the audit entry of its creation, when given, in the
    /// same transaction). MUST return `Duplicate` if the id or hash is taken.
    async fn insert(&self, key: &ApiKey, audit: Option<AuditEntry>) -> Result<(), StoreError>;

    /// The key with this id, revoked or not, or `None`.
    async fn get(&self, id: ApiKeyId) -> Result<Option<ApiKey>, StoreError>;

    /// Records that the key was used at `at` (the caller decides how often).
    async fn touch(&self, key: &ApiKey, at: OffsetDateTime) -> Result<(), StoreError>;

    /// The key with this hash, revoked or not, or `None`.
    async fn find_by_hash(&self, hash: &KeyHash) -> Result<Option<ApiKey>, StoreError>;

    /// The organisation's keys, oldest first.
    async fn list(&self, organisation_id: OrganisationId) -> Result<Vec<ApiKey>, StoreError>;

    /// Marks a key revoked (keeping the first revocation time) and returns it;
    /// the audit entry, when given, is written in the same transaction.
    /// MUST return `NotFound` if there is no such key.
    async fn revoke(
        &self,
        id: ApiKeyId,
        at: OffsetDateTime,
        audit: Option<AuditEntry>,
    ) -> Result<ApiKey, StoreError>;
}

/// The accounts use cases, as HTTP and the CLI drive them.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AccountsService: Send + Sync {
    /// Resolves a presented key and an optional `Lune-Account` header into a caller.
    async fn authenticate(
        &self,
        presented_key: Option<String>,
        acting_as: Option<String>,
    ) -> Result<Caller, AuthError>;

    /// The account the caller acts as.
    async fn me(&self, caller: &Caller) -> Result<Account, ReadAccountError>;

    /// The organisation's accounts (`scope`) of the caller's mode.
    async fn list_accounts(
        &self,
        caller: &Caller,
        scope: AccountScope,
        name: Option<NameFilter>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Account>, ListAccountsError>;

    /// Creates a live/test pair (live key, regular account only). Returns `(live, test)`.
    async fn create_pair(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<(Account, Account), CreateAccountError>;

    /// Creates a client account in the caller's mode.
    async fn create_client(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<Account, CreateAccountError>;

    /// The client account an estimate request names (`client_account`, the
    /// contract's `EstimateClientAccountRequest`): the caller's organisation
    /// and mode's client account with this handle or idempotency key, created
    /// from `new` when there is none. A key acting as a client account may not
    /// (`ClientAccountKey`); neither handle nor key, a handle and a key naming
    /// two accounts, or a handle of a regular account is `Invalid`.
    async fn client_on_behalf(
        &self,
        caller: &Caller,
        new: NewAccount,
    ) -> Result<Account, CreateAccountError>;

    /// A member (console) creates a client account of their organisation in a
    /// mode; audited as done `by` (`account.created`).
    async fn create_client_as(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        new: NewAccount,
        by: &Actor,
    ) -> Result<Account, CreateAccountError>;

    /// An organisation's client accounts of a mode, oldest first by cursor,
    /// each with its activity (the console's list).
    async fn clients_of(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        page: PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, AdminError>;

    /// The client account the caller acts as (`NotAClientAccount` otherwise).
    async fn client_me(&self, caller: &Caller) -> Result<Account, ReadAccountError>;

    /// The organisation's client accounts of the caller's mode, each with its activity.
    async fn list_clients(
        &self,
        caller: &Caller,
        name: Option<NameFilter>,
        page: PageRequest<Cursor>,
    ) -> Result<Page<(Account, AccountActivity)>, ListAccountsError>;

    /// Edits an account (`scope` says which endpoint: accounts or client accounts);
    /// `PUT` and `PATCH` both come here, so the sibling rules are the same.
    async fn update_account(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
        patch: AccountPatch,
    ) -> Result<Account, UpdateAccountError>;

    /// Replaces an account's logo with an image an adapter has re-encoded; its URL is
    /// `{public_url}/logos/{logo id}`. The same access rules as `update_account`.
    async fn set_logo(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
        image: EncodedLogo,
        public_url: &str,
    ) -> Result<Account, UpdateAccountError>;

    /// A logo by the id in its URL (public: anyone holding the URL may see it).
    async fn logo(&self, id: &str) -> Result<Option<Logo>, ReadAccountError>;

    /// Removes an account's logo: the account has none afterwards and the old
    /// URL answers 404. Idempotent: an account without a logo is answered as
    /// is, nothing written. The same access rules as `update_account`.
    async fn delete_logo(
        &self,
        caller: &Caller,
        scope: AccountScope,
        id: &str,
    ) -> Result<Account, UpdateAccountError>;

    /// Operator: a new organisation with a live/test pair and one key per mode;
    /// the organisation and each key are audited as made `by`.
    async fn bootstrap(
        &self,
        organisation_name: &str,
        by: &Actor,
    ) -> Result<Bootstrapped, AdminError>;

    /// A new key for an organisation and mode, defaulting to its oldest account
    /// of that mode; audited as made `by`.
    async fn create_key(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        account_id: Option<AccountId>,
        by: &Actor,
    ) -> Result<CreatedKey, AdminError>;

    /// Operator: every organisation, oldest first.
    async fn organisations(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Organisation>, AdminError>;

    /// Operator: one organisation.
    async fn organisation(&self, id: OrganisationId) -> Result<Organisation, AdminError>;

    /// The organisation's accounts of a mode (its regular accounts, then its
    /// client accounts, each oldest first; at most 100 of each), for people
    /// choosing one in the console.
    async fn organisation_accounts(
        &self,
        id: OrganisationId,
        mode: AccountMode,
    ) -> Result<Vec<Account>, AdminError>;

    /// One account (or client account) of the organisation and mode by id;
    /// `None` for an unknown id or another organisation's or mode's account.
    async fn organisation_account(
        &self,
        organisation_id: OrganisationId,
        mode: AccountMode,
        id: &str,
    ) -> Result<Option<Account>, AdminError>;

    /// Operator: the organisation's keys.
    async fn list_keys(&self, organisation_id: OrganisationId) -> Result<Vec<ApiKey>, AdminError>;

    /// Revokes a key (audited as done `by`); revoking a revoked key changes
    /// nothing and answers it as it is.
    async fn revoke_key(&self, id: ApiKeyId, by: &Actor) -> Result<ApiKey, AdminError>;
}
