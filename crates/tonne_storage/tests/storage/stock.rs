//! The stock ledger and bundle on/off sale on SQLite and PostgreSQL: each
//! change is a conditional update with its ledger row and audit entry in one
//! transaction; a refused change writes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::audit::AuditRepository as _;
use tonne_kernel::{
    Actor, AuditEntry, AuditFilter, Currency, Limit, Mass, PageRequest, StoreError, UuidV7Generator,
};
use tonne_ordering::ports::CatalogueRepository;
use tonne_ordering::{BundleEdit, StockEntry, StockEntryId};
use tonne_storage::{AuditStore, CatalogueStore};
use tonne_test_support::{TestDb, on_both_backends};

use crate::fixtures::{self, bundle, bundle_id as id};

const T0: OffsetDateTime = datetime!(2026-11-25 09:00 UTC);

async fn seeded(t: &TestDb) -> CatalogueStore {
    let bundles = vec![bundle(1, Some("10")), bundle(2, None)];
    fixtures::import(t, vec![], bundles, T0).await
}

fn change(n: u128, grams: i64, reason: &str) -> (StockEntry, AuditEntry) {
    let by = Actor::person("ops@example.org");
    (
        StockEntry {
            id: StockEntryId::generate(&UuidV7Generator),
            bundle_id: id(n),
            at: T0,
            actor: by.clone(),
            delta_grams: grams,
            reason: reason.into(),
            available_after: Mass::from_grams(0),
        },
        AuditEntry::new(T0, by, "bundle.stock_changed", "bundle", id(n)),
    )
}

async fn available(store: &CatalogueStore, n: u128) -> Option<Mass> {
    store.bundles(&[id(n)]).await.unwrap()[0].available
}

async fn stock_changes_are_ledger_rows_and_never_go_below_zero(t: TestDb) {
    let store = seeded(&t).await;
    let log = AuditStore::new(t.db().clone());
    let (add, audit) = change(1, 2_500_000, "bought 2.5 t");
    let stored = store.adjust_stock(add, audit).await.unwrap().unwrap();
    assert_eq!(stored.available_after, Mass::from_grams(12_500_000));
    assert_eq!(
        available(&store, 1).await,
        Some(Mass::from_grams(12_500_000))
    );
    let (remove, audit) = change(1, -2_000_000, "sold elsewhere");
    store.adjust_stock(remove, audit).await.unwrap().unwrap();

    // Refused: more than is left, or an unlimited bundle. Nothing is written.
    let (too_much, audit) = change(1, -10_500_001, "oops");
    assert_eq!(store.adjust_stock(too_much, audit).await.unwrap(), None);
    let (unlimited, audit) = change(2, 1_000_000, "more");
    assert_eq!(store.adjust_stock(unlimited, audit).await.unwrap(), None);
    assert_eq!(
        available(&store, 1).await,
        Some(Mass::from_grams(10_500_000))
    );
    assert_eq!(available(&store, 2).await, None);
    let (ghost, audit) = change(99, 1, "nothing");
    assert!(matches!(
        store.adjust_stock(ghost, audit).await,
        Err(StoreError::NotFound)
    ));

    let ledger = store
        .stock_ledger(id(1), &PageRequest::first())
        .await
        .unwrap();
    let rows: Vec<(i64, &str, i64)> = ledger
        .items
        .iter()
        .map(|e| (e.delta_grams, e.reason.as_str(), e.available_after.grams()))
        .collect();
    assert_eq!(
        rows,
        [
            (-2_000_000, "sold elsewhere", 10_500_000),
            (2_500_000, "bought 2.5 t", 12_500_000)
        ]
    );
    assert_eq!(ledger.items[0].actor, Actor::person("ops@example.org"));
    // The audit entries carry what was available before and after, as stored.
    let audited = log
        .list(&AuditFilter::default(), &PageRequest::first())
        .await
        .unwrap();
    assert_eq!(audited.items.len(), 2);
    assert_eq!(audited.items[0].before.get("available"), Some("12.5 t"));
    assert_eq!(audited.items[0].after.get("available"), Some("10.5 t"));

    // Pages follow the cursor; a cursor of another bundle is not found.
    let one = |after| PageRequest {
        limit: Limit::new(1).unwrap(),
        after,
    };
    let first = store.stock_ledger(id(1), &one(None)).await.unwrap();
    assert!(first.has_more);
    let second = store
        .stock_ledger(id(1), &one(Some(first.items[0].id)))
        .await
        .unwrap();
    assert_eq!(second.items[0].reason, "bought 2.5 t");
    assert!(!second.has_more);
    assert!(matches!(
        store
            .stock_ledger(id(2), &one(Some(first.items[0].id)))
            .await,
        Err(StoreError::NotFound)
    ));
}

