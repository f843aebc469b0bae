//! API keys: who a key acts as, Lune-Account, revocation, last use.

use super::*;

#[tokio::test]
async fn a_missing_or_malformed_key_is_refused_without_touching_storage() {
    let svc = over_accounts(MockAccountRepository::new());
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
    let svc = over_keys(keys);
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
    let svc = over_keys(keys);
    let who = svc
        .authenticate(Some(secret.expose().to_owned()), None)
        .await
        .unwrap();
    assert_eq!(who.account_id, own.id);
    assert_eq!(who.mode, AccountMode::Test);
    assert_eq!(who.organisation_id, org(1));
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
    let svc = over_keys(keys);
    assert!(matches!(
        svc.revoke_key(ApiKeyId::from_uuid(Uuid::from_u128(1)), &Actor::CommandLine)
            .await,
        Err(AdminError::KeyNotFound)
    ));
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
    let svc = over_keys(keys);
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
    let svc = over_keys(keys);
    let key = svc
        .revoke_key(stored_key(None).id, &Actor::CommandLine)
        .await
        .unwrap();
    assert_eq!(key.revoked_at, Some(when));
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
    let svc = over_keys(keys);
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
    let svc = over_keys(keys);
    assert!(
        svc.authenticate(Some(secret.expose().to_owned()), None)
            .await
            .is_ok()
    );
}
