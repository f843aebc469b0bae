//! An order's lifecycle: placing writes the order, its reservation and its
//! event together; inventory never goes below zero; transitions are conditional.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;

use tonne_kernel::{AccountMode, StoreError};
use tonne_ordering::ports::OrderRepository;
use tonne_ordering::{IdempotencyKey, NewEvent, OrderStatus, PlaceError};
use tonne_storage::OrderStore;
use tonne_test_support::TestDb;

use super::fixtures::{T0, account, advance, available, catalogue, event, events, order};

pub(super) async fn placing_writes_the_order_its_reservation_and_its_event_together(t: TestDb) {
    catalogue(&t).await;
    let acct = account(&t, AccountMode::Live).await;
    let store = OrderStore::new(t.db().clone());
    let placed = store
        .place(
            &order(&acct, Some("k1"), "4", 1, T0),
            event(OrderStatus::Received),
        )
        .await
        .unwrap();
    assert_eq!(
        store.get(placed.id).await.unwrap(),
        Some(placed.clone()),
        "round trip"
    );
    assert_eq!(available(&t, 1).await.unwrap().to_tonnes_string(), "6");
    let evs = events(&t).await;
    assert_eq!(evs.len(), 1);
    assert_eq!((evs[0].0.as_str(), evs[0].1), ("order.received", 1));
    let payload: serde_json::Value = serde_json::from_str(&evs[0].2).unwrap();
    assert_eq!(payload["order"]["id"], placed.id.to_string());
    assert_eq!(payload["order"]["status"], "received");
    assert_eq!(placed.payment_method, tonne_ordering::PaymentMethod::Card);
    assert_eq!(
        payload["order"]["payment_method"], "card",
        "the snapshot says how the order is paid"
    );
    assert!(payload["order"]["public_certificate_url"].is_null());

    // The same key again: refused by the unique constraint, and nothing else is written.
    let again = store
        .place(
            &order(&acct, Some("k1"), "1", 1, T0),
            event(OrderStatus::Received),
        )
        .await;
    assert!(
        matches!(again, Err(PlaceError::IdempotencyKeyTaken)),
        "{again:?}"
    );
    assert_eq!(
        available(&t, 1).await.unwrap().to_tonnes_string(),
        "6",
        "the reservation rolled back"
    );
    assert_eq!(events(&t).await.len(), 1);
    let by_key = store
        .by_idempotency_key(acct.id, &IdempotencyKey::parse("k1").unwrap())
        .await
        .unwrap();
    assert_eq!(by_key.map(|o| o.id), Some(placed.id));
}

pub(super) async fn inventory_never_goes_below_zero_under_concurrency(t: TestDb) {
    catalogue(&t).await;
    let acct = account(&t, AccountMode::Live).await;
    let store = Arc::new(OrderStore::new(t.db().clone()));
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let store = Arc::clone(&store);
        let o = order(&acct, None, "1", 1, T0);
        tasks.push(tokio::spawn(async move {
            store.place(&o, event(OrderStatus::Received)).await
        }));
    }
    let mut covered = 0;
    for task in tasks {
        let placed = task.await.unwrap().unwrap();
        if !placed.lines[0].insufficient_available_quantity {
            covered += 1;
        }
    }
    assert_eq!(covered, 10, "10 t available, 20 orders of 1 t");
    assert_eq!(available(&t, 1).await.unwrap().grams(), 0);
    let evs = events(&t).await;
    let sequences: Vec<i64> = evs.iter().map(|e| e.1).collect();
    assert_eq!(
        sequences,
        (1..=20).collect::<Vec<_>>(),
        "gap-free, per account"
    );
}

pub(super) async fn transitions_are_conditional_atomic_with_their_event_and_release_on_cancel(
    t: TestDb,
) {
    catalogue(&t).await;
    let acct = account(&t, AccountMode::Test).await;
    let store = OrderStore::new(t.db().clone());
    let placed = store
        .place(
            &order(&acct, None, "3", 1, T0),
            event(OrderStatus::Received),
        )
        .await
        .unwrap();
    let moved = advance(&store, placed.id, OrderStatus::Placed).await;
    assert_eq!(moved.status, OrderStatus::Placed);
    // A stale `from` loses: nothing happens.
    assert!(matches!(
        store
            .transition(
                placed.id,
                OrderStatus::Received,
                event(OrderStatus::Placed),
                None,
                vec![],
                None
            )
            .await,
        Err(StoreError::NotFound)
    ));

    // Failure injected between the two writes: the event insert collides with an existing
    // event id, so the status change must roll back with it.
    let used = event(OrderStatus::Paid);
    store
        .transition(placed.id, OrderStatus::Placed, used, None, vec![], None)
        .await
        .unwrap();
    let colliding = NewEvent {
        event_id: used.event_id,
        status: OrderStatus::Retiring,
        at: T0,
    };
    assert!(
        store
            .transition(placed.id, OrderStatus::Paid, colliding, None, vec![], None)
            .await
            .is_err()
    );
    assert_eq!(
        store.get(placed.id).await.unwrap().unwrap().status,
        OrderStatus::Paid,
        "no change without its event"
    );
    assert_eq!(events(&t).await.len(), 3, "no event without its change");

    // Cancelling gives the reservation back.
    let second = store
        .place(
            &order(&acct, None, "2", 1, T0),
            event(OrderStatus::Received),
        )
        .await
        .unwrap();
    assert_eq!(available(&t, 1).await.unwrap().to_tonnes_string(), "5");
    advance(&store, second.id, OrderStatus::Cancelled).await;
    assert_eq!(available(&t, 1).await.unwrap().to_tonnes_string(), "7");

    // The test pipeline finds unfinished test orders unchanged since a time.
    let stale = store
        .stale_test_orders(T0 + time::Duration::seconds(1), 10)
        .await
        .unwrap();
    assert_eq!(
        stale.iter().map(|o| o.id).collect::<Vec<_>>(),
        vec![placed.id]
    );
}
