//! Tests of the account use cases over mocked ports.

use std::sync::Arc;

use mockall::predicate::eq;
use time::macros::datetime;
use tonne_kernel::{
    AccountMode, ApiKeyId, Currency, Limit, MockClock, OrganisationId, PageRequest,
};
use uuid::Uuid;

use super::*;
use crate::keys::{ApiKeySecret, KeyHash};
use crate::models::{AccountIdempotencyKey, ExternalPagesVisibility, Handle};
use crate::models::{AccountName, OrganisationType};
use crate::ports::{AccountWriteError, StoreError};
use crate::ports::{MockAccountRepository, MockApiKeyRepository};

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
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .return_const(datetime!(2026-06-01 12:00 UTC));
    Accounts::new(
        Arc::new(accounts),
        Arc::new(keys),
        Arc::new(clock),
        Arc::new(Ids(std::sync::atomic::AtomicU64::new(0))),
    )
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

/// Storage knows organisation 1 (or any asked for) as a supplier.
fn with_organisation(accounts: &mut MockAccountRepository) {
    accounts.expect_organisation().returning(|id| {
        Ok(Some(Organisation {
            id,
            name: "O".into(),
            organisation_type: OrganisationType::Supplier,
            created_at: datetime!(2026-01-01 00:00 UTC),
        }))
    });
}

// ---- authentication ----

#[tokio::test]
async fn a_missing_or_malformed_key_is_refused_without_touching_storage() {
    let svc = service(MockAccountRepository::new(), MockApiKeyRepository::new());
    assert!(matches!(
        svc.authenticate(None, None).await,
        Err(AuthError::MissingKey)
    ));
    assert!(matches!(
        svc.authenticate(Some("sk_live_nope".into()), None).await,
        Err(AuthError::InvalidKey)
    ));
}

#[tokio::test]
async fn an_unknown_or_revoked_key_is_invalid() {
    let secret = ApiKeySecret::generate(AccountMode::Live);
    let mut revoked = key_for(
        secret.expose(),
        &account(10, 1, AccountMode::Live, AccountScope::Account),
    );
    revoked.revoked_at = Some(datetime!(2026-02-01 00:00 UTC));
    let mut keys = MockApiKeyRepository::new();
    let mut answers = vec![Some(revoked), None].into_iter();
    keys.expect_find_by_hash()
        .times(2)
        .returning(move |_| Ok(answers.next().flatten()));
    let svc = service(MockAccountRepository::new(), keys);
    for _ in 0..2 {
        assert!(matches!(
            svc.authenticate(Some(secret.expose().to_owned()), None)
                .await,
            Err(AuthError::InvalidKey)
        ));
    }
}

#[tokio::test]
async fn a_valid_key_acts_as_its_default_account() {
    let secret = ApiKeySecret::generate(AccountMode::Test);
    let own = account(10, 1, AccountMode::Test, AccountScope::Account);
    let key = key_for(secret.expose(), &own);
    let mut keys = MockApiKeyRepository::new();
    keys.expect_find_by_hash()
        .with(eq(KeyHash::of(secret.expose())))
        .returning(move |_| Ok(Some(key.clone())));
    // never used: its use is recorded, at the clock's time
    keys.expect_touch()
        .times(1)
        .withf(|_, at| *at == datetime!(2026-06-01 12:00 UTC))
        .returning(|_, _| Ok(()));
    let svc = service(MockAccountRepository::new(), keys);
    let who = svc
        .authenticate(Some(secret.expose().to_owned()), None)
        .await
        .unwrap();
    assert_eq!(who.account_id, own.id);
    assert_eq!(who.mode, AccountMode::Test);
    assert_eq!(who.organisation_id, org(1));
}

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