async fn concurrent_removals_never_oversell(t: TestDb) {
    let store = seeded(&t).await;
    // 10 t available; eight removals of 2 t race: at most five succeed.
    let tasks = (0..8).map(|_| {
        let store = store.clone();
        tokio::spawn(async move {
            let (remove, audit) = change(1, -2_000_000, "race");
            store.adjust_stock(remove, audit).await.unwrap()
        })
    });
    let mut done = 0;
    for task in tasks.collect::<Vec<_>>() {
        if task.await.unwrap().is_some() {
            done += 1;
        }
    }
    assert_eq!(done, 5);
    assert_eq!(available(&store, 1).await, Some(Mass::from_grams(0)));
    let ledger = store
        .stock_ledger(id(1), &PageRequest::first())
        .await
        .unwrap();
    assert_eq!(ledger.items.len(), 5);
}

async fn a_bundle_goes_off_sale_and_back_with_its_audit_entry(t: TestDb) {
    let store = seeded(&t).await;
    let log = AuditStore::new(t.db().clone());
    let by = Actor::CommandLine;
    let off = AuditEntry::new(T0, by.clone(), "bundle.disabled", "bundle", id(1));
    store
        .set_bundle_disabled(id(1), Some(T0), off)
        .await
        .unwrap();
    let b = &store.bundles(&[id(1)]).await.unwrap()[0];
    assert!(b.disabled);
    assert_eq!(b.disabled_at, Some(T0));
    let on = AuditEntry::new(T0, by.clone(), "bundle.enabled", "bundle", id(1));
    store.set_bundle_disabled(id(1), None, on).await.unwrap();
    assert!(!store.bundles(&[id(1)]).await.unwrap()[0].disabled);
    let ghost = AuditEntry::new(T0, by, "bundle.enabled", "bundle", id(99));
    assert!(matches!(
        store.set_bundle_disabled(id(99), None, ghost).await,
        Err(StoreError::NotFound)
    ));
    let actions: Vec<String> = log
        .list(&AuditFilter::default(), &PageRequest::first())
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|e| e.action)
        .collect();
    assert_eq!(actions, ["bundle.enabled", "bundle.disabled"]);
}

async fn an_edit_sets_description_and_prices_or_nothing(t: TestDb) {
    let store = seeded(&t).await;
    let log = AuditStore::new(t.db().clone());
    let entry = || AuditEntry::new(T0, Actor::CommandLine, "bundle.edited", "bundle", id(1));
    let edit = BundleEdit::parse("Peat.", &[(Currency::Gbp, "12.34")]).unwrap();
    store.update_bundle(id(1), edit, T0, entry()).await.unwrap();
    let b = &store.bundles(&[id(1)]).await.unwrap()[0];
    assert_eq!(b.description.as_deref(), Some("Peat."));
    assert_eq!(b.price_in(Currency::Gbp).unwrap().minor(), 1234);
    // A currency the bundle is not sold in refuses the whole edit.
    let unsold = BundleEdit::parse("Changed.", &[(Currency::Nok, "1")]).unwrap();
    assert!(matches!(
        store.update_bundle(id(1), unsold, T0, entry()).await,
        Err(StoreError::NotFound)
    ));
    let b = &store.bundles(&[id(1)]).await.unwrap()[0];
    assert_eq!(b.description.as_deref(), Some("Peat."));
    let entries = log
        .list(&AuditFilter::default(), &PageRequest::first())
        .await
        .unwrap();
    assert_eq!(entries.items.len(), 1, "the refused edit left no entry");
}

on_both_backends!(
    an_edit_sets_description_and_prices_or_nothing,
    stock_changes_are_ledger_rows_and_never_go_below_zero,
    concurrent_removals_never_oversell,
    a_bundle_goes_off_sale_and_back_with_its_audit_entry,
);
