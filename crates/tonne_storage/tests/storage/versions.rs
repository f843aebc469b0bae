//! The pinned-version store on SQLite and PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use time::macros::datetime;
use tonne_accounts::versions::{ApiVersion, VersionPinRepository};
use tonne_kernel::{OrganisationId, StoreError, UuidV7Generator};
use tonne_storage::{CachedVersionPins, VersionPinStore};
use tonne_test_support::{TestDb, on_both_backends, organisation};

async fn the_first_pin_wins_and_set_changes_it(t: TestDb) {
    let (live, _) = organisation(t.db(), datetime!(2026-03-04 05:06:07 UTC)).await;
    let org = live.organisation_id;
    let store = VersionPinStore::new(t.db().clone());
    assert_eq!(store.pinned(org).await.unwrap(), None);
    // Two first requests at once pin one version; both answer it.
    let (a, b) = tokio::join!(
        store.pin_first(org, ApiVersion::LATEST),
        store.pin_first(org, ApiVersion::LATEST)
    );
    assert_eq!(a.unwrap(), ApiVersion::LATEST);
    assert_eq!(b.unwrap(), ApiVersion::LATEST);
    assert_eq!(store.pinned(org).await.unwrap(), Some(ApiVersion::LATEST));
    store.set(org, ApiVersion::V2024_08_08).await.unwrap();
    assert_eq!(
        store.pinned(org).await.unwrap(),
        Some(ApiVersion::V2024_08_08)
    );
}

async fn setting_an_unknown_organisation_is_not_found(t: TestDb) {
    let store = VersionPinStore::new(t.db().clone());
    let unknown = OrganisationId::generate(&UuidV7Generator);
    assert!(matches!(
        store.set(unknown, ApiVersion::LATEST).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(store.pinned(unknown).await.unwrap(), None);
}

async fn the_cache_answers_a_pin_and_forgets_it_when_set(t: TestDb) {
    let (live, _) = organisation(t.db(), datetime!(2026-03-04 05:06:07 UTC)).await;
    let org = live.organisation_id;
    let store: Arc<dyn VersionPinRepository> = Arc::new(VersionPinStore::new(t.db().clone()));
    let cached = CachedVersionPins::new(Arc::clone(&store), Duration::from_secs(60));
    assert_eq!(cached.pinned(org).await.unwrap(), None);
    assert_eq!(
        cached.pin_first(org, ApiVersion::LATEST).await.unwrap(),
        ApiVersion::LATEST
    );
    assert_eq!(cached.pinned(org).await.unwrap(), Some(ApiVersion::LATEST));
    cached.set(org, ApiVersion::LATEST).await.unwrap();
    assert_eq!(cached.pinned(org).await.unwrap(), Some(ApiVersion::LATEST));
}

on_both_backends!(
    the_first_pin_wins_and_set_changes_it,
    setting_an_unknown_organisation_is_not_found,
    the_cache_answers_a_pin_and_forgets_it_when_set,
);
