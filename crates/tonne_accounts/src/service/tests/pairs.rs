//! Account pairs and client accounts: creation, bootstrap, names and siblings.

use super::*;

// ---- creating accounts ----

#[tokio::test]
async fn creating_a_pair_needs_a_live_key_acting_for_an_account() {
    let svc = over_accounts(MockAccountRepository::new());
    let test = caller(AccountMode::Test, AccountScope::Account);
    let client = caller(AccountMode::Live, AccountScope::ClientAccount);
    assert!(matches!(
        svc.create_pair(&test, new_account("X")).await,
        Err(CreateAccountError::LiveAccountRequired)
    ));
    assert!(matches!(
        svc.create_pair(&client, new_account("X")).await,
        Err(CreateAccountError::ClientAccountKey)
    ));
    assert!(matches!(
        svc.create_client(&client, new_account("X")).await,
        Err(CreateAccountError::ClientAccountKey)
    ));
}

#[tokio::test]
async fn a_pair_is_linked_both_ways_and_inserted_in_one_call() {
    let mut accounts = in_organisation();
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
    let svc = over_accounts(accounts);
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
    let mut accounts = in_organisation();
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
    let svc = over_accounts(accounts);
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
    let mut accounts = in_organisation();
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
    let svc = over_accounts(accounts);
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

#[tokio::test]
async fn renaming_a_live_account_renames_its_sibling_in_the_same_update() {
    let (live, svc) = renaming_a_live_account_with_a_sibling();
    update_as(&svc, AccountMode::Live, &live, changes("New"))
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
    let svc = over_accounts(accounts);
    update_as(&svc, AccountMode::Live, &live, changes("Acme"))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_test_account_name_cannot_change_but_other_fields_can() {
    let test = account(20, 1, AccountMode::Test, AccountScope::Account);
    let svc = over_accounts(with_current(test.clone()));
    assert!(matches!(
        update_as(&svc, AccountMode::Test, &test, changes("Other")).await,
        Err(UpdateAccountError::TestAccountNameUpdateDisallowed)
    ));

    let accounts = updating(&test, |u| {
        u.rename_sibling.is_none() && u.changes.beneficiary.is_some()
    });
    let svc = over_accounts(accounts);
    let mut same_name = changes("Acme");
    same_name.beneficiary = Some(Some(crate::Beneficiary::parse("Jane").unwrap()));
    update_as(&svc, AccountMode::Test, &test, same_name)
        .await
        .unwrap();
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

// ---- the 2024 shape: handle, visibility, organisation type, idempotency ----

#[tokio::test]
async fn new_accounts_answer_the_organisation_type_and_what_was_asked() {
    let mut accounts = in_organisation();
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
    let svc = over_accounts(accounts);
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
    let mut accounts = in_organisation();
    let mut answers = vec![
        AccountWriteError::HandleTaken,
        AccountWriteError::IdempotencyKeyTaken,
    ]
    .into_iter();
    accounts
        .expect_insert_client()
        .times(2)
        .returning(move |_, _| Err(answers.next().unwrap()));
    let svc = over_accounts(accounts);
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
