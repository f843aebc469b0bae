//! Repository contract tests: every case runs on SQLite and on PostgreSQL
//! (the latter when `TONNE_TEST_POSTGRES_URL` is set; mandatory under `CI=true`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::ports::{
    AccountQuery, AccountRepository, AccountUpdate, AccountWriteError, ApiKeyRepository, StoreError,
};
use tonne_accounts::{
    Account, AccountActivity, AccountChanges, AccountId, AccountIdempotencyKey, AccountName,
    AccountScope, ApiKey, ApiKeySecret, Beneficiary, EncodedLogo, ExternalPagesVisibility, Handle,
    KeyHash, Logo, LogoFormat, LogoId, NameFilter, Organisation, OrganisationType,
};
use tonne_kernel::{
    AccountMode, ApiKeyId, Currency, Cursor, Limit, Money, OrganisationId, PageRequest,
    UuidV7Generator,
};
use tonne_storage::{
    AccountStore, ApiKeyStore, CachedAccounts, CachedApiKeys, DatabaseUrl, Db, Follower,
    PoolSettings,
};
use tonne_test_support::{TestDb, on_both_backends};

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

fn organisation() -> Organisation {
    Organisation {
        id: OrganisationId::generate(&UuidV7Generator),
        name: "Org".into(),
        organisation_type: OrganisationType::Supplier,
        created_at: T0,
    }
}

fn account(org: OrganisationId, mode: AccountMode, scope: AccountScope, name: &str) -> Account {
    Account {
        id: AccountId::generate(&UuidV7Generator),
        organisation_id: org,
        mode,
        scope,
        sibling_id: None,
        name: AccountName::parse(name).unwrap(),
        handle: None,
        external_pages_visibility: ExternalPagesVisibility::Hidden,
        organisation_type: OrganisationType::Supplier,
        idempotency_key: None,
        currency: Currency::Sek,
        balance: Money::from_minor(2350, Currency::Sek),
        balance_outstanding: Money::from_minor(-13250, Currency::Sek),
        logo: None,
        beneficiary: Some(Beneficiary::parse("Jane Doe").unwrap()),
        bundle_portfolio_id: None,
        created_at: T0,
        updated_at: T0,
    }
}

fn pair(org: OrganisationId, name: &str) -> (Account, Account) {
    let mut live = account(org, AccountMode::Live, AccountScope::Account, name);
    let mut test = account(org, AccountMode::Test, AccountScope::Account, name);
    live.sibling_id = Some(test.id);
    test.sibling_id = Some(live.id);
    (live, test)
}

async fn seeded(repo: &AccountStore) -> (Organisation, Account, Account) {
    let org = organisation();
    let (live, test) = pair(org.id, "Acme");
    repo.create_organisation(&org, &live, &test, None)
        .await
        .unwrap();
    (org, live, test)
}

fn key(account: &Account, secret: &ApiKeySecret) -> ApiKey {
    ApiKey {
        id: ApiKeyId::generate(&UuidV7Generator),
        organisation_id: account.organisation_id,
        mode: account.mode,
        account_id: account.id,
        account_scope: account.scope,
        hash: KeyHash::of(secret.expose()),
        display_prefix: secret.display_prefix(),
        created_at: T0,
        revoked_at: None,
        last_used_at: None,
    }
}

/// A new PNG logo of `account`.
fn png_logo(account: &Account, bytes: Vec<u8>, at: OffsetDateTime) -> Logo {
    Logo {
        id: LogoId::generate(&UuidV7Generator),
        account_id: account.id,
        image: EncodedLogo {
            format: LogoFormat::Png,
            bytes,
        },
        created_at: at,
    }
}

// ---- cases ----

async fn migrations_revert_and_reapply(t: TestDb) {
    t.db().revert_all().unwrap();
    let applied = t.db().migrate().unwrap();
    assert!(!applied.is_empty());
    assert!(
        t.db().migrate().unwrap().is_empty(),
        "a second run applies nothing"
    );
    let repo = AccountStore::new(t.db().clone());
    seeded(&repo).await;
}

async fn organisations_and_pairs_round_trip(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    assert!(!repo.any_organisation().await.unwrap());
    let (org, live, test) = seeded(&repo).await;
    assert!(repo.any_organisation().await.unwrap());
    assert_eq!(repo.organisation(org.id).await.unwrap(), Some(org.clone()));
    assert_eq!(repo.get(live.id).await.unwrap(), Some(live.clone()));
    assert_eq!(
        repo.get(test.id).await.unwrap().unwrap().sibling_id,
        Some(live.id)
    );
    assert_eq!(
        repo.first_of_mode(org.id, AccountMode::Test).await.unwrap(),
        Some(test)
    );
    assert_eq!(
        repo.get(AccountId::generate(&UuidV7Generator))
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        repo.organisation(OrganisationId::generate(&UuidV7Generator))
            .await
            .unwrap(),
        None
    );
}

async fn a_broken_pair_writes_nothing(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, _, _) = seeded(&repo).await;
    let (live, mut test) = pair(org.id, "Half");
    test.sibling_id = Some(AccountId::generate(&UuidV7Generator)); // points nowhere
    assert!(repo.insert_pair(&live, &test).await.is_err());
    assert_eq!(
        repo.get(live.id).await.unwrap(),
        None,
        "the live half was rolled back"
    );
    assert_eq!(repo.get(test.id).await.unwrap(), None);
    // a duplicate id is reported as such
    let (l2, t2) = pair(org.id, "Dup");
    repo.insert_pair(&l2, &t2).await.unwrap();
    assert!(matches!(
        repo.insert_client(
            &{
                let mut c = l2.clone();
                c.scope = AccountScope::ClientAccount;
                c.sibling_id = None;
                c
            },
            None
        )
        .await,
        Err(AccountWriteError::Store(StoreError::Duplicate))
    ));
}

