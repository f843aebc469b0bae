//! Tests of the account use cases over mocked ports.

use std::sync::Arc;

use mockall::predicate::eq;
use time::macros::datetime;
use tonne_kernel::{AccountMode, ApiKeyId, Currency, Limit, OrganisationId, PageRequest};
use uuid::Uuid;

use super::*;
use crate::keys::{ApiKeySecret, KeyHash};
use crate::models::{AccountIdempotencyKey, ExternalPagesVisibility, Handle};
use crate::models::{AccountName, OrganisationType};
use crate::ports::{AccountUpdate, AccountWriteError, StoreError};
use crate::ports::{MockAccountRepository, MockApiKeyRepository};
use crate::testing::{stopped, with_organisation};

fn org(n: u128) -> OrganisationId {
    OrganisationId::from_uuid(Uuid::from_u128(n))
}

fn account(id: u128, organisation: u128, mode: AccountMode, scope: AccountScope) -> Account {
    Account::sample(
        AccountId::from_uuid(Uuid::from_u128(id)),
        org(organisation),
        mode,
        scope,
        datetime!(2026-01-01 00:00 UTC),
    )
}

fn key_for(secret: &str, account: &Account) -> ApiKey {
    ApiKey {
        id: ApiKeyId::from_uuid(Uuid::from_u128(900)),
        organisation_id: account.organisation_id,
        mode: account.mode,
        account_id: account.id,
        account_scope: account.scope,
        hash: KeyHash::of(secret),
        display_prefix: "tonne_live_abcd".into(),
        created_at: account.created_at,
        revoked_at: None,
        last_used_at: None,
    }
}

fn caller(mode: AccountMode, scope: AccountScope) -> Caller {
    Caller {
        key_id: ApiKeyId::from_uuid(Uuid::from_u128(900)),
        organisation_id: org(1),
        mode,
        account_id: AccountId::from_uuid(Uuid::from_u128(10)),
        scope,
    }
}

struct Ids(std::sync::atomic::AtomicU64);
impl IdGenerator for Ids {
    fn new_uuid(&self) -> Uuid {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Uuid::from_u128(u128::from(n) + 1000)
    }
}

fn service(accounts: MockAccountRepository, keys: MockApiKeyRepository) -> Accounts {
    let clock = stopped(datetime!(2026-06-01 12:00 UTC));
    let ids = Arc::new(Ids(std::sync::atomic::AtomicU64::new(0)));
    Accounts::new(Arc::new(accounts), Arc::new(keys), clock, ids)
}

/// The service over `accounts` and a key store it must not use.
fn over_accounts(accounts: MockAccountRepository) -> Accounts {
    service(accounts, MockApiKeyRepository::new())
}

/// The service over `keys` and an account store it must not use.
fn over_keys(keys: MockApiKeyRepository) -> Accounts {
    service(MockAccountRepository::new(), keys)
}

/// An account store that knows organisation 1 (see [`with_organisation`]).
fn in_organisation() -> MockAccountRepository {
    let mut accounts = MockAccountRepository::new();
    with_organisation(&mut accounts);
    accounts
}

fn new_account(name: &str) -> NewAccount {
    NewAccount::named(AccountName::parse(name).unwrap(), Currency::Eur)
}

/// A `PUT`: name, beneficiary and portfolio named (absent ones clear).
fn changes(name: &str) -> AccountPatch {
    AccountPatch {
        name: Some(AccountName::parse(name).unwrap()),
        beneficiary: Some(None),
        bundle_portfolio_id: Some(None),
        handle: None,
        external_pages_visibility: None,
    }
}

// ---- authentication ----

async fn act_as(
    target: Option<Account>,
    own_scope: AccountScope,
    header: &str,
) -> Result<Caller, AuthError> {
    let secret = ApiKeySecret::generate(AccountMode::Test);
    let own = account(10, 1, AccountMode::Test, own_scope);
    let key = key_for(secret.expose(), &own);
    let mut keys = MockApiKeyRepository::new();
    keys.expect_find_by_hash()
        .returning(move |_| Ok(Some(key.clone())));
    keys.expect_touch().returning(|_, _| Ok(()));
    let mut accounts = MockAccountRepository::new();
    accounts.expect_get().returning(move |_| Ok(target.clone()));
    service(accounts, keys)
        .authenticate(Some(secret.expose().to_owned()), Some(header.to_owned()))
        .await
}

// ---- updating accounts ----

fn with_current(current: Account) -> MockAccountRepository {
    let mut accounts = MockAccountRepository::new();
    accounts
        .expect_get()
        .returning(move |_| Ok(Some(current.clone())));
    accounts
}

/// An account store holding `current` that expects one update `check`
/// accepts, and answers `current`.
fn updating(
    current: &Account,
    check: impl Fn(&AccountUpdate) -> bool + Send + 'static,
) -> MockAccountRepository {
    let mut accounts = with_current(current.clone());
    let returned = current.clone();
    accounts
        .expect_update()
        .times(1)
        .withf(check)
        .returning(move |_| Ok(returned.clone()));
    accounts
}

/// `svc` updates `account` (an account, not a client account) for a caller
/// of `mode` acting for an account.
async fn update_as(
    svc: &Accounts,
    mode: AccountMode,
    account: &Account,
    patch: AccountPatch,
) -> Result<Account, UpdateAccountError> {
    let who = caller(mode, AccountScope::Account);
    let id = account.id.to_string();
    svc.update_account(&who, AccountScope::Account, &id, patch)
        .await
}

/// Live account 20, sibling of 21, whose update must rename the sibling to
/// "New" (once), and the service over it.
fn renaming_a_live_account_with_a_sibling() -> (Account, Accounts) {
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    let sibling = AccountId::from_uuid(Uuid::from_u128(21));
    live.sibling_id = Some(sibling);
    let accounts = updating(&live, move |u| {
        u.rename_sibling == Some(sibling) && u.changes.name.as_str() == "New"
    });
    (live, over_accounts(accounts))
}

/// The first ten client accounts of a live caller acting for an account.
async fn live_clients(svc: &Accounts) -> Page<(Account, AccountActivity)> {
    svc.list_clients(
        &caller(AccountMode::Live, AccountScope::Account),
        None,
        first_ten(),
    )
    .await
    .unwrap()
}

/// The first page of ten.
fn first_ten() -> PageRequest<Cursor> {
    PageRequest {
        limit: Limit::new(10).unwrap(),
        after: None,
    }
}

fn stored_key(revoked_at: Option<time::OffsetDateTime>) -> ApiKey {
    ApiKey {
        id: ApiKeyId::from_uuid(Uuid::from_u128(1)),
        organisation_id: org(1),
        mode: AccountMode::Live,
        account_id: AccountId::from_uuid(Uuid::from_u128(30)),
        account_scope: AccountScope::Account,
        hash: KeyHash::of("tonne_live_secret"),
        display_prefix: "tonne_live_sec".into(),
        created_at: datetime!(2026-01-01 00:00 UTC),
        revoked_at,
        last_used_at: None,
    }
}

fn png_logo() -> EncodedLogo {
    EncodedLogo {
        format: crate::LogoFormat::Png,
        bytes: vec![0x89, b'P', b'N', b'G'],
    }
}

mod keys;
mod logos;
mod pairs;
mod reads;
