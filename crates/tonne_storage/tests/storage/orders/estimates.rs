//! Estimates: stored together, read per account and updated in place; ordered
//! once and then frozen; an idempotency key taken once per account.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use rust_decimal::Decimal;
use std::sync::Arc;

use tonne_accounts::Account;
use tonne_estimation::estimate::{
    Annotations, BundleShare, Estimate, EstimateDetail, EstimateKind, Methodology, QuoteTerms,
    ShippingLeg, Submitted,
};
use tonne_estimation::explain::{Explanation, FactorUse, Part, Quantity};
use tonne_estimation::ports::{EstimateRepository as _, UpdateOutcome};
use tonne_kernel::{
    AccountId, AccountMode, EstimateId, Mass, MassUnit, StoreError, UuidV7Generator,
};
use tonne_ordering::ports::OrderRepository;
use tonne_ordering::{OrderStatus, PlaceError};
use tonne_storage::{EstimateStore, OrderStore};
use tonne_test_support::TestDb;

use super::fixtures::{T0, account, catalogue, event, order};

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

/// The stored estimate `id` of `account`.
async fn stored_estimate(store: &EstimateStore, account: AccountId, id: EstimateId) -> Estimate {
    store.get(account, id).await.unwrap().unwrap()
}

pub(super) async fn estimates_are_stored_together_read_per_account_and_updated_in_place(t: TestDb) {
    let (a, b) = (
        account(&t, AccountMode::Live).await,
        account(&t, AccountMode::Live).await,
    );
    let store = EstimateStore::new(t.db().clone());
    let batch: Vec<Estimate> = (1..=100)
        .map(|i| estimate(&a, Some(i * 1000), EstimateKind::Transaction))
        .collect();
    store.insert(&batch).await.unwrap();
    let read = stored_estimate(&store, a.id, batch[41].id).await;
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
    let after = stored_estimate(&store, a.id, id).await;
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

pub(super) async fn an_estimate_is_ordered_once_and_then_frozen(t: TestDb) {
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
    let stored = stored_estimate(&estimates, acct.id, e.id).await;
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
        stored_estimate(&estimates, acct.id, other.id)
            .await
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
        stored_estimate(&estimates, acct.id, other.id)
            .await
            .order_id,
        None,
        "nothing claimed by a refused order"
    );
}

pub(super) async fn an_estimate_idempotency_key_is_taken_once_per_account(t: TestDb) {
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
    let read = stored_estimate(&store, a.id, second.id).await;
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
        stored_estimate(&store, a.id, second.id).await.annotations,
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
        stored_estimate(&store, a.id, second.id).await.annotations,
        patched
    );
}
