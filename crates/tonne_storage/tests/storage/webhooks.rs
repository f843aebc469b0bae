//! Webhooks' event types on SQLite and PostgreSQL: the `event_types` column
//! written, read back, replaced and cleared; a claimed stream carries its
//! webhook's types and its organisation's pinned version; pending events are
//! only those types; a stream passes over events it does not receive.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::Account;
use tonne_accounts::versions::{ApiVersion, VersionPinRepository as _};
use tonne_kernel::{Actor, AuditEntry};
use tonne_storage::{OrderStore, SecretsKey, VersionPinStore, WebhookStore};
use tonne_test_support::{TestDb, on_both_backends};
use tonne_webhooks::ports::{DeliveryStore as _, WebhookRepository as _};
use tonne_webhooks::{
    EventType, StreamKey, Subscription, TargetPolicy, Webhook, WebhookId, WebhookSecret, WebhookUrl,
};
use uuid::Uuid;

use crate::fixtures;

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);
const T1: OffsetDateTime = datetime!(2026-03-05 10:00:00 UTC);

async fn setup(t: &TestDb) -> Account {
    fixtures::bundle_11_of_two_projects(t, T0).await
}

/// Received → placed → paid: three events, sequences 1 to 3.
async fn paid(store: &OrderStore, account: &Account) {
    fixtures::paid(store, fixtures::order_of_bundle_11(account, T0), T1).await;
}

fn webhook(n: u128, account: &Account, event_types: Option<Vec<EventType>>) -> Webhook {
    Webhook {
        id: WebhookId::from_uuid(Uuid::from_u128(n)),
        organisation_id: account.organisation_id,
        mode: account.mode,
        url: WebhookUrl::parse("https://hooks.example.com/x", TargetPolicy::default()).unwrap(),
        enabled: true,
        account_ids: None,
        event_types,
        secret: WebhookSecret::generate(),
        disabled_reason: None,
        created_at: T0,
        updated_at: T0,
    }
}

fn audit(w: &Webhook) -> AuditEntry {
    AuditEntry::new(T0, Actor::CommandLine, "webhook.created", "webhook", w.id)
        .in_organisation(w.organisation_id)
}

/// Passes stream `key`, of a webhook receiving only completed orders, held
/// by `owner`, from `after`.
async fn pass_completed(
    store: &WebhookStore,
    owner: &str,
    key: StreamKey,
    after: i64,
) -> Option<i64> {
    let only = vec![EventType::OrderCompleted];
    store.pass(owner, key, after, only).await.unwrap()
}

async fn event_types_are_stored_replaced_and_cleared(t: TestDb) {
    let account = setup(&t).await;
    let store = WebhookStore::new(t.db().clone(), Some(SecretsKey::generate()));
    let chosen = vec![EventType::OrderCompleted, EventType::AllocationRetired];
    let mut w = webhook(1, &account, Some(chosen.clone()));
    store.insert(&w, 10, audit(&w)).await.unwrap();
    let other = webhook(2, &account, None);
    store.insert(&other, 10, audit(&other)).await.unwrap();
    assert_eq!(
        store.get(w.id).await.unwrap().unwrap().event_types,
        Some(chosen)
    );
    assert_eq!(
        store.get(other.id).await.unwrap().unwrap().event_types,
        None
    );
    let listed: Vec<_> = store
        .list(w.owner())
        .await
        .unwrap()
        .into_iter()
        .map(|w| w.event_types)
        .collect();
    assert_eq!(listed.len(), 2);
    w.event_types = Some(vec![EventType::OrderFailed]);
    store.update(&w, false, None).await.unwrap();
    assert_eq!(
        store.get(w.id).await.unwrap().unwrap().event_types,
        Some(vec![EventType::OrderFailed])
    );
    w.event_types = None;
    store.update(&w, false, None).await.unwrap();
    assert_eq!(store.get(w.id).await.unwrap().unwrap().event_types, None);
}

