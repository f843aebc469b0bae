//! Cached accounts: forgotten when changed within their TTL, and by a following
//! cache as soon as the change commits or is announced.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;
use std::time::Duration;

use time::macros::datetime;
use tonne_accounts::ports::{AccountRepository, AccountUpdate};
use tonne_accounts::{Account, AccountChanges, AccountId, AccountName, ExternalPagesVisibility};
use tonne_kernel::UuidV7Generator;
use tonne_storage::{AccountStore, CachedAccounts, DatabaseUrl, Db, Follower, PoolSettings};
use tonne_test_support::TestDb;

use super::fixtures::{T0, png_logo, seeded};

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

pub(super) async fn a_cached_account_is_forgotten_when_changed_within_its_ttl(t: TestDb) {
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
pub(super) async fn a_following_cache_forgets_an_account_changed_elsewhere_at_once(t: TestDb) {
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