#[tokio::test]
async fn lune_account_switches_within_the_same_organisation_and_mode() {
    let client = account(11, 1, AccountMode::Test, AccountScope::ClientAccount);
    let who = act_as(
        Some(client.clone()),
        AccountScope::Account,
        &client.id.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(who.account_id, client.id);
    assert_eq!(who.scope, AccountScope::ClientAccount);
}

#[tokio::test]
async fn lune_account_of_another_mode_organisation_or_unknown_is_not_allowed() {
    let live = account(11, 1, AccountMode::Live, AccountScope::Account);
    let foreign = account(12, 2, AccountMode::Test, AccountScope::Account);
    for (target, header) in [
        (Some(live.clone()), live.id.to_string()),
        (Some(foreign.clone()), foreign.id.to_string()),
        (None, AccountId::from_uuid(Uuid::from_u128(13)).to_string()),
        (None, "not-an-id".to_owned()),
    ] {
        assert!(
            matches!(
                act_as(target, AccountScope::Account, &header).await,
                Err(AuthError::AccountNotAllowed)
            ),
            "{header}"
        );
    }
}

#[tokio::test]
async fn a_client_account_key_cannot_act_as_another_account() {
    let other = account(11, 1, AccountMode::Test, AccountScope::Account);
    assert!(matches!(
        act_as(
            Some(other.clone()),
            AccountScope::ClientAccount,
            &other.id.to_string()
        )
        .await,
        Err(AuthError::AccountNotAllowed)
    ));
}

// ---- creating accounts ----

#[tokio::test]
async fn creating_a_pair_needs_a_live_key_acting_for_an_account() {
    let svc = service(MockAccountRepository::new(), MockApiKeyRepository::new());
    assert!(matches!(
        svc.create_pair(
            &caller(AccountMode::Test, AccountScope::Account),
            new_account("X")
        )
        .await,
        Err(CreateAccountError::LiveAccountRequired)
    ));
    assert!(matches!(
        svc.create_pair(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            new_account("X")
        )
        .await,
        Err(CreateAccountError::ClientAccountKey)
    ));
    assert!(matches!(
        svc.create_client(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            new_account("X")
        )
        .await,
        Err(CreateAccountError::ClientAccountKey)
    ));
}

#[tokio::test]
async fn a_pair_is_linked_both_ways_and_inserted_in_one_call() {
    let mut accounts = MockAccountRepository::new();
    with_organisation(&mut accounts);
    accounts
        .expect_insert_pair()
        .times(1)
        .withf(|live, test| {
            live.mode == AccountMode::Live
                && test.mode == AccountMode::Test
                && live.sibling_id == Some(test.id)
                && test.sibling_id == Some(live.id)
                && live.name == test.name
                && live.currency == Currency::Eur
                && test.currency == Currency::Eur
                && live.organisation_id == org(1)
                && test.organisation_id == org(1)
                && live.balance.to_decimal_string() == "0.00"
        })
        .returning(|_, _| Ok(()));
    let svc = service(accounts, MockApiKeyRepository::new());
    let (live, test) = svc
        .create_pair(
            &caller(AccountMode::Live, AccountScope::Account),
            new_account("Shop"),
        )
        .await
        .unwrap();
    assert_eq!(live.name.as_str(), "Shop");
    assert_ne!(live.id, test.id);
}

#[tokio::test]
async fn a_client_account_takes_the_callers_mode_and_has_no_sibling() {
    let mut accounts = MockAccountRepository::new();
    with_organisation(&mut accounts);
    accounts
        .expect_insert_client()
        .times(1)
        .withf(|a, audit| {
            a.mode == AccountMode::Test
                && a.scope == AccountScope::ClientAccount
                && a.sibling_id.is_none()
                // the API's business writes are not audited
                && audit.is_none()
        })
        .returning(|_, _| Ok(()));
    let svc = service(accounts, MockApiKeyRepository::new());
    svc.create_client(
        &caller(AccountMode::Test, AccountScope::Account),
        new_account("Client"),
    )
    .await
    .unwrap();
}

/// A member's client account from the console: in the member's organisation
/// and the chosen mode, written with its audit entry.
#[tokio::test]
async fn a_member_creates_a_client_account_with_its_audit_entry() {
    let mut accounts = MockAccountRepository::new();
    with_organisation(&mut accounts);
    accounts
        .expect_insert_client()
        .times(1)
        .withf(|a, audit| {
            let audit = audit.as_ref().unwrap();
            a.mode == AccountMode::Test
                && a.scope == AccountScope::ClientAccount
                && a.organisation_id == org(1)
                && audit.action == "account.created"
                && audit.actor == Actor::person("ada@example.org")
                && audit.organisation == Some(org(1))
                && audit.object_id == a.id.to_string()
                && audit.after.get("name") == Some("Client")
        })
        .returning(|_, _| Ok(()));
    let svc = service(accounts, MockApiKeyRepository::new());
    let made = svc
        .create_client_as(
            org(1),
            AccountMode::Test,
            new_account("Client"),
            &Actor::person("ada@example.org"),
        )
        .await
        .unwrap();
    assert_eq!(made.name.as_str(), "Client");
}

// ---- updating accounts ----

fn with_current(current: Account) -> MockAccountRepository {
    let mut accounts = MockAccountRepository::new();
    accounts
        .expect_get()
        .returning(move |_| Ok(Some(current.clone())));
    accounts
}

#[tokio::test]
async fn renaming_a_live_account_renames_its_sibling_in_the_same_update() {
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    let sibling = AccountId::from_uuid(Uuid::from_u128(21));
    live.sibling_id = Some(sibling);
    let mut accounts = with_current(live.clone());
    let returned = live.clone();
    accounts
        .expect_update()
        .times(1)
        .withf(move |u| u.rename_sibling == Some(sibling) && u.changes.name.as_str() == "New")
        .returning(move |_| Ok(returned.clone()));
    let svc = service(accounts, MockApiKeyRepository::new());
    svc.update_account(
        &caller(AccountMode::Live, AccountScope::Account),
        AccountScope::Account,
        &live.id.to_string(),
        changes("New"),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_live_update_that_keeps_the_name_leaves_the_sibling_alone() {
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    live.sibling_id = Some(AccountId::from_uuid(Uuid::from_u128(21)));
    let mut accounts = with_current(live.clone());
    let returned = live.clone();
    accounts
        .expect_update()
        .withf(|u| u.rename_sibling.is_none())
        .returning(move |_| Ok(returned.clone()));
    let svc = service(accounts, MockApiKeyRepository::new());
    svc.update_account(
        &caller(AccountMode::Live, AccountScope::Account),
        AccountScope::Account,
        &live.id.to_string(),
        changes("Acme"),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_test_account_name_cannot_change_but_other_fields_can() {
    let test = account(20, 1, AccountMode::Test, AccountScope::Account);
    let svc = service(with_current(test.clone()), MockApiKeyRepository::new());
    assert!(matches!(
        svc.update_account(
            &caller(AccountMode::Test, AccountScope::Account),
            AccountScope::Account,
            &test.id.to_string(),
            changes("Other")
        )
        .await,
        Err(UpdateAccountError::TestAccountNameUpdateDisallowed)
    ));

    let mut accounts = with_current(test.clone());
    let returned = test.clone();
    accounts
        .expect_update()
        .times(1)
        .withf(|u| u.rename_sibling.is_none() && u.changes.beneficiary.is_some())
        .returning(move |_| Ok(returned.clone()));
    let svc = service(accounts, MockApiKeyRepository::new());
    let mut same_name = changes("Acme");
    same_name.beneficiary = Some(Some(crate::Beneficiary::parse("Jane").unwrap()));
    svc.update_account(
        &caller(AccountMode::Test, AccountScope::Account),
        AccountScope::Account,
        &test.id.to_string(),
        same_name,
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn ids_outside_the_organisation_or_mode_are_not_found_and_the_other_kind_invalid() {
    let who = caller(AccountMode::Live, AccountScope::Account);
    for (target, not_found) in [
        (
            account(20, 2, AccountMode::Live, AccountScope::Account),
            true,
        ),
        (
            account(20, 1, AccountMode::Test, AccountScope::Account),
            true,
        ),
        (
            account(20, 1, AccountMode::Live, AccountScope::ClientAccount),
            false,
        ),
    ] {
        let svc = service(with_current(target.clone()), MockApiKeyRepository::new());
        let answer = svc
            .update_account(
                &who,
                AccountScope::Account,
                &target.id.to_string(),
                changes("Acme"),
            )
            .await;
        if not_found {
            assert!(matches!(answer, Err(UpdateAccountError::NotFound)));
        } else {
            assert!(matches!(answer, Err(UpdateAccountError::IdInvalid)));
        }
    }
    let svc = service(MockAccountRepository::new(), MockApiKeyRepository::new());
    assert!(matches!(
        svc.update_account(&who, AccountScope::Account, "../etc", changes("Acme"))
            .await,
        Err(UpdateAccountError::NotFound)
    ));
    let mut nowhere = MockAccountRepository::new();
    nowhere.expect_get().returning(|_| Ok(None));
    let svc_nowhere = service(nowhere, MockApiKeyRepository::new());
    let unknown = AccountId::from_uuid(Uuid::from_u128(77)).to_string();
    assert!(matches!(
        svc_nowhere
            .update_account(&who, AccountScope::Account, &unknown, changes("Acme"))
            .await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.update_account(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            AccountScope::Account,
            "x",
            changes("Acme")
        )
        .await,
        Err(UpdateAccountError::ClientAccountKey)
    ));
}

#[tokio::test]
async fn lists_are_confined_to_the_callers_organisation_and_mode() {
    let mut accounts = MockAccountRepository::new();
    accounts
        .expect_list()
        .withf(|q, p| {
            q.organisation_id == org(1)
                && q.mode == AccountMode::Test
                && q.scope == AccountScope::ClientAccount
                && p.limit.get() == 5
        })
        .returning(|_, _| {
            Ok(Page {
                items: vec![],
                has_more: false,
            })
        });
    let svc = service(accounts, MockApiKeyRepository::new());
    let page = PageRequest {
        limit: Limit::new(5).unwrap(),
        after: None,
    };
    svc.list_accounts(
        &caller(AccountMode::Test, AccountScope::Account),
        AccountScope::ClientAccount,
        None,
        page.clone(),
    )
    .await
    .unwrap();
    assert!(matches!(
        svc.list_accounts(
            &caller(AccountMode::Test, AccountScope::ClientAccount),
            AccountScope::Account,
            None,
            page
        )
        .await,
        Err(ListAccountsError::ClientAccountKey)
    ));
}

// ---- operator commands ----

#[tokio::test]
async fn bootstrap_creates_an_organisation_a_pair_and_one_key_per_mode() {
    let mut accounts = MockAccountRepository::new();
    accounts
        .expect_create_organisation()
        .times(1)
        .withf(|o, live, test, audit| {
            let audit = audit.as_ref().expect("the creation is audited");
            live.organisation_id == o.id
                && test.organisation_id == o.id
                && live.sibling_id == Some(test.id)
                && audit.action == "organisation.created"
                && audit.actor == Actor::person("ops@example.org")
                && audit.organisation == Some(o.id)
                && audit.after.get("name") == Some("Demo")
        })
        .returning(|_, _, _, _| Ok(()));
    let mut keys = MockApiKeyRepository::new();
    keys.expect_insert()
        .times(2)
        .withf(|key, audit| {
            let audit = audit.as_ref().expect("each key is audited");
            audit.action == "api_key.created"
                && audit.organisation == Some(key.organisation_id)
                // never the secret or its hash: only the prefix shown in lists
                && audit.after.fields().iter().all(|(_, v)| !v.contains(&key.hash.to_hex()))
                && audit.after.get("prefix") == Some(key.display_prefix.as_str())
        })
        .returning(|_, _| Ok(()));
    let svc = service(accounts, keys);
    let out = svc
        .bootstrap("Demo", &Actor::person("ops@example.org"))
        .await
        .unwrap();
    assert!(out.live.api_key.expose().starts_with("tonne_live_"));
    assert!(out.test.api_key.expose().starts_with("tonne_test_"));
}

#[tokio::test]
async fn a_key_defaults_to_the_oldest_account_of_its_mode_and_refuses_others() {
    let live = account(30, 1, AccountMode::Live, AccountScope::Account);
    let mut accounts = MockAccountRepository::new();
    accounts.expect_organisation().returning(|id| {
        Ok(Some(Organisation {
            id,
            name: "O".into(),
            organisation_type: OrganisationType::Shipper,
            created_at: datetime!(2026-01-01 00:00 UTC),
        }))
    });
    let first = live.clone();
    accounts
        .expect_first_of_mode()
        .returning(move |_, _| Ok(Some(first.clone())));
    let wrong_mode = live.clone();
    accounts
        .expect_get()
        .returning(move |_| Ok(Some(wrong_mode.clone())));
    let mut keys = MockApiKeyRepository::new();
    keys.expect_insert()
        .withf(move |k, _| k.account_id == live.id && k.mode == AccountMode::Live)
        .returning(|_, _| Ok(()));
    let svc = service(accounts, keys);
    let created = svc
        .create_key(org(1), AccountMode::Live, None, &Actor::CommandLine)
        .await
        .unwrap();
    assert_eq!(
        created.account_id,
        AccountId::from_uuid(Uuid::from_u128(30))
    );
    assert!(matches!(
        svc.create_key(
            org(1),
            AccountMode::Test,
            Some(AccountId::from_uuid(Uuid::from_u128(30))),
            &Actor::CommandLine,
        )
        .await,
        Err(AdminError::AccountNotFound)
    ));
}

#[tokio::test]
async fn revoking_an_unknown_key_says_so_and_changes_nothing() {
    let mut keys = MockApiKeyRepository::new();
    keys.expect_get().returning(|_| Ok(None));
    keys.expect_revoke().never();
    let svc = service(MockAccountRepository::new(), keys);
    assert!(matches!(
        svc.revoke_key(ApiKeyId::from_uuid(Uuid::from_u128(1)), &Actor::CommandLine)
            .await,
        Err(AdminError::KeyNotFound)
    ));
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

#[tokio::test]
async fn revoking_a_key_records_who_revoked_it_in_its_organisation() {
    let mut keys = MockApiKeyRepository::new();
    keys.expect_get().returning(|_| Ok(Some(stored_key(None))));
    keys.expect_revoke()
        .times(1)
        .withf(|_, at, audit| {
            let audit = audit.as_ref().expect("audited");
            audit.action == "api_key.revoked"
                && audit.actor == Actor::person("ada@example.org")
                && audit.organisation == Some(org(1))
                && audit.before.get("revoked at").is_none()
                && audit.after.get("revoked at") == Some(at.to_string().as_str())
        })
        .returning(|_, at, _| Ok(stored_key(Some(at))));
    let svc = service(MockAccountRepository::new(), keys);
    let key = svc
        .revoke_key(stored_key(None).id, &Actor::person("ada@example.org"))
        .await
        .unwrap();
    assert!(key.revoked_at.is_some());
}

#[tokio::test]
async fn revoking_a_revoked_key_changes_and_records_nothing() {
    let when = datetime!(2026-02-01 00:00 UTC);
    let mut keys = MockApiKeyRepository::new();
    keys.expect_get()
        .returning(move |_| Ok(Some(stored_key(Some(when)))));
    keys.expect_revoke().never();
    let svc = service(MockAccountRepository::new(), keys);
    let key = svc
        .revoke_key(stored_key(None).id, &Actor::CommandLine)
        .await
        .unwrap();
    assert_eq!(key.revoked_at, Some(when));
}

// ---- the 2024 shape: handle, visibility, organisation type, idempotency ----

#[tokio::test]
async fn new_accounts_answer_the_organisation_type_and_what_was_asked() {
    let mut accounts = MockAccountRepository::new();
    with_organisation(&mut accounts);
    accounts
        .expect_insert_client()
        .times(1)
        .withf(|a, _| {
            a.organisation_type == OrganisationType::Supplier
                && a.handle.as_ref().map(Handle::as_str) == Some("acme")
                && a.external_pages_visibility == ExternalPagesVisibility::Public
                && a.idempotency_key
                    .as_ref()
                    .map(AccountIdempotencyKey::as_str)
                    == Some("k-1")
        })
        .returning(|_, _| Ok(()));
    accounts
        .expect_insert_pair()
        .times(1)
        .withf(|live, test| {
            // A pair never takes an idempotency key; both answer the organisation's type.
            live.idempotency_key.is_none()
                && test.idempotency_key.is_none()
                && live.organisation_type == OrganisationType::Supplier
                && live.external_pages_visibility == ExternalPagesVisibility::Hidden
        })
        .returning(|_, _| Ok(()));
    let svc = service(accounts, MockApiKeyRepository::new());
    let mut new = new_account("Client");
    new.handle = Some(Handle::parse("acme").unwrap());
    new.external_pages_visibility = ExternalPagesVisibility::Public;
    new.idempotency_key = Some(AccountIdempotencyKey::parse("k-1").unwrap());
    let client = svc
        .create_client(&caller(AccountMode::Live, AccountScope::Account), new)
        .await
        .unwrap();
    assert_eq!(client.organisation_type, OrganisationType::Supplier);
    let mut pair = new_account("Pair");
    pair.idempotency_key = Some(AccountIdempotencyKey::parse("ignored").unwrap());
    svc.create_pair(&caller(AccountMode::Live, AccountScope::Account), pair)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_taken_handle_or_idempotency_key_is_reported_as_such() {
    let mut accounts = MockAccountRepository::new();
    with_organisation(&mut accounts);
    let mut answers = vec![
        AccountWriteError::HandleTaken,
        AccountWriteError::IdempotencyKeyTaken,
    ]
    .into_iter();
    accounts
        .expect_insert_client()
        .times(2)
        .returning(move |_, _| Err(answers.next().unwrap()));
    let svc = service(accounts, MockApiKeyRepository::new());
    let who = caller(AccountMode::Live, AccountScope::Account);
    assert!(matches!(
        svc.create_client(&who, new_account("A")).await,
        Err(CreateAccountError::HandleTaken)
    ));
    assert!(matches!(
        svc.create_client(&who, new_account("A")).await,
        Err(CreateAccountError::IdempotencyKeyTaken)
    ));
}

#[tokio::test]
async fn a_patch_keeps_what_it_does_not_name_and_clears_what_it_nulls() {
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    live.sibling_id = Some(AccountId::from_uuid(Uuid::from_u128(21)));
    live.beneficiary = Some(crate::Beneficiary::parse("Jane").unwrap());
    live.bundle_portfolio_id = Some(crate::PortfolioId::parse("p1").unwrap());
    live.handle = Some(Handle::parse("old").unwrap());
    let mut accounts = with_current(live.clone());
    let returned = live.clone();
    accounts
        .expect_update()
        .times(1)
        .withf(|u| {
            u.rename_sibling.is_none()
                && u.changes.name.as_str() == "Acme"
                && u.changes.beneficiary.is_none()
                && u.changes.bundle_portfolio_id.as_ref().map(|p| p.as_str()) == Some("p1")
                && u.changes.handle.as_ref().map(Handle::as_str) == Some("new")
                && u.changes.external_pages_visibility == ExternalPagesVisibility::Public
        })
        .returning(move |_| Ok(returned.clone()));
    let svc = service(accounts, MockApiKeyRepository::new());
    svc.update_account(
        &caller(AccountMode::Live, AccountScope::Account),
        AccountScope::Account,
        &live.id.to_string(),
        AccountPatch {
            beneficiary: Some(None),
            handle: Some(Handle::parse("new").unwrap()),
            external_pages_visibility: Some(ExternalPagesVisibility::Public),
            ..AccountPatch::default()
        },
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_patch_follows_the_sibling_rules_of_put() {
    let test = account(21, 1, AccountMode::Test, AccountScope::Account);
    let accounts = with_current(test.clone());
    let svc = service(accounts, MockApiKeyRepository::new());
    let rename = AccountPatch {
        name: Some(AccountName::parse("Other").unwrap()),
        ..AccountPatch::default()
    };
    assert!(matches!(
        svc.update_account(
            &caller(AccountMode::Test, AccountScope::Account),
            AccountScope::Account,
            &test.id.to_string(),
            rename,
        )
        .await,
        Err(UpdateAccountError::TestAccountNameUpdateDisallowed)
    ));
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    let sibling = AccountId::from_uuid(Uuid::from_u128(21));
    live.sibling_id = Some(sibling);
    let mut accounts = with_current(live.clone());
    let returned = live.clone();
    accounts
        .expect_update()
        .times(1)
        .withf(move |u| u.rename_sibling == Some(sibling) && u.changes.name.as_str() == "New")
        .returning(move |_| Ok(returned.clone()));
    let svc = service(accounts, MockApiKeyRepository::new());
    svc.update_account(
        &caller(AccountMode::Live, AccountScope::Account),
        AccountScope::Account,
        &live.id.to_string(),
        AccountPatch {
            name: Some(AccountName::parse("New").unwrap()),
            ..AccountPatch::default()
        },
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_handle_taken_on_update_is_reported_as_such() {
    let live = account(20, 1, AccountMode::Live, AccountScope::Account);
    let mut accounts = with_current(live.clone());
    accounts
        .expect_update()
        .returning(|_| Err(AccountWriteError::HandleTaken));
    let svc = service(accounts, MockApiKeyRepository::new());
    assert!(matches!(
        svc.update_account(
            &caller(AccountMode::Live, AccountScope::Account),
            AccountScope::Account,
            &live.id.to_string(),
            AccountPatch {
                handle: Some(Handle::parse("taken").unwrap()),
                ..AccountPatch::default()
            },
        )
        .await,
        Err(UpdateAccountError::HandleTaken)
    ));
}

#[tokio::test]
async fn client_me_is_for_client_accounts_only() {
    let mut accounts = MockAccountRepository::new();
    let client = account(10, 1, AccountMode::Live, AccountScope::ClientAccount);
    accounts
        .expect_get()
        .times(1)
        .returning(move |_| Ok(Some(client.clone())));
    let svc = service(accounts, MockApiKeyRepository::new());
    assert!(matches!(
        svc.client_me(&caller(AccountMode::Live, AccountScope::Account))
            .await,
        Err(ReadAccountError::NotAClientAccount)
    ));
    let me = svc
        .client_me(&caller(AccountMode::Live, AccountScope::ClientAccount))
        .await
        .unwrap();
    assert_eq!(me.scope, AccountScope::ClientAccount);
}

#[tokio::test]
async fn client_lists_carry_each_accounts_activity_in_one_store_call() {
    let a = account(40, 1, AccountMode::Live, AccountScope::ClientAccount);
    let b = account(41, 1, AccountMode::Live, AccountScope::ClientAccount);
    let (a_id, b_id) = (a.id, b.id);
    let mut accounts = MockAccountRepository::new();
    accounts.expect_list().returning(move |_, _| {
        Ok(Page {
            items: vec![a.clone(), b.clone()],
            has_more: false,
        })
    });
    accounts
        .expect_activity()
        .times(1)
        .withf(move |ids| ids == [a_id, b_id])
        .returning(move |_| {
            Ok(vec![(
                b_id,
                AccountActivity {
                    last_active: Some(datetime!(2026-05-01 10:00 UTC)),
                    number_of_estimates: 3,
                    total_emissions: tonne_kernel::Mass::from_grams(1_500_000),
                },
            )])
        });
    let svc = service(accounts, MockApiKeyRepository::new());
    let page = svc
        .list_clients(
            &caller(AccountMode::Live, AccountScope::Account),
            None,
            PageRequest {
                limit: Limit::new(10).unwrap(),
                after: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(page.items.len(), 2);
    // An account with no estimates: none, zero, zero.
    assert_eq!(page.items[0].1, AccountActivity::default());
    assert_eq!(page.items[1].1.number_of_estimates, 3);
    assert_eq!(page.items[1].1.total_emissions.grams(), 1_500_000);
}

#[tokio::test]
async fn an_empty_client_list_asks_for_no_activity() {
    let mut accounts = MockAccountRepository::new();
    accounts.expect_list().returning(|_, _| {
        Ok(Page {
            items: vec![],
            has_more: false,
        })
    });
    accounts.expect_activity().never();
    let svc = service(accounts, MockApiKeyRepository::new());
    let page = svc
        .list_clients(
            &caller(AccountMode::Live, AccountScope::Account),
            None,
            PageRequest {
                limit: Limit::new(10).unwrap(),
                after: None,
            },
        )
        .await
        .unwrap();
    assert!(page.items.is_empty());
}

fn png_logo() -> EncodedLogo {
    EncodedLogo {
        format: crate::LogoFormat::Png,
        bytes: vec![0x89, b'P', b'N', b'G'],
    }
}

#[tokio::test]
async fn a_logo_is_stored_under_a_new_id_with_an_absolute_url() {
    let live = account(20, 1, AccountMode::Live, AccountScope::Account);
    let mut accounts = with_current(live.clone());
    let returned = live.clone();
    accounts
        .expect_set_logo()
        .times(1)
        .withf(move |logo, url| {
            logo.account_id == live.id && url == format!("https://tonne.example/logos/{}", logo.id)
        })
        .returning(move |_, url| {
            let mut a = returned.clone();
            a.logo = Some(url.to_owned());
            Ok(a)
        });
    let svc = service(accounts, MockApiKeyRepository::new());
    let account = svc
        .set_logo(
            &caller(AccountMode::Live, AccountScope::Account),
            AccountScope::Account,
            &AccountId::from_uuid(Uuid::from_u128(20)).to_string(),
            png_logo(),
            "https://tonne.example/",
        )
        .await
        .unwrap();
    assert!(
        account
            .logo
            .unwrap()
            .starts_with("https://tonne.example/logos/")
    );
}

#[tokio::test]
async fn a_logo_follows_the_access_rules_of_updates() {
    let other_org = account(20, 2, AccountMode::Live, AccountScope::Account);
    let accounts = with_current(other_org.clone());
    let svc = service(accounts, MockApiKeyRepository::new());
    let id = other_org.id.to_string();
    assert!(matches!(
        svc.set_logo(
            &caller(AccountMode::Live, AccountScope::Account),
            AccountScope::Account,
            &id,
            png_logo(),
            "http://x"
        )
        .await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.set_logo(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            AccountScope::Account,
            &id,
            png_logo(),
            "http://x"
        )
        .await,
        Err(UpdateAccountError::ClientAccountKey)
    ));
    assert!(matches!(
        svc.set_logo(
            &caller(AccountMode::Live, AccountScope::Account),
            AccountScope::ClientAccount,
            &id,
            png_logo(),
            "http://x"
        )
        .await,
        Err(UpdateAccountError::NotFound)
    ));
}

#[tokio::test]
async fn a_malformed_logo_id_is_none_without_storage() {
    let svc = service(MockAccountRepository::new(), MockApiKeyRepository::new());
    assert_eq!(svc.logo("../../etc/passwd").await.unwrap(), None);
}

#[tokio::test]
async fn a_keys_last_use_is_written_at_most_once_an_hour_and_never_refuses_a_request() {
    let secret = ApiKeySecret::generate(AccountMode::Live);
    let own = account(10, 1, AccountMode::Live, AccountScope::Account);
    let stored = key_for(secret.expose(), &own);
    let mut fresh = stored.clone();
    fresh.last_used_at = Some(datetime!(2026-06-01 11:30 UTC)); // 30 min before the clock
    let mut keys = MockApiKeyRepository::new();
    keys.expect_find_by_hash()
        .returning(move |_| Ok(Some(fresh.clone())));
    keys.expect_touch().never();
    let svc = service(MockAccountRepository::new(), keys);
    assert!(
        svc.authenticate(Some(secret.expose().to_owned()), None)
            .await
            .is_ok()
    );

    // an hour old: written again; a failing write still lets the request in
    let mut stale = stored.clone();
    stale.last_used_at = Some(datetime!(2026-06-01 11:00 UTC));
    let mut keys = MockApiKeyRepository::new();
    keys.expect_find_by_hash()
        .returning(move |_| Ok(Some(stale.clone())));
    keys.expect_touch()
        .times(1)
        .returning(|_, _| Err(StoreError::Unexpected(anyhow::anyhow!("down"))));
    let svc = service(MockAccountRepository::new(), keys);
    assert!(
        svc.authenticate(Some(secret.expose().to_owned()), None)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn deleting_a_logo_clears_it_once_and_a_second_delete_writes_nothing() {
    let mut live = account(20, 1, AccountMode::Live, AccountScope::Account);
    live.logo = Some("https://tonne.example/logos/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".into());
    let mut accounts = with_current(live.clone());
    let cleared = Account {
        logo: None,
        ..live.clone()
    };
    let id = live.id;
    accounts
        .expect_delete_logo()
        .times(1)
        .withf(move |account, _| *account == id)
        .returning(move |_, _| Ok(cleared.clone()));
    let svc = service(accounts, MockApiKeyRepository::new());
    let caller = caller(AccountMode::Live, AccountScope::Account);
    let done = svc
        .delete_logo(&caller, AccountScope::Account, &id.to_string())
        .await
        .unwrap();
    assert_eq!(done.logo, None);

    // already without a logo: answered as is, the store is not asked
    let mut accounts = with_current(Account {
        logo: None,
        ..live.clone()
    });
    accounts.expect_delete_logo().never();
    let svc = service(accounts, MockApiKeyRepository::new());
    let again = svc
        .delete_logo(&caller, AccountScope::Account, &id.to_string())
        .await
        .unwrap();
    assert_eq!(again.logo, None);
}

#[tokio::test]
async fn deleting_a_logo_follows_the_access_rules_of_updates() {
    let mut other_org = account(20, 2, AccountMode::Live, AccountScope::Account);
    other_org.logo = Some("https://tonne.example/logos/x".into());
    let mut accounts = with_current(other_org.clone());
    accounts.expect_delete_logo().never();
    let svc = service(accounts, MockApiKeyRepository::new());
    let id = other_org.id.to_string();
    let live = caller(AccountMode::Live, AccountScope::Account);
    assert!(matches!(
        svc.delete_logo(&live, AccountScope::Account, &id).await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.delete_logo(
            &caller(AccountMode::Live, AccountScope::ClientAccount),
            AccountScope::Account,
            &id
        )
        .await,
        Err(UpdateAccountError::ClientAccountKey)
    ));
    assert!(matches!(
        svc.delete_logo(&live, AccountScope::ClientAccount, &id)
            .await,
        Err(UpdateAccountError::NotFound)
    ));
    assert!(matches!(
        svc.delete_logo(&live, AccountScope::Account, "not-an-id")
            .await,
        Err(UpdateAccountError::NotFound)
    ));
}