async fn a_stream_is_given_only_its_types_and_passes_the_rest(t: TestDb) {
    let account = setup(&t).await;
    let store = WebhookStore::new(t.db().clone(), Some(SecretsKey::generate()));
    let only_paid = webhook(1, &account, Some(vec![EventType::OrderPaid]));
    let only_completed = webhook(2, &account, Some(vec![EventType::OrderCompleted]));
    let every = webhook(3, &account, None);
    for w in [&only_paid, &only_completed, &every] {
        store.insert(w, 10, audit(w)).await.unwrap();
    }
    let orders = OrderStore::new(t.db().clone());
    paid(&orders, &account).await;
    // the organisation's first request pinned the latest version
    VersionPinStore::new(t.db().clone())
        .set(account.organisation_id, ApiVersion::LATEST)
        .await
        .unwrap();
    assert_eq!(store.materialise_streams(T1).await.unwrap(), 3);
    let mut claimed = store
        .claim("d1", T1, T1 + time::Duration::minutes(1), 10)
        .await
        .unwrap();
    claimed.sort_by_key(|s| s.key.webhook_id);
    let subscriptions: Vec<&Subscription> = claimed.iter().map(|s| &s.subscription).collect();
    assert_eq!(
        subscriptions,
        vec![
            &Subscription {
                event_types: Some(vec![EventType::OrderPaid]),
                pinned_version: Some("2024-08-08".into()),
            },
            &Subscription {
                event_types: Some(vec![EventType::OrderCompleted]),
                pinned_version: Some("2024-08-08".into()),
            },
            &Subscription {
                event_types: None,
                pinned_version: Some("2024-08-08".into()),
            },
        ]
    );
    let types = |events: Vec<tonne_webhooks::OutboxEvent>| {
        events
            .into_iter()
            .map(|e| (e.event_type, e.sequence))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        types(
            store
                .pending(account.id, 0, 10, Some(vec![EventType::OrderPaid]))
                .await
                .unwrap()
        ),
        vec![("order.paid".to_owned(), 3)]
    );
    assert_eq!(
        store.pending(account.id, 0, 10, None).await.unwrap().len(),
        3
    );
    assert!(
        store
            .pending(account.id, 0, 10, Some(vec![]))
            .await
            .unwrap()
            .is_empty()
    );
    let key = |w: &Webhook| StreamKey {
        webhook_id: w.id,
        account_id: account.id,
    };
    // an event it receives follows: nothing moves
    assert_eq!(
        store
            .pass("d1", key(&only_paid), 0, vec![EventType::OrderPaid])
            .await
            .unwrap(),
        None
    );
    // another dispatcher's lease, or another position: nothing moves
    assert_eq!(
        pass_completed(&store, "d2", key(&only_completed), 0).await,
        None
    );
    assert_eq!(
        pass_completed(&store, "d1", key(&only_completed), 1).await,
        None
    );
    // nothing it receives: to the account's latest event
    assert_eq!(
        pass_completed(&store, "d1", key(&only_completed), 0).await,
        Some(3)
    );
    // so that it is no longer claimed, nor counted as backlog
    for s in &claimed {
        store.release(s.key, "d1").await.unwrap();
    }
    let again = store
        .claim("d1", T1, T1 + time::Duration::minutes(1), 10)
        .await
        .unwrap();
    assert_eq!(again.len(), 2);
    assert!(again.iter().all(|s| s.key.webhook_id != only_completed.id));
    let backlog = store.oldest_undelivered().await.unwrap();
    assert!(backlog.iter().all(|(id, _)| *id != only_completed.id));
    assert_eq!(backlog.len(), 2);
}

async fn a_claimed_stream_carries_a_pin_before_2024_08_08(t: TestDb) {
    let account = setup(&t).await;
    let store = WebhookStore::new(t.db().clone(), Some(SecretsKey::generate()));
    let w = webhook(1, &account, None);
    store.insert(&w, 10, audit(&w)).await.unwrap();
    paid(&OrderStore::new(t.db().clone()), &account).await;
    // a pin only the operator sets (the 2023 contract's organisations)
    VersionPinStore::new(t.db().clone())
        .set(account.organisation_id, ApiVersion::LATEST)
        .await
        .unwrap();
    tonne_test_support::execute(
        t.db(),
        "UPDATE organisation_api_versions SET version = '2023-01-01'".into(),
    )
    .await;
    store.materialise_streams(T1).await.unwrap();
    let claimed = store
        .claim("d1", T1, T1 + time::Duration::minutes(1), 10)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1);
    let subscription = &claimed[0].subscription;
    assert_eq!(subscription.pinned_version.as_deref(), Some("2023-01-01"));
    assert!(!subscription.wants(EventType::AllocationNew));
    assert_eq!(subscription.only().map(|o| o.len()), Some(7));
}

on_both_backends!(
    event_types_are_stored_replaced_and_cleared,
    a_stream_is_given_only_its_types_and_passes_the_rest,
    a_claimed_stream_carries_a_pin_before_2024_08_08,
);
