//! PACT clients and their tokens on SQLite and PostgreSQL: stored by hash,
//! bounded per account (concurrent creations included), a client's tokens
//! bounded and gone with its revocation, expired ones swept.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use time::Duration;
use time::macros::datetime;
use tonne_accounts::KeyHash;
use tonne_accounts::pact::{PactClient, PactClientId, PactClientRepository};
use tonne_kernel::UuidV7Generator;
use tonne_storage::PactClientStore;
use tonne_test_support::{TestDb, on_both_backends, organisation};

const AT: time::OffsetDateTime = datetime!(2026-11-29 09:00 UTC);

fn client(account: tonne_kernel::AccountId, n: u32) -> PactClient {
    PactClient {
        id: PactClientId::generate(&UuidV7Generator),
        account_id: account,
        label: format!("client {n}"),
        secret_hash: KeyHash::of(&format!("secret {n}")),
        created_at: AT + Duration::seconds(i64::from(n)),
        revoked_at: None,
    }
}

async fn clients_round_trip_and_are_bounded_per_account(t: TestDb) {
    let (live, test) = organisation(t.db(), AT).await;
    let store = Arc::new(PactClientStore::new(t.db().clone()));
    let first = client(live.id, 1);
    assert!(store.insert(&first, 3).await.unwrap());
    assert_eq!(store.get(first.id).await.unwrap(), Some(first.clone()));
    // eight at once against a bound of three: exactly two more
    let tasks: Vec<_> = (2..10)
        .map(|n| {
            let store = Arc::clone(&store);
            let c = client(live.id, n);
            tokio::spawn(async move { store.insert(&c, 3).await.unwrap() })
        })
        .collect();
    let mut stored = 0;
    for task in tasks {
        stored += usize::from(task.await.unwrap());
    }
    assert_eq!(stored, 2);
    let listed = store.list(live.id).await.unwrap();
    assert_eq!(listed.len(), 3);
    assert!(listed.is_sorted_by_key(|c| c.created_at));
    assert!(store.list(test.id).await.unwrap().is_empty());
    // a revoked one no longer counts
    let revoked = store.revoke(first.id, AT).await.unwrap().unwrap();
    assert_eq!(revoked.revoked_at, Some(AT));
    assert!(store.insert(&client(live.id, 20), 3).await.unwrap());
    assert!(!store.insert(&client(live.id, 21), 3).await.unwrap());
    assert_eq!(
        store
            .revoke(PactClientId::generate(&UuidV7Generator), AT)
            .await
            .unwrap(),
        None
    );
}

async fn tokens_are_bounded_swept_and_end_with_their_client(t: TestDb) {
    let (live, _) = organisation(t.db(), AT).await;
    let store = PactClientStore::new(t.db().clone());
    let c = client(live.id, 1);
    store.insert(&c, 10).await.unwrap();
    let hash = |n: i64| KeyHash::of(&format!("token {n}"));
    for n in 0..5 {
        let issued = AT + Duration::minutes(n);
        store
            .insert_token(c.id, &hash(n), issued, issued + Duration::hours(1), 3)
            .await
            .unwrap();
    }
    // the newest three stand, the oldest two are forgotten
    for n in 0..5 {
        let found = store.token(&hash(n)).await.unwrap();
        assert_eq!(found.is_some(), n >= 2, "token {n}");
    }
    let record = store.token(&hash(4)).await.unwrap().unwrap();
    assert_eq!(record.account_id, live.id);
    assert_eq!(
        record.expires_at,
        AT + Duration::minutes(4) + Duration::hours(1)
    );
    // issued two hours later: every expired one is swept
    let later = AT + Duration::hours(2);
    store
        .insert_token(c.id, &hash(9), later, later + Duration::hours(1), 3)
        .await
        .unwrap();
    for n in 2..5 {
        assert!(store.token(&hash(n)).await.unwrap().is_none(), "token {n}");
    }
    assert!(store.token(&hash(9)).await.unwrap().is_some());
    // revoked: its tokens are gone at once
    store.revoke(c.id, later).await.unwrap();
    assert!(store.token(&hash(9)).await.unwrap().is_none());
}

on_both_backends!(
    clients_round_trip_and_are_bounded_per_account,
    tokens_are_bounded_swept_and_end_with_their_client,
);