async fn lists_page_by_keyset_within_organisation_mode_and_scope(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, _, _) = seeded(&repo).await;
    let (other_org, _, _) = seeded(&repo).await;
    for i in 0..24 {
        let (l, t) = pair(org.id, &format!("Shop_{i:02}"));
        repo.insert_pair(&l, &t).await.unwrap();
    }
    repo.insert_client(
        &account(
            org.id,
            AccountMode::Live,
            AccountScope::ClientAccount,
            "Client",
        ),
        None,
    )
    .await
    .unwrap();
    let query = AccountQuery {
        organisation_id: org.id,
        mode: AccountMode::Live,
        scope: AccountScope::Account,
        name: None,
    };
    let mut seen = Vec::new();
    let mut after = None;
    let mut pages = Vec::new();
    loop {
        let page = repo
            .list(
                &query,
                &PageRequest {
                    limit: Limit::new(10).unwrap(),
                    after,
                },
            )
            .await
            .unwrap();
        pages.push((page.items.len(), page.has_more));
        after = page.items.last().map(|a| Cursor::after(&a.id));
        seen.extend(page.items.into_iter().map(|a| {
            assert_eq!(
                (a.organisation_id, a.mode, a.scope),
                (org.id, AccountMode::Live, AccountScope::Account)
            );
            a.id
        }));
        if !page.has_more {
            break;
        }
    }
    assert_eq!(pages, vec![(10, true), (10, true), (5, false)]);
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(seen, sorted, "ascending, no duplicates");
    assert_eq!(seen.len(), 25);

    let other = AccountQuery {
        organisation_id: other_org.id,
        ..query.clone()
    };
    assert_eq!(
        repo.list(&other, &PageRequest::first())
            .await
            .unwrap()
            .items
            .len(),
        1
    );
    let clients = AccountQuery {
        scope: AccountScope::ClientAccount,
        ..query.clone()
    };
    assert_eq!(
        repo.list(&clients, &PageRequest::first())
            .await
            .unwrap()
            .items
            .len(),
        1
    );

    // case-insensitive substring; `_` is literal, not a wildcard
    let named = |n: &str| AccountQuery {
        name: Some(NameFilter::parse(n).unwrap()),
        ..query.clone()
    };
    let hits = repo
        .list(
            &named("shop_1"),
            &PageRequest {
                limit: Limit::new(100).unwrap(),
                after: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(hits.items.len(), 10);
    let none = repo
        .list(&named("hop1"), &PageRequest::first())
        .await
        .unwrap();
    assert!(none.items.is_empty());
    let acme = repo
        .list(&named("ACM"), &PageRequest::first())
        .await
        .unwrap();
    assert_eq!(acme.items.len(), 1);
}

async fn an_update_renames_the_sibling_atomically(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (_, live, test) = seeded(&repo).await;
    let at = datetime!(2026-05-01 00:00:00.5 UTC);
    let changes = AccountChanges {
        name: AccountName::parse("Renamed").unwrap(),
        beneficiary: None,
        bundle_portfolio_id: None,
        handle: Some(Handle::parse("renamed").unwrap()),
        external_pages_visibility: ExternalPagesVisibility::Public,
    };
    let updated = repo
        .update(&AccountUpdate {
            id: live.id,
            changes: changes.clone(),
            rename_sibling: Some(test.id),
            updated_at: at,
        })
        .await
        .unwrap();
    assert_eq!(updated.name.as_str(), "Renamed");
    assert_eq!(updated.beneficiary, None, "an absent beneficiary clears it");
    assert_eq!(updated.handle.as_ref().map(Handle::as_str), Some("renamed"));
    assert_eq!(
        updated.external_pages_visibility,
        ExternalPagesVisibility::Public
    );
    assert_eq!(updated.organisation_type, OrganisationType::Supplier);
    assert_eq!(updated.updated_at, at);
    assert_eq!(
        repo.get(test.id).await.unwrap().unwrap().name.as_str(),
        "Renamed"
    );
    assert_eq!(
        repo.get(test.id)
            .await
            .unwrap()
            .unwrap()
            .beneficiary
            .unwrap()
            .as_str(),
        "Jane Doe"
    );

    // a sibling that is not there rolls the whole change back
    let failing = AccountChanges {
        name: AccountName::parse("Never").unwrap(),
        ..changes.clone()
    };
    let result = repo
        .update(&AccountUpdate {
            id: live.id,
            changes: failing,
            rename_sibling: Some(AccountId::generate(&UuidV7Generator)),
            updated_at: at,
        })
        .await;
    assert!(result.is_err());
    assert_eq!(
        repo.get(live.id).await.unwrap().unwrap().name.as_str(),
        "Renamed"
    );

    let missing = repo
        .update(&AccountUpdate {
            id: AccountId::generate(&UuidV7Generator),
            changes,
            rename_sibling: None,
            updated_at: at,
        })
        .await;
    assert!(matches!(
        missing,
        Err(AccountWriteError::Store(StoreError::NotFound))
    ));
}

fn client(org: OrganisationId, mode: AccountMode, name: &str) -> Account {
    account(org, mode, AccountScope::ClientAccount, name)
}

fn handle(value: &str) -> Option<Handle> {
    Some(Handle::parse(value).unwrap())
}

async fn handles_are_unique_per_organisation_and_mode(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, live, _) = seeded(&repo).await;
    let (other, _, _) = seeded(&repo).await;
    // NULL handles never collide.
    repo.insert_client(&client(org.id, AccountMode::Live, "A"), None)
        .await
        .unwrap();
    repo.insert_client(&client(org.id, AccountMode::Live, "B"), None)
        .await
        .unwrap();
    let mut first = client(org.id, AccountMode::Live, "C");
    first.handle = handle("acme");
    repo.insert_client(&first, None).await.unwrap();
    assert_eq!(
        repo.get(first.id).await.unwrap().unwrap().handle,
        handle("acme")
    );
    let mut again = client(org.id, AccountMode::Live, "D");
    again.handle = handle("acme");
    assert!(matches!(
        repo.insert_client(&again, None).await,
        Err(AccountWriteError::HandleTaken)
    ));
    assert_eq!(repo.get(again.id).await.unwrap(), None, "nothing written");
    // The other mode and another organisation may use it.
    let mut test_mode = client(org.id, AccountMode::Test, "E");
    test_mode.handle = handle("acme");
    repo.insert_client(&test_mode, None).await.unwrap();
    let mut elsewhere = client(other.id, AccountMode::Live, "F");
    elsewhere.handle = handle("acme");
    repo.insert_client(&elsewhere, None).await.unwrap();
    // A pair whose handle is taken writes neither half.
    let (mut l, mut t2) = pair(org.id, "G");
    l.handle = handle("acme");
    t2.handle = handle("g-test");
    assert!(matches!(
        repo.insert_pair(&l, &t2).await,
        Err(AccountWriteError::HandleTaken)
    ));
    assert_eq!(repo.get(t2.id).await.unwrap(), None);
    // An update to a taken handle changes nothing.
    let result = repo
        .update(&AccountUpdate {
            id: live.id,
            changes: AccountChanges {
                name: live.name.clone(),
                beneficiary: None,
                bundle_portfolio_id: None,
                handle: handle("acme"),
                external_pages_visibility: ExternalPagesVisibility::Public,
            },
            rename_sibling: None,
            updated_at: T0,
        })
        .await;
    assert!(matches!(result, Err(AccountWriteError::HandleTaken)));
    let unchanged = repo.get(live.id).await.unwrap().unwrap();
    assert_eq!(unchanged.handle, None);
    assert_eq!(
        unchanged.external_pages_visibility,
        ExternalPagesVisibility::Hidden
    );
}

