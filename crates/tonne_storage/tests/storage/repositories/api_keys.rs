//! API keys: found by hash, listed and revoked; a cached key sees a revocation
//! made elsewhere within its TTL, a following cache at once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;
use std::time::Duration;

use time::macros::datetime;
use tonne_accounts::ports::{AccountRepository, ApiKeyRepository, StoreError};
use tonne_accounts::{AccountScope, ApiKey, ApiKeySecret, KeyHash};
use tonne_kernel::{AccountMode, ApiKeyId, UuidV7Generator};
use tonne_storage::{AccountStore, ApiKeyStore, CachedApiKeys};
use tonne_test_support::TestDb;

use super::fixtures::{T0, account, key, seeded};

pub(super) async fn keys_are_found_by_hash_listed_and_revoked(t: TestDb) {
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

/// When the key of `hash`, as `cached` has it, was revoked.
async fn revoked_at(cached: &CachedApiKeys, hash: &KeyHash) -> Option<time::OffsetDateTime> {
    cached.find_by_hash(hash).await.unwrap().unwrap().revoked_at
}

pub(super) async fn a_cached_key_sees_revocation_elsewhere_within_its_ttl(t: TestDb) {
    let accounts = AccountStore::new(t.db().clone());
    let (_, live, _) = seeded(&accounts).await;
    let store: Arc<dyn ApiKeyRepository> = Arc::new(ApiKeyStore::new(t.db().clone()));
    let ttl = Duration::from_millis(300);
    let cached = CachedApiKeys::new(Arc::clone(&store), ttl, 1000);
    let secret = ApiKeySecret::generate(AccountMode::Live);
    let k = key(&live, &secret);
    let hash = KeyHash::of(secret.expose());
    cached.insert(&k, None).await.unwrap();
    assert!(revoked_at(&cached, &hash).await.is_none());
    // revoked by "another process": the cache may still serve it, but not beyond the TTL
    store.revoke(k.id, T0, None).await.unwrap();
    tokio::time::sleep(ttl + Duration::from_millis(100)).await;
    assert!(revoked_at(&cached, &hash).await.is_some());

    // revoked through the cache itself: at once
    let secret2 = ApiKeySecret::generate(AccountMode::Live);
    let k2 = key(&live, &secret2);
    cached.insert(&k2, None).await.unwrap();
    let hash2 = KeyHash::of(secret2.expose());
    assert!(revoked_at(&cached, &hash2).await.is_none());
    cached.revoke(k2.id, T0, None).await.unwrap();
    assert!(revoked_at(&cached, &hash2).await.is_some());
}

/// On PostgreSQL a revocation announced by another process reaches a
/// following cache long before its TTL; on SQLite there is nothing to follow.
pub(super) async fn a_following_cache_forgets_a_key_revoked_elsewhere_at_once(t: TestDb) {
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
    let cached_now = || async { revoked_at(&cached, &hash).await };
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
