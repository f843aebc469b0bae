//! Order repository contract tests on SQLite and PostgreSQL.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::sync::Arc;

use diesel::prelude::*;
use rust_decimal::Decimal;
use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::Account;
use tonne_estimation::estimate::{
    Annotations, BundleShare, Estimate, EstimateDetail, EstimateKind, Methodology, QuoteTerms,
    ShippingLeg, Submitted,
};
use tonne_estimation::explain::{Explanation, FactorUse, Part, Quantity};
use tonne_estimation::ports::{EstimateRepository as _, UpdateOutcome};
use tonne_kernel::{
    AccountMode, Currency, Cursor, Limit, Mass, MassUnit, Money, PageRequest, StoreError,
    UuidV7Generator,
};
use tonne_ordering::ports::{Catalogue, CatalogueRepository as _, OrderRepository};
use tonne_ordering::{
    AwaitingFilter, Bundle, BundleId, IdempotencyKey, NewEvent, Order, OrderId, OrderKind,
    OrderStatus, PlaceError, QuoteLine,
};
use tonne_storage::{CatalogueStore, EstimateStore, OrderStore};
use tonne_test_support::{TestDb, on_both_backends};
use uuid::Uuid;

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

async fn account(t: &TestDb, mode: AccountMode) -> Account {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    if mode == AccountMode::Live {
        live
    } else {
        test
    }
}

fn bundle(n: u128, available_t: Option<&str>) -> Bundle {
    Bundle {
        available: available_t.map(|a| Mass::parse(a, MassUnit::T).unwrap()),
        ..Bundle::sample(n, 1000)
    }
}

async fn catalogue(t: &TestDb) {
    let store = CatalogueStore::new(t.db().clone());
    store
        .import(
            &Catalogue {
                projects: vec![],
                bundles: vec![bundle(1, Some("10")), bundle(2, None)],
                portfolios: vec![],
                perimeters: vec![],
            },
            T0,
            None,
        )
        .await
        .unwrap();
}

fn order(
    account: &Account,
    key: Option<&str>,
    tonnes: &str,
    bundle_n: u128,
    at: OffsetDateTime,
) -> Order {
    let quantity = Mass::parse(tonnes, MassUnit::T).unwrap();
    let cost = Money::from_minor(quantity.grams() / 100, Currency::Gbp); // 10.00/t
    let commission = Money::from_minor(cost.minor() / 10, Currency::Gbp);
    Order {
        id: OrderId::from_uuid(Uuid::new_v4()),
        account_id: account.id,
        mode: account.mode,
        idempotency_key: key.map(|k| IdempotencyKey::parse(k).unwrap()),
        kind: OrderKind::Quantity,
        status: OrderStatus::Received,
        currency: Currency::Gbp,
        quantity,
        offset_cost: cost,
        commission,
        total_cost: cost.checked_add(commission).unwrap(),
        lines: vec![QuoteLine {
            bundle_id: BundleId::from_uuid(Uuid::from_u128(bundle_n)),
            bundle_name: format!("Bundle {bundle_n}"),
            quantity,
            unit_price: Money::from_minor(1000, Currency::Gbp),
            gross_unit_price: Money::from_minor(1100, Currency::Gbp),
            offset_cost: cost,
            insufficient_available_quantity: false,
        }],
        requested_quantity: Some(quantity),
        requested_value: None,
        metadata: vec![("ref".into(), "A-1".into())],
        offset_link_id: None,
        email: None,
        estimate_id: None,
        // stored and read back as given (not the column's default)
        payment_method: tonne_ordering::PaymentMethod::Card,
        payment_reference: None,
        held: None,
        projects: vec![],
        created_at: at,
        updated_at: at,
    }
}

fn event(status: OrderStatus) -> NewEvent {
    NewEvent {
        event_id: Uuid::new_v4(),
        status,
        at: T0,
    }
}

async fn available(t: &TestDb, n: u128) -> Option<Mass> {
    CatalogueStore::new(t.db().clone())
        .bundles(&[BundleId::from_uuid(Uuid::from_u128(n))])
        .await
        .unwrap()[0]
        .available
}