async fn a_client_idempotency_key_creates_exactly_one_account(t: TestDb) {
    let repo = Arc::new(AccountStore::new(t.db().clone()));
    let (org, _, _) = seeded(&repo).await;
    let key = AccountIdempotencyKey::parse("create-client-1").unwrap();
    let attempts = (0..8).map(|i| {
        let repo = Arc::clone(&repo);
        let mut c = client(org.id, AccountMode::Live, &format!("Client {i}"));
        c.idempotency_key = Some(key.clone());
        tokio::spawn(async move { repo.insert_client(&c, None).await })
    });
    let mut created = 0;
    for attempt in attempts {
        match attempt.await.unwrap() {
            Ok(()) => created += 1,
            Err(AccountWriteError::IdempotencyKeyTaken) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(created, 1, "exactly one client account per key");
    // The same key in the other mode is another key.
    let mut test_mode = client(org.id, AccountMode::Test, "T");
    test_mode.idempotency_key = Some(key.clone());
    repo.insert_client(&test_mode, None).await.unwrap();
    let stored = repo.get(test_mode.id).await.unwrap().unwrap();
    assert_eq!(stored.idempotency_key, Some(key));
}

async fn activity_counts_and_sums_each_accounts_estimates(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, _, _) = seeded(&repo).await;
    let busy = client(org.id, AccountMode::Live, "Busy");
    let idle = client(org.id, AccountMode::Live, "Idle");
    let other = client(org.id, AccountMode::Live, "Other");
    for c in [&busy, &idle, &other] {
        repo.insert_client(c, None).await.unwrap();
    }
    let rows = [
        ("e1", &busy, Some(1_500_000_i64), "2026-05-01 10:00:00"),
        ("e2", &busy, Some(250_000), "2026-05-03 08:30:00"),
        ("e3", &busy, None, "2026-05-02 00:00:00"),
        ("e4", &other, Some(7), "2026-04-01 00:00:00"),
    ];
    for (id, account, grams, at) in rows {
        let sql = format!(
            "INSERT INTO estimates (id, account_id, kind, mass_grams, request, result, created_at, updated_at)              VALUES ('{id}', '{}', 'transaction', {}, '{{}}', '{{}}', '{at}', '{at}')",
            account.id,
            grams.map_or("NULL".to_owned(), |g| g.to_string()),
        );
        tonne_test_support::execute(t.db(), sql).await;
    }
    let activity = repo.activity(&[busy.id, idle.id]).await.unwrap();
    assert_eq!(
        activity.len(),
        1,
        "only accounts with estimates, only those asked"
    );
    let (id, a) = activity[0];
    assert_eq!(id, busy.id);
    assert_eq!(
        a,
        AccountActivity {
            last_active: Some(datetime!(2026-05-03 08:30:00 UTC)),
            number_of_estimates: 3,
            total_emissions: tonne_kernel::Mass::from_grams(1_750_000),
        }
    );
}

async fn logos_round_trip_and_replace_the_previous_one(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (_, live, _) = seeded(&repo).await;
    let logo = |bytes: Vec<u8>| png_logo(&live, bytes, datetime!(2026-06-01 00:00 UTC));
    let first = logo(vec![1, 2, 3]);
    let updated = repo
        .set_logo(&first, "https://tonne.example/logos/1")
        .await
        .unwrap();
    assert_eq!(
        updated.logo.as_deref(),
        Some("https://tonne.example/logos/1")
    );
    assert_eq!(updated.updated_at, first.created_at);
    assert_eq!(repo.logo(first.id).await.unwrap(), Some(first.clone()));
    let second = logo((0..=255).collect());
    repo.set_logo(&second, "https://tonne.example/logos/2")
        .await
        .unwrap();
    assert_eq!(repo.logo(first.id).await.unwrap(), None, "replaced");
    assert_eq!(
        repo.logo(second.id)
            .await
            .unwrap()
            .unwrap()
            .image
            .bytes
            .len(),
        256
    );
    let mut orphan = logo(vec![9]);
    orphan.account_id = AccountId::generate(&UuidV7Generator);
    assert!(matches!(
        repo.set_logo(&orphan, "x").await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(repo.logo(orphan.id).await.unwrap(), None);

    // deleting clears the account's logo and drops the stored image
    let later = datetime!(2026-06-02 00:00 UTC);
    let cleared = repo.delete_logo(live.id, later).await.unwrap();
    assert_eq!(cleared.logo, None);
    assert_eq!(cleared.updated_at, later);
    assert_eq!(repo.get(live.id).await.unwrap().unwrap().logo, None);
    assert_eq!(repo.logo(second.id).await.unwrap(), None, "deleted");
    // twice: still none (the service does not even ask); an unknown account
    assert_eq!(repo.delete_logo(live.id, later).await.unwrap().logo, None);
    assert!(matches!(
        repo.delete_logo(orphan.account_id, later).await,
        Err(StoreError::NotFound)
    ));
}

async fn keys_are_found_by_hash_listed_and_revoked(t: TestDb) {
    let accounts = AccountStore::new(t.db().clone());
    let (org, live, test) = seeded(&accounts).await;
    let client = account(
        org.id,
        AccountMode::Test,
        AccountScope::ClientAccount,
        "Client",
    );
    accounts.insert_client(&client, None).await.unwrap();
    let keys = ApiKeyStore::new(t.db().clone());
    let s1 = ApiKeySecret::generate(AccountMode::Live);
    let s2 = ApiKeySecret::generate(AccountMode::Test);
    let k1 = key(&live, &s1);
    let k2 = key(&client, &s2);
    keys.insert(&k1, None).await.unwrap();
    keys.insert(&k2, None).await.unwrap();
    assert!(matches!(
        keys.insert(
            &ApiKey {
                id: ApiKeyId::generate(&UuidV7Generator),
                ..k1.clone()
            },
            None
        )
        .await,
        Err(StoreError::Duplicate)
    ));
    assert_eq!(
        keys.find_by_hash(&KeyHash::of(s1.expose())).await.unwrap(),
        Some(k1.clone())
    );
    let found = keys
        .find_by_hash(&KeyHash::of(s2.expose()))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.account_scope, AccountScope::ClientAccount);
    assert_eq!(
        keys.find_by_hash(&KeyHash::of("tonne_live_nope"))
            .await
            .unwrap(),
        None
    );
    assert_eq!(keys.list(org.id).await.unwrap().len(), 2);
    let at = datetime!(2026-06-01 00:00 UTC);
    // a use is recorded on the key
    keys.touch(&k1, at).await.unwrap();
    assert_eq!(
        keys.get(k1.id).await.unwrap().unwrap().last_used_at,
        Some(at)
    );
    let revoked = keys.revoke(k1.id, at, None).await.unwrap();
    assert_eq!(revoked.revoked_at, Some(at));
    let again = keys
        .revoke(k1.id, datetime!(2027-01-01 00:00 UTC), None)
        .await
        .unwrap();
    assert_eq!(
        again.revoked_at,
        Some(at),
        "the first revocation time is kept"
    );
    assert!(matches!(
        keys.revoke(ApiKeyId::generate(&UuidV7Generator), at, None)
            .await,
        Err(StoreError::NotFound)
    ));
    let _ = test;
}

async fn a_cached_key_sees_revocation_elsewhere_within_its_ttl(t: TestDb) {
    let accounts = AccountStore::new(t.db().clone());
    let (_, live, _) = seeded(&accounts).await;
    let store: Arc<dyn ApiKeyRepository> = Arc::new(ApiKeyStore::new(t.db().clone()));
    let ttl = Duration::from_millis(300);
    let cached = CachedApiKeys::new(Arc::clone(&store), ttl, 1000);
    let secret = ApiKeySecret::generate(AccountMode::Live);
    let k = key(&live, &secret);
    let hash = KeyHash::of(secret.expose());
    cached.insert(&k, None).await.unwrap();
    assert!(
        cached
            .find_by_hash(&hash)
            .await
            .unwrap()
            .unwrap()
            .revoked_at
            .is_none()
    );
    // revoked by "another process": the cache may still serve it, but not beyond the TTL
    store.revoke(k.id, T0, None).await.unwrap();
    tokio::time::sleep(ttl + Duration::from_millis(100)).await;
    assert!(
        cached
            .find_by_hash(&hash)
            .await
            .unwrap()
            .unwrap()
            .revoked_at
            .is_some()
    );

    // revoked through the cache itself: at once
    let secret2 = ApiKeySecret::generate(AccountMode::Live);
    let k2 = key(&live, &secret2);
    cached.insert(&k2, None).await.unwrap();
    let hash2 = KeyHash::of(secret2.expose());
    assert!(
        cached
            .find_by_hash(&hash2)
            .await
            .unwrap()
            .unwrap()
            .revoked_at
            .is_none()
    );
    cached.revoke(k2.id, T0, None).await.unwrap();
    assert!(
        cached
            .find_by_hash(&hash2)
            .await
            .unwrap()
            .unwrap()
            .revoked_at
            .is_some()
    );
}

/// On PostgreSQL a revocation announced by another process reaches a
/// following cache long before its TTL; on SQLite there is nothing to follow.
async fn a_following_cache_forgets_a_key_revoked_elsewhere_at_once(t: TestDb) {
    let accounts = AccountStore::new(t.db().clone());
    let (_, live, _) = seeded(&accounts).await;
    let store: Arc<dyn ApiKeyRepository> = Arc::new(ApiKeyStore::new(t.db().clone()));
    let cached = Arc::new(CachedApiKeys::new(
        Arc::clone(&store),
        Duration::from_secs(3600),
        1000,
    ));
    let following = cached.follow_revocations(t.db());
    assert_eq!(
        following,
        t.db().backend() == tonne_storage::Backend::Postgres
    );
    if !following {
        return;
    }
    let secret = ApiKeySecret::generate(AccountMode::Live);
    let k = key(&live, &secret);
    let hash = KeyHash::of(secret.expose());
    cached.insert(&k, None).await.unwrap();
    // the listener forgets every key once connected: wait until a hit stays cached
    let cached_now = || async {
        cached
            .find_by_hash(&hash)
            .await
            .unwrap()
            .unwrap()
            .revoked_at
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(cached_now().await.is_none());
    // revoked by "another process": announced on commit, forgotten well within the TTL
    store.revoke(k.id, T0, None).await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while cached_now().await.is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the revocation was not announced"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A rename of `account` (and of its sibling with it) at `at`.
fn rename(account: &Account, sibling: Option<AccountId>, name: &str) -> AccountUpdate {
    AccountUpdate {
        id: account.id,
        changes: AccountChanges {
            name: AccountName::parse(name).unwrap(),
            beneficiary: None,
            bundle_portfolio_id: None,
            handle: None,
            external_pages_visibility: ExternalPagesVisibility::Public,
        },
        rename_sibling: sibling,
        updated_at: datetime!(2026-05-01 00:00:00 UTC),
    }
}

async fn a_cached_account_is_forgotten_when_changed_within_its_ttl(t: TestDb) {
    let store = Arc::new(AccountStore::new(t.db().clone()));
    let (_, live, test) = seeded(&store).await;
    let ttl = Duration::from_millis(300);
    let inner: Arc<dyn AccountRepository> = store.clone();
    let cached = CachedAccounts::new(inner, ttl, 1000);
    let name = |a: Option<Account>| a.unwrap().name.as_str().to_owned();
    assert_eq!(name(cached.get(live.id).await.unwrap()), "Acme");
    assert!(
        cached
            .get(AccountId::generate(&UuidV7Generator))
            .await
            .unwrap()
            .is_none()
    );

    // changed by "another process": the cache may still serve it, but not beyond the TTL
    store
        .update(&rename(&live, Some(test.id), "Elsewhere"))
        .await
        .unwrap();
    tokio::time::sleep(ttl + Duration::from_millis(100)).await;
    assert_eq!(name(cached.get(live.id).await.unwrap()), "Elsewhere");

    // changed through the cache itself: at once, the sibling renamed with it too
    assert_eq!(name(cached.get(test.id).await.unwrap()), "Elsewhere");
    cached
        .update(&rename(&live, Some(test.id), "Here"))
        .await
        .unwrap();
    assert_eq!(name(cached.get(live.id).await.unwrap()), "Here");
    assert_eq!(name(cached.get(test.id).await.unwrap()), "Here");
    let logo = png_logo(&live, vec![1, 2, 3], T0);
    cached
        .set_logo(&logo, "https://logo.example/1")
        .await
        .unwrap();
    assert_eq!(
        cached.get(live.id).await.unwrap().unwrap().logo.as_deref(),
        Some("https://logo.example/1")
    );
    cached.delete_logo(live.id, T0).await.unwrap();
    assert_eq!(cached.get(live.id).await.unwrap().unwrap().logo, None);
}

/// A following cache forgets an account changed through another store of its
/// process once the change commits, on both backends; on PostgreSQL one changed
/// by another process (its own pool) as soon as the announcement arrives.
async fn a_following_cache_forgets_an_account_changed_elsewhere_at_once(t: TestDb) {
    let store = Arc::new(AccountStore::new(t.db().clone()));
    let (_, live, test) = seeded(&store).await;
    let inner: Arc<dyn AccountRepository> = store.clone();
    let cached = Arc::new(CachedAccounts::new(inner, Duration::from_secs(3600), 1000));
    let follower: Arc<dyn Follower> = cached.clone();
    let following = tonne_storage::follow(t.db(), &[follower]);
    assert_eq!(
        following,
        t.db().backend() == tonne_storage::Backend::Postgres
    );
    let name = |a: Option<Account>| a.unwrap().name.as_str().to_owned();
    // the listener forgets everything once connected: then a hit stays cached
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(name(cached.get(live.id).await.unwrap()), "Acme");

    // through another store of this process (the same pool): at once
    store
        .update(&rename(&live, Some(test.id), "Here"))
        .await
        .unwrap();
    assert_eq!(name(cached.get(live.id).await.unwrap()), "Here");
    if !following {
        return;
    }

    // by another process: announced on commit, forgotten well within the TTL
    assert_eq!(name(cached.get(test.id).await.unwrap()), "Here");
    let url = DatabaseUrl::parse(t.url()).unwrap();
    let elsewhere = AccountStore::new(Db::connect(&url, PoolSettings::default()).unwrap());
    elsewhere
        .update(&rename(&live, Some(test.id), "Announced"))
        .await
        .unwrap();
    for id in [live.id, test.id] {
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while name(cached.get(id).await.unwrap()) != "Announced" {
            assert!(
                std::time::Instant::now() < deadline,
                "the change was not announced"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    // a change that rolls back announces nothing: the cached copy stays (and is right)
    let failing = rename(
        &live,
        Some(AccountId::generate(&UuidV7Generator)),
        "Rolled back",
    );
    assert!(elsewhere.update(&failing).await.is_err());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(name(cached.get(live.id).await.unwrap()), "Announced");
}

async fn organisations_are_listed_oldest_first_by_keyset(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let mut ids = Vec::new();
    for n in 0..3 {
        let org = Organisation {
            name: format!("Org {n}"),
            ..organisation()
        };
        let (live, test) = pair(org.id, "Main");
        repo.create_organisation(&org, &live, &test, None)
            .await
            .unwrap();
        ids.push(org.id);
    }
    let page = |after: Option<OrganisationId>| PageRequest {
        limit: Limit::new(2).unwrap(),
        after: after.map(|id| Cursor::after(&id)),
    };
    let first = repo.list_organisations(&page(None)).await.unwrap();
    assert_eq!(
        first.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        ids[..2]
    );
    assert!(first.has_more);
    let second = repo.list_organisations(&page(Some(ids[1]))).await.unwrap();
    assert_eq!(
        second.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        ids[2..]
    );
    assert!(!second.has_more);
    let unknown = OrganisationId::generate(&UuidV7Generator);
    assert!(matches!(
        repo.list_organisations(&page(Some(unknown))).await,
        Err(StoreError::NotFound)
    ));
}

/// `by_reference`: the accounts of an organisation and mode with a handle or
/// an idempotency key, either scope, by id; another mode or organisation,
/// or neither name, matches nothing.
async fn accounts_are_found_by_handle_or_idempotency_key(t: TestDb) {
    let repo = AccountStore::new(t.db().clone());
    let (org, live, _) = seeded(&repo).await;
    let mut by_handle = client(org.id, AccountMode::Live, "By handle");
    by_handle.handle = Some(Handle::parse("acme-eu").unwrap());
    repo.insert_client(&by_handle, None).await.unwrap();
    let mut by_key = client(org.id, AccountMode::Live, "By key");
    by_key.idempotency_key = Some(AccountIdempotencyKey::parse("client-7").unwrap());
    repo.insert_client(&by_key, None).await.unwrap();
    let handle = |h: &str| Some(Handle::parse(h).unwrap());
    let key = |k: &str| Some(AccountIdempotencyKey::parse(k).unwrap());
    let ids = |found: Vec<Account>| found.into_iter().map(|a| a.id).collect::<Vec<_>>();

    let found = repo
        .by_reference(org.id, AccountMode::Live, handle("acme-eu"), None)
        .await
        .unwrap();
    assert_eq!(ids(found.clone()), vec![by_handle.id]);
    assert_eq!(found[0].scope, AccountScope::ClientAccount);
    assert_eq!(
        ids(repo
            .by_reference(org.id, AccountMode::Live, None, key("client-7"))
            .await
            .unwrap()),
        vec![by_key.id]
    );
    // a handle of one and a key of another: both, by id
    let mut both = vec![by_handle.id, by_key.id];
    both.sort_by_key(ToString::to_string);
    assert_eq!(
        ids(repo
            .by_reference(
                org.id,
                AccountMode::Live,
                handle("acme-eu"),
                key("client-7")
            )
            .await
            .unwrap()),
        both
    );
    // a regular account's handle is found too (the caller tells them apart)
    let mut regular = live.clone();
    regular.handle = handle("main");
    repo.update(&AccountUpdate {
        id: live.id,
        changes: AccountChanges {
            name: live.name.clone(),
            beneficiary: live.beneficiary.clone(),
            bundle_portfolio_id: None,
            handle: regular.handle.clone(),
            external_pages_visibility: live.external_pages_visibility,
        },
        rename_sibling: None,
        updated_at: T0,
    })
    .await
    .unwrap();
    let found = repo
        .by_reference(org.id, AccountMode::Live, handle("main"), None)
        .await
        .unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].scope, AccountScope::Account);
    // nothing elsewhere
    for (o, mode, h, k) in [
        (
            org.id,
            AccountMode::Test,
            handle("acme-eu"),
            key("client-7"),
        ),
        (
            OrganisationId::generate(&UuidV7Generator),
            AccountMode::Live,
            handle("acme-eu"),
            None,
        ),
        (org.id, AccountMode::Live, None, None),
        (org.id, AccountMode::Live, handle("nobody"), key("nothing")),
    ] {
        assert!(repo.by_reference(o, mode, h, k).await.unwrap().is_empty());
    }
}

on_both_backends!(
    accounts_are_found_by_handle_or_idempotency_key,
    migrations_revert_and_reapply,
    organisations_are_listed_oldest_first_by_keyset,
    organisations_and_pairs_round_trip,
    a_broken_pair_writes_nothing,
    lists_page_by_keyset_within_organisation_mode_and_scope,
    an_update_renames_the_sibling_atomically,
    handles_are_unique_per_organisation_and_mode,
    a_client_idempotency_key_creates_exactly_one_account,
    activity_counts_and_sums_each_accounts_estimates,
    logos_round_trip_and_replace_the_previous_one,
    keys_are_found_by_hash_listed_and_revoked,
    a_cached_key_sees_revocation_elsewhere_within_its_ttl,
    a_following_cache_forgets_a_key_revoked_elsewhere_at_once,
    a_cached_account_is_forgotten_when_changed_within_its_ttl,
    a_following_cache_forgets_an_account_changed_elsewhere_at_once,
);

#[test]
fn migration_folders_match() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
    let list = |side: &str| {
        let mut names: Vec<String> = std::fs::read_dir(root.join(side))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(list("postgres"), list("sqlite"));
    for name in list("postgres") {
        for side in ["postgres", "sqlite"] {
            for file in ["up.sql", "down.sql"] {
                assert!(
                    root.join(side).join(&name).join(file).is_file(),
                    "{side}/{name}/{file}"
                );
            }
        }
    }
}

mod catalogue_cases {
    use rust_decimal::Decimal;
    use time::macros::datetime;
    use tonne_kernel::{Currency, Cursor, Limit, Mass, MassUnit, Money, PageRequest};
    use tonne_ordering::ports::{Catalogue, CatalogueRepository, Visibility};
    use tonne_ordering::{
        Approach, Bundle, BundleId, BundlePortfolio, BundlePortfolioId, BundlePrice,
        CarbonPermanence, Media, OffsetType, Project, ProjectFacts, ProjectId, Registry,
    };
    use tonne_storage::CatalogueStore;
    use tonne_test_support::TestDb;
    use uuid::Uuid;

    fn project(n: u128, bundles: Vec<BundleId>) -> Project {
        Project {
            id: ProjectId::from_uuid(Uuid::from_u128(n)),
            slug: format!("project-{n}"),
            name: format!("Project {n}"),
            short_name: format!("P{n}"),
            description: "d".into(),
            project_type: "Biochar".into(),
            registry: Registry::PuroEarth,
            registry_link: None,
            latitude: Decimal::new(-5877, 3),
            longitude: Decimal::new(77612, 3),
            country_name: "Peru".into(),
            country_code: "PER".into(),
            region: Some("San Martín".into()),
            logo: None,
            primary_image: None,
            thumbnail_image: None,
            results: vec!["one".into()],
            un_sdg: vec![13, 15],
            media: vec![Media {
                kind: "image".into(),
                url: "https://x/y.png".into(),
                attribution_text: None,
                attribution_url: None,
            }],
            disabled: false,
            disabled_at: None,
            facts: Default::default(),
            bundle_ids: bundles,
        }
    }

    fn bundle(n: u128, projects: Vec<ProjectId>, disabled: bool, share: Option<u32>) -> Bundle {
        Bundle {
            id: BundleId::from_uuid(Uuid::from_u128(n)),
            name: format!("Bundle {n}"),
            description: None,
            prices: vec![
                BundlePrice {
                    unit_price: Money::from_minor(1218, Currency::Gbp),
                },
                BundlePrice {
                    unit_price: Money::from_minor(1400, Currency::Eur),
                },
            ],
            available: Some(Mass::parse("500", MassUnit::T).unwrap()),
            offset_type: Some(OffsetType::CarbonRemoval),
            permanence: CarbonPermanence::LongTerm,
            approach: Some(Approach::Innovative),
            disabled,
            disabled_at: disabled.then_some(datetime!(2026-05-01 00:00 UTC)),
            background_colour: Some("#112233".into()),
            primary_image: None,
            large_image: None,
            primary_image_hires: None,
            small_thumbnail: None,
            default_share: share,
            project_ids: projects,
        }
    }

    fn catalogue() -> Catalogue {
        let (p1, p2) = (
            ProjectId::from_uuid(Uuid::from_u128(1)),
            ProjectId::from_uuid(Uuid::from_u128(2)),
        );
        let (b1, b2, b3) = (
            BundleId::from_uuid(Uuid::from_u128(11)),
            BundleId::from_uuid(Uuid::from_u128(12)),
            BundleId::from_uuid(Uuid::from_u128(13)),
        );
        let mut first = project(1, vec![b1, b3]);
        first.facts = ProjectFacts {
            crediting_start_date: Some(time::macros::date!(2020 - 01 - 15)),
            crediting_end_date: Some(time::macros::date!(2040 - 01 - 14)),
            registration_date: Some(time::macros::date!(2020 - 05 - 05)),
            protocol: vec!["Verra VCS".into(), "Verra CCB".into()],
            methodology: Some("VM0009".into()),
            durability: Some("100+".into()),
            additional_standards_met: vec!["CCB Gold".into()],
            verifying_body: Some("SCS Global Services".into()),
            risk_of_reversal: Some("Buffer pool".into()),
            risk_of_predicted_emissions: None,
            avg_annual_emission_reductions: Some(Decimal::new(142569, 2)),
        };
        let mut second = bundle(12, vec![p2], false, Some(4000));
        second.permanence = CarbonPermanence::NoStorage;
        second.approach = None;
        second.offset_type = Some(OffsetType::EmissionsReduction);
        Catalogue {
            projects: vec![first, project(2, vec![b2])],
            bundles: vec![
                bundle(11, vec![p1], false, Some(6000)),
                second,
                bundle(13, vec![p1], true, None),
            ],
            portfolios: vec![portfolio()],
            perimeters: vec![],
        }
    }

    fn portfolio() -> BundlePortfolio {
        BundlePortfolio {
            id: BundlePortfolioId::from_uuid(Uuid::from_u128(21)),
            identifier: "mix".into(),
            label: "A mix".into(),
            selection: vec![
                (BundleId::from_uuid(Uuid::from_u128(12)), 2500),
                (BundleId::from_uuid(Uuid::from_u128(11)), 7500),
            ],
        }
    }

    pub async fn an_account_follows_a_portfolio_until_it_sets_its_own_selection(t: TestDb) {
        let store = CatalogueStore::new(t.db().clone());
        let at = datetime!(2026-06-01 00:00 UTC);
        store.import(&catalogue(), at, None).await.unwrap();
        let (live, _) = tonne_test_support::organisation(t.db(), at).await;
        let shares = |picked: Vec<(Bundle, u32)>| {
            picked
                .into_iter()
                .map(|(b, s)| (b.id, s))
                .collect::<Vec<_>>()
        };
        assert!(store.account_selection(live.id).await.unwrap().is_empty());
        assert_eq!(store.portfolios().await.unwrap(), vec![portfolio()]);
        let id = portfolio().id;
        assert_eq!(store.portfolio(id).await.unwrap(), Some(portfolio()));
        assert_eq!(
            store
                .portfolio(BundlePortfolioId::from_uuid(Uuid::from_u128(99)))
                .await
                .unwrap(),
            None
        );

        store.set_account_portfolio(live.id, id).await.unwrap();
        assert_eq!(
            shares(store.account_selection(live.id).await.unwrap()),
            portfolio().selection,
            "the portfolio's selection, in its order"
        );
        let accounts = tonne_storage::AccountStore::new(t.db().clone());
        use tonne_accounts::ports::AccountRepository as _;
        let stored = accounts.get(live.id).await.unwrap().unwrap();
        assert_eq!(
            stored.bundle_portfolio_id.map(|p| p.as_str().to_owned()),
            Some(id.to_string())
        );

        let own = vec![(BundleId::from_uuid(Uuid::from_u128(11)), 10_000)];
        store
            .set_account_selection(live.id, &own, None)
            .await
            .unwrap();
        assert_eq!(shares(store.account_selection(live.id).await.unwrap()), own);
        let stored = accounts.get(live.id).await.unwrap().unwrap();
        assert_eq!(stored.bundle_portfolio_id, None, "no longer following");

        // Following again clears the own selection, in the same transaction.
        store.set_account_portfolio(live.id, id).await.unwrap();
        assert_eq!(
            shares(store.account_selection(live.id).await.unwrap()),
            portfolio().selection
        );
        // A re-import updates the portfolio in place.
        let mut changed = catalogue();
        changed.portfolios[0].selection = vec![(BundleId::from_uuid(Uuid::from_u128(12)), 10_000)];
        let summary = store.import(&changed, at, None).await.unwrap();
        assert_eq!(
            (summary.portfolios_created, summary.portfolios_updated),
            (0, 1)
        );
        assert_eq!(
            shares(store.account_selection(live.id).await.unwrap()),
            vec![(BundleId::from_uuid(Uuid::from_u128(12)), 10_000)]
        );
        // An unknown account is NotFound, and nothing is written.
        let ghost = tonne_kernel::AccountId::from_uuid(Uuid::from_u128(404));
        assert!(matches!(
            store.set_account_portfolio(ghost, id).await,
            Err(tonne_kernel::StoreError::NotFound)
        ));
    }

    pub async fn import_is_idempotent_and_reads_back(t: TestDb) {
        let store = CatalogueStore::new(t.db().clone());
        assert!(store.is_empty().await.unwrap());
        let at = datetime!(2026-06-01 00:00 UTC);
        let first = store.import(&catalogue(), at, None).await.unwrap();
        assert_eq!(
            (
                first.projects_created,
                first.bundles_created,
                first.bundles_updated
            ),
            (2, 3, 0)
        );
        let mut changed = catalogue();
        changed.bundles[0].prices = vec![BundlePrice {
            unit_price: Money::from_minor(999, Currency::Usd),
        }];
        let second = store.import(&changed, at, None).await.unwrap();
        assert_eq!(
            (
                second.projects_created,
                second.projects_updated,
                second.bundles_created,
                second.bundles_updated
            ),
            (0, 2, 0, 3)
        );
        assert!(!store.is_empty().await.unwrap());

        let visible = Visibility {
            disabled_since: None,
        };
        let page = store
            .list_bundles(visible, &PageRequest::first())
            .await
            .unwrap();
        assert_eq!(page.items.len(), 2, "the disabled bundle is hidden");
        let recent = Visibility {
            disabled_since: Some(datetime!(2026-04-01 00:00 UTC)),
        };
        assert_eq!(
            store
                .list_bundles(recent, &PageRequest::first())
                .await
                .unwrap()
                .items
                .len(),
            3
        );
        let old = Visibility {
            disabled_since: Some(datetime!(2026-05-02 00:00 UTC)),
        };
        assert_eq!(
            store
                .list_bundles(old, &PageRequest::first())
                .await
                .unwrap()
                .items
                .len(),
            2
        );

        let one = PageRequest {
            limit: Limit::new(1).unwrap(),
            after: None,
        };
        let p1 = store.list_projects(visible, &one).await.unwrap();
        assert!(p1.has_more);
        let after = PageRequest {
            limit: Limit::new(1).unwrap(),
            after: Some(Cursor::after(&p1.items[0].id)),
        };
        let p2 = store.list_projects(visible, &after).await.unwrap();
        assert!(!p2.has_more);
        assert_ne!(p1.items[0].id, p2.items[0].id);

        let read = store
            .bundles(&[BundleId::from_uuid(Uuid::from_u128(11))])
            .await
            .unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0], changed.bundles[0], "a bundle round-trips whole");
        let project = store.project_by_slug("project-1").await.unwrap().unwrap();
        assert_eq!(project, changed.projects[0], "a project round-trips whole");
        assert_eq!(
            store
                .project(ProjectId::from_uuid(Uuid::from_u128(99)))
                .await
                .unwrap(),
            None
        );
        let defaults = store.default_selection().await.unwrap();
        assert_eq!(
            defaults.iter().map(|b| b.default_share).collect::<Vec<_>>(),
            vec![Some(6000), Some(4000)]
        );
    }
}

mod catalogue_sqlite {
    #[tokio::test]
    async fn import_is_idempotent_and_reads_back() {
        super::catalogue_cases::import_is_idempotent_and_reads_back(
            tonne_test_support::TestDb::sqlite(),
        )
        .await;
    }

    #[tokio::test]
    async fn an_account_follows_a_portfolio_until_it_sets_its_own_selection() {
        super::catalogue_cases::an_account_follows_a_portfolio_until_it_sets_its_own_selection(
            tonne_test_support::TestDb::sqlite(),
        )
        .await;
    }
}

mod catalogue_postgres {
    #[tokio::test]
    async fn import_is_idempotent_and_reads_back() {
        if let Some(db) = tonne_test_support::TestDb::postgres() {
            super::catalogue_cases::import_is_idempotent_and_reads_back(db).await;
        }
    }

    #[tokio::test]
    async fn an_account_follows_a_portfolio_until_it_sets_its_own_selection() {
        if let Some(db) = tonne_test_support::TestDb::postgres() {
            super::catalogue_cases::an_account_follows_a_portfolio_until_it_sets_its_own_selection(
                db,
            )
            .await;
        }
    }
}