async fn events(t: &TestDb) -> Vec<(String, i64, String)> {
    use tonne_storage::Conn;
    let sql =
        "SELECT event_type, sequence, payload FROM order_events ORDER BY account_id, sequence";
    t.db()
        .query(move |conn| {
            Box::pin(async move {
                let rows = match conn {
                    Conn::Pg(c) => {
                        diesel_async::RunQueryDsl::load::<EventRow>(
                            diesel::sql_query(sql),
                            &mut **c,
                        )
                        .await?
                    }
                    Conn::Sqlite(c) => {
                        diesel_async::RunQueryDsl::load::<EventRow>(
                            diesel::sql_query(sql),
                            &mut **c,
                        )
                        .await?
                    }
                };
                Ok(rows
                    .into_iter()
                    .map(|r| (r.event_type, r.sequence, r.payload))
                    .collect())
            })
        })
        .await
        .unwrap()
}

#[derive(QueryableByName)]
struct EventRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    event_type: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    sequence: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    payload: String,
}

// ---- cases ----

async fn placing_writes_the_order_its_reservation_and_its_event_together(t: TestDb) {
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

async fn inventory_never_goes_below_zero_under_concurrency(t: TestDb) {
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

async fn transitions_are_conditional_atomic_with_their_event_and_release_on_cancel(t: TestDb) {
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
    let moved = store
        .transition(
            placed.id,
            OrderStatus::Received,
            event(OrderStatus::Placed),
            None,
            vec![],
            None,
        )
        .await
        .unwrap();
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
    store
        .transition(
            second.id,
            OrderStatus::Received,
            event(OrderStatus::Cancelled),
            None,
            vec![],
            None,
        )
        .await
        .unwrap();
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

async fn lists_are_most_recent_first_by_keyset(t: TestDb) {
    catalogue(&t).await;
    let acct = account(&t, AccountMode::Live).await;
    let other = account(&t, AccountMode::Live).await;
    let store = OrderStore::new(t.db().clone());
    let mut ids = Vec::new();
    for i in 0..7 {
        // two orders share each timestamp, so the id breaks ties
        let at = T0 + time::Duration::seconds(i / 2);
        ids.push(
            store
                .place(
                    &order(&acct, None, "0.1", 2, at),
                    event(OrderStatus::Received),
                )
                .await
                .unwrap(),
        );
    }
    store
        .place(
            &order(&other, None, "0.1", 2, T0),
            event(OrderStatus::Received),
        )
        .await
        .unwrap();
    let mut expected = ids.clone();
    expected.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list(
                acct.id,
                None,
                &PageRequest {
                    limit: Limit::new(3).unwrap(),
                    after,
                },
            )
            .await
            .unwrap();
        seen.extend(page.items.iter().map(|o| o.id));
        if !page.has_more {
            break;
        }
        after = page.items.last().map(|o| Cursor::after(&o.id));
    }
    assert_eq!(seen, expected.iter().map(|o| o.id).collect::<Vec<_>>());
    let foreign = PageRequest {
        limit: Limit::new(3).unwrap(),
        after: Some(Cursor::after(&OrderId::from_uuid(Uuid::new_v4()))),
    };
    assert!(matches!(
        store.list(acct.id, None, &foreign).await,
        Err(StoreError::NotFound)
    ));
    let _ = Decimal::ZERO;
}

fn estimate(account: &Account, grams: Option<i64>, kind: EstimateKind) -> Estimate {
    let mass = grams.map(Mass::from_grams);
    Estimate {
        id: tonne_kernel::EstimateId::generate(&UuidV7Generator),
        account_id: account.id,
        kind,
        mass,
        detail: EstimateDetail::Transaction {
            search_term_match: Some("Restaurants".into()),
        },
        explanation: Explanation {
            parts: vec![Part {
                name: "transaction".into(),
                mass: mass.unwrap_or(Mass::ZERO),
                factors: vec![FactorUse {
                    id: "mcc:5812".into(),
                    value: Decimal::new(194, 3),
                    unit: "kg CO2e/USD (2022)".into(),
                    source: "USEEIO v1.3.0".into(),
                    row: Some("NAICS 722511".into()),
                    year: Some(2022),
                    gases: None,
                    catalogue_id: None,
                }],
                quantities: vec![Quantity {
                    name: "spend".into(),
                    amount: Decimal::new(1234, 2),
                    unit: "USD (2022)".into(),
                    method: "as given".into(),
                }],
                wtt: None,
            }],
            notes: vec!["a note".into()],
            factor_set: None,
        },
        quote: QuoteTerms {
            bundle_selection: Some(vec![BundleShare {
                bundle_id: "b1".into(),
                hundredths: Some(10_000),
            }]),
            quantity_trunc: Some(MassUnit::Kg),
        },
        submitted: Submitted::new(format!("{{\"grams\":{grams:?}}}")),
        annotations: Default::default(),
        order_id: None,
        created_at: T0,
        updated_at: T0,
    }
}

async fn estimates_are_stored_together_read_per_account_and_updated_in_place(t: TestDb) {
    let (a, b) = (
        account(&t, AccountMode::Live).await,
        account(&t, AccountMode::Live).await,
    );
    let store = EstimateStore::new(t.db().clone());
    let batch: Vec<Estimate> = (1..=100)
        .map(|i| estimate(&a, Some(i * 1000), EstimateKind::Transaction))
        .collect();
    store.insert(&batch).await.unwrap();
    let read = store.get(a.id, batch[41].id).await.unwrap().unwrap();
    assert_eq!(read, batch[41]);
    assert_eq!(store.get(b.id, batch[41].id).await.unwrap(), None);
    // a batch with one bad row stores nothing
    let mut bad = vec![estimate(&a, Some(1), EstimateKind::Company); 2];
    bad[1].mass = Some(Mass::from_grams(-5));
    assert!(store.insert(&bad).await.is_err());
    assert_eq!(store.get(a.id, bad[0].id).await.unwrap(), None);
    let id = batch[0].id;
    let later = T0 + time::Duration::hours(1);
    let new = Estimate {
        kind: EstimateKind::MultiLegShipping,
        mass: Some(Mass::from_grams(777)),
        detail: EstimateDetail::MultiLegShipping {
            distance: tonne_estimation::Distance::from_km(Decimal::new(12_345, 3)),
            legs: vec![ShippingLeg {
                mass: Mass::from_grams(777),
                distance: tonne_estimation::Distance::from_km(Decimal::new(12_345, 3)),
                methodology: vec![Methodology::ImoUnavailableContainerShipTradeLaneFallback],
                facts: None,
            }],
        },
        quote: QuoteTerms::default(),
        submitted: Submitted::new("{\"changed\":true}"),
        created_at: later,
        updated_at: later,
        ..batch[0].clone()
    };
    // the kind is part of the identity: a transaction is not a multi-leg shipment
    assert_eq!(
        store.update(&new, later).await.unwrap(),
        UpdateOutcome::NotFound
    );
    let new = Estimate {
        kind: EstimateKind::Transaction,
        ..new
    };
    assert_eq!(
        store.update(&new, later).await.unwrap(),
        UpdateOutcome::Updated {
            created_at: T0,
            annotations: Annotations::default(),
        }
    );
    let after = store.get(a.id, id).await.unwrap().unwrap();
    assert_eq!(
        after,
        Estimate {
            created_at: T0,
            ..new.clone()
        }
    );
    let theirs = Estimate {
        account_id: b.id,
        ..new.clone()
    };
    assert_eq!(
        store.update(&theirs, T0).await.unwrap(),
        UpdateOutcome::NotFound
    );
}

async fn an_estimate_is_ordered_once_and_then_frozen(t: TestDb) {
    catalogue(&t).await;
    let acct = account(&t, AccountMode::Live).await;
    let estimates = EstimateStore::new(t.db().clone());
    let store = Arc::new(OrderStore::new(t.db().clone()));
    // 10 concurrent orders of one estimate: exactly one wins, every other is
    // refused as such (on PostgreSQL the losers' statements sent after the
    // refused one are refused too: the answer names the cause). Several rounds.
    let (mut e, mut won) = (None, Vec::new());
    for _ in 0..5 {
        let round = estimate(&acct, Some(1_000_000), EstimateKind::Electricity);
        estimates
            .insert(std::slice::from_ref(&round))
            .await
            .unwrap();
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let store = store.clone();
            let mut o = order(&acct, None, "1", 2, T0);
            o.estimate_id = Some(round.id);
            tasks.push(tokio::spawn(async move {
                store.place(&o, event(OrderStatus::Received)).await
            }));
        }
        won.clear();
        for task in tasks {
            match task.await.unwrap() {
                Ok(o) => won.push(o),
                Err(PlaceError::EstimateAlreadyOrdered) => {}
                Err(other) => panic!("{other:?}"),
            }
        }
        assert_eq!(won.len(), 1);
        e = Some(round);
    }
    let e = e.unwrap();
    let stored = estimates.get(acct.id, e.id).await.unwrap().unwrap();
    assert_eq!(stored.order_id, Some(won[0].id.to_string()));
    assert_eq!(
        store.get(won[0].id).await.unwrap().unwrap().estimate_id,
        Some(e.id)
    );
    let again = Estimate {
        mass: Some(Mass::from_grams(5)),
        ..e.clone()
    };
    assert_eq!(
        estimates.update(&again, T0).await.unwrap(),
        UpdateOutcome::Ordered
    );
    // an order whose mass is not the estimate's (changed meanwhile) is refused too
    let other = estimate(&acct, Some(2_000_000), EstimateKind::Electricity);
    estimates
        .insert(std::slice::from_ref(&other))
        .await
        .unwrap();
    let mut stale = order(&acct, None, "1", 2, T0);
    stale.estimate_id = Some(other.id);
    assert!(matches!(
        store.place(&stale, event(OrderStatus::Received)).await,
        Err(PlaceError::EstimateAlreadyOrdered)
    ));
    assert_eq!(
        estimates
            .get(acct.id, other.id)
            .await
            .unwrap()
            .unwrap()
            .order_id,
        None
    );

    // each refusal names its own cause
    store
        .place(
            &order(&acct, Some("same"), "1", 2, T0),
            event(OrderStatus::Received),
        )
        .await
        .unwrap();
    let mut key_taken = order(&acct, Some("same"), "1", 2, T0);
    key_taken.estimate_id = Some(other.id);
    key_taken.requested_quantity = Some(Mass::from_grams(2_000_000));
    assert!(matches!(
        store.place(&key_taken, event(OrderStatus::Received)).await,
        Err(PlaceError::IdempotencyKeyTaken)
    ));
    let mut ordered_twice = order(&acct, Some("fresh"), "1", 2, T0);
    ordered_twice.estimate_id = Some(e.id);
    assert!(matches!(
        store
            .place(&ordered_twice, event(OrderStatus::Received))
            .await,
        Err(PlaceError::EstimateAlreadyOrdered)
    ));
    assert_eq!(
        estimates
            .get(acct.id, other.id)
            .await
            .unwrap()
            .unwrap()
            .order_id,
        None,
        "nothing claimed by a refused order"
    );
}

async fn an_estimate_idempotency_key_is_taken_once_per_account(t: TestDb) {
    let (a, b) = (
        account(&t, AccountMode::Live).await,
        account(&t, AccountMode::Live).await,
    );
    let store = EstimateStore::new(t.db().clone());
    let keyed = |account: &Account, key: &str| {
        let mut e = estimate(account, Some(1_000), EstimateKind::Transaction);
        e.annotations = Annotations {
            idempotency_key: Some(key.into()),
            metadata: [("user_id".to_owned(), "u-38925d".to_owned())].into(),
            actual: None,
            occurred_at: Some(T0),
        };
        e
    };
    let first = keyed(&a, "k-1");
    store.insert(std::slice::from_ref(&first)).await.unwrap();
    let found = store.get_by_idempotency_key(a.id, "k-1").await.unwrap();
    assert_eq!(found, Some(first.clone()), "annotations round-trip");
    assert_eq!(
        store.get_by_idempotency_key(b.id, "k-1").await.unwrap(),
        None
    );
    assert_eq!(
        store.get_by_idempotency_key(a.id, "K-1").await.unwrap(),
        None
    );
    // the same key on the same account is the constraint's Duplicate, also
    // inside a batch (which then stores nothing)
    let again = keyed(&a, "k-1");
    assert!(matches!(
        store.insert(std::slice::from_ref(&again)).await,
        Err(StoreError::Duplicate)
    ));
    let unkeyed = estimate(&a, Some(5), EstimateKind::Transaction);
    assert!(matches!(
        store.insert(&[unkeyed.clone(), keyed(&a, "k-1")]).await,
        Err(StoreError::Duplicate)
    ));
    assert_eq!(store.get(a.id, unkeyed.id).await.unwrap(), None);
    assert_eq!(store.get(a.id, again.id).await.unwrap(), None);
    // another account has its own keys; estimates without a key never collide
    store.insert(&[keyed(&b, "k-1")]).await.unwrap();
    store
        .insert(&[
            estimate(&a, Some(1), EstimateKind::Transaction),
            estimate(&a, Some(2), EstimateKind::Transaction),
        ])
        .await
        .unwrap();
    // a batch stores every column of every row as given (on PostgreSQL one
    // statement of column arrays): annotations, no mass, a false `actual`
    let mut annotated = keyed(&a, "k-9");
    annotated.annotations.actual = Some(false);
    let massless = estimate(&a, None, EstimateKind::Transaction);
    store
        .insert(&[annotated.clone(), massless.clone()])
        .await
        .unwrap();
    assert_eq!(
        store.get(a.id, annotated.id).await.unwrap(),
        Some(annotated)
    );
    assert_eq!(store.get(a.id, massless.id).await.unwrap(), Some(massless));
    // an update sets the annotations it has and keeps the others; taking
    // another estimate's key is Duplicate
    let second = keyed(&a, "k-2");
    store.insert(std::slice::from_ref(&second)).await.unwrap();
    let mut renamed = second.clone();
    renamed.annotations.idempotency_key = Some("k-3".into());
    renamed.annotations.metadata.clear(); // empty metadata: not sent, kept
    renamed.annotations.actual = Some(true);
    renamed.annotations.occurred_at = None; // not sent, kept
    let Ok(UpdateOutcome::Updated { annotations, .. }) = store.update(&renamed, T0).await else {
        panic!("updated");
    };
    let expected = Annotations {
        idempotency_key: Some("k-3".into()),
        metadata: second.annotations.metadata.clone(),
        actual: Some(true),
        occurred_at: Some(T0),
    };
    assert_eq!(annotations, expected);
    let read = store.get(a.id, second.id).await.unwrap().unwrap();
    assert_eq!(read.annotations, expected);
    let mut thief = second.clone();
    thief.annotations.idempotency_key = Some("k-1".into());
    assert!(matches!(
        store.update(&thief, T0).await,
        Err(StoreError::Duplicate)
    ));
    // annotating replaces them all, on any kind, and respects the key's owner
    let patched = Annotations {
        idempotency_key: Some("k-4".into()),
        metadata: [("a".to_owned(), "b".to_owned())].into(),
        actual: Some(false),
        occurred_at: Some(T0),
    };
    assert!(store.annotate(a.id, second.id, &patched, T0).await.unwrap());
    assert_eq!(
        store
            .get(a.id, second.id)
            .await
            .unwrap()
            .unwrap()
            .annotations,
        patched
    );
    assert!(!store.annotate(b.id, second.id, &patched, T0).await.unwrap());
    let stolen = Annotations {
        idempotency_key: Some("k-1".into()),
        ..patched.clone()
    };
    assert!(matches!(
        store.annotate(a.id, second.id, &stolen, T0).await,
        Err(StoreError::Duplicate)
    ));
    assert_eq!(
        store
            .get(a.id, second.id)
            .await
            .unwrap()
            .unwrap()
            .annotations,
        patched
    );
}

async fn the_operator_queue_lists_live_orders_awaiting_action_by_organisation_and_status(
    t: TestDb,
) {
    catalogue(&t).await;
    let live = account(&t, AccountMode::Live).await;
    let test = account(&t, AccountMode::Test).await;
    let elsewhere = account(&t, AccountMode::Live).await;
    let store = OrderStore::new(t.db().clone());
    let mut placed = Vec::new();
    for (i, acct) in (0_i64..).zip([&live, &live, &live, &elsewhere, &test]) {
        let at = T0 + time::Duration::seconds(i);
        placed.push(
            store
                .place(
                    &order(acct, None, "0.1", 2, at),
                    event(OrderStatus::Received),
                )
                .await
                .unwrap(),
        );
    }
    // One moves to `placed`, one is cancelled (final: never in the queue).
    store
        .transition(
            placed[1].id,
            OrderStatus::Received,
            event(OrderStatus::Placed),
            None,
            vec![],
            None,
        )
        .await
        .unwrap();
    store
        .transition(
            placed[2].id,
            OrderStatus::Received,
            event(OrderStatus::Cancelled),
            None,
            vec![],
            None,
        )
        .await
        .unwrap();
    let page = |after| PageRequest {
        limit: Limit::new(2).unwrap(),
        after,
    };
    let all = |f: AwaitingFilter| {
        let store = &store;
        async move {
            let mut seen = Vec::new();
            let mut after = None;
            loop {
                let p = store.awaiting(f, &page(after)).await.unwrap();
                seen.extend(p.items.iter().map(|o| o.id));
                if !p.has_more {
                    return seen;
                }
                after = p.items.last().map(|o| Cursor::after(&o.id));
            }
        }
    };
    // Newest first; the test order and the cancelled one are not there.
    assert_eq!(
        all(AwaitingFilter::default()).await,
        [placed[3].id, placed[1].id, placed[0].id]
    );
    let mine = AwaitingFilter {
        organisation: Some(live.organisation_id),
        status: None,
    };
    assert_eq!(all(mine).await, [placed[1].id, placed[0].id]);
    let placed_only = AwaitingFilter {
        status: Some(OrderStatus::Placed),
        ..mine
    };
    assert_eq!(all(placed_only).await, [placed[1].id]);
    let final_status = AwaitingFilter {
        status: Some(OrderStatus::Cancelled),
        organisation: None,
    };
    assert!(all(final_status).await.is_empty());
    // A cursor outside the filtered list is not found.
    assert!(matches!(
        store
            .awaiting(mine, &page(Some(Cursor::after(&placed[3].id))))
            .await,
        Err(StoreError::NotFound)
    ));
}

async fn an_organisations_orders_are_listed_per_mode_and_read_only_by_it(t: TestDb) {
    catalogue(&t).await;
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    let store = OrderStore::new(t.db().clone());
    let elsewhere = account(&t, AccountMode::Live).await;
    let mut ids = Vec::new();
    for (i, acct) in (0_i64..).zip([&live, &test, &live, &elsewhere]) {
        let at = T0 + time::Duration::seconds(i);
        ids.push(
            store
                .place(
                    &order(acct, None, "0.1", 2, at),
                    event(OrderStatus::Received),
                )
                .await
                .unwrap()
                .id,
        );
    }
    let page = |after| PageRequest {
        limit: Limit::new(1).unwrap(),
        after,
    };
    let first = store
        .of_organisation(live.organisation_id, AccountMode::Live, &page(None))
        .await
        .unwrap();
    assert_eq!(
        first.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        [ids[2]]
    );
    assert!(first.has_more);
    let second = store
        .of_organisation(
            live.organisation_id,
            AccountMode::Live,
            &page(Some(Cursor::after(&ids[2]))),
        )
        .await
        .unwrap();
    assert_eq!(
        second.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        [ids[0]]
    );
    assert!(!second.has_more);
    let tests = store
        .of_organisation(live.organisation_id, AccountMode::Test, &page(None))
        .await
        .unwrap();
    assert_eq!(
        tests.items.iter().map(|o| o.id).collect::<Vec<_>>(),
        [ids[1]]
    );
    assert!(
        store
            .in_organisation(live.organisation_id, ids[0])
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        store
            .in_organisation(live.organisation_id, ids[3])
            .await
            .unwrap()
            .is_none(),
        "another organisation's order"
    );
    assert!(matches!(
        store
            .of_organisation(
                live.organisation_id,
                AccountMode::Live,
                &page(Some(Cursor::after(&ids[3])))
            )
            .await,
        Err(StoreError::NotFound)
    ));
}

on_both_backends!(
    placing_writes_the_order_its_reservation_and_its_event_together,
    inventory_never_goes_below_zero_under_concurrency,
    transitions_are_conditional_atomic_with_their_event_and_release_on_cancel,
    lists_are_most_recent_first_by_keyset,
    the_operator_queue_lists_live_orders_awaiting_action_by_organisation_and_status,
    an_organisations_orders_are_listed_per_mode_and_read_only_by_it,
    estimates_are_stored_together_read_per_account_and_updated_in_place,
    an_estimate_is_ordered_once_and_then_frozen,
    an_estimate_idempotency_key_is_taken_once_per_account,
);
