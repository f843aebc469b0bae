//! The order tests' builders: accounts, a catalogue of bundles, orders and
//! their events, and readers of inventory and the event log.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::Account;
use tonne_kernel::{AccountMode, Currency, Mass, MassUnit, Money};
use tonne_ordering::ports::CatalogueRepository as _;
use tonne_ordering::{IdempotencyKey, NewEvent, Order, OrderId, OrderStatus, PaymentMethod};
use tonne_storage::{CatalogueStore, OrderStore};
use tonne_test_support::TestDb;

use crate::fixtures::{self, bundle, bundle_id};

pub(super) const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

pub(super) async fn account(t: &TestDb, mode: AccountMode) -> Account {
    let (live, test) = tonne_test_support::organisation(t.db(), T0).await;
    if mode == AccountMode::Live {
        live
    } else {
        test
    }
}

pub(super) async fn catalogue(t: &TestDb) {
    fixtures::import(t, vec![], vec![bundle(1, Some("10")), bundle(2, None)], T0).await;
}

pub(super) fn order(
    account: &Account,
    key: Option<&str>,
    tonnes: &str,
    bundle_n: u128,
    at: OffsetDateTime,
) -> Order {
    let quantity = Mass::parse(tonnes, MassUnit::T).unwrap();
    let cost = Money::from_minor(quantity.grams() / 100, Currency::Gbp); // 10.00/t
    let commission = Money::from_minor(cost.minor() / 10, Currency::Gbp);
    let prices = (
        Money::from_minor(1000, Currency::Gbp),
        Money::from_minor(1100, Currency::Gbp),
    );
    let line = fixtures::line(bundle_n, quantity, prices, cost);
    Order {
        idempotency_key: key.map(|k| IdempotencyKey::parse(k).unwrap()),
        commission,
        total_cost: cost.checked_add(commission).unwrap(),
        metadata: vec![("ref".into(), "A-1".into())],
        // stored and read back as given (not the column's default)
        payment_method: PaymentMethod::Card,
        ..fixtures::order((account.id, account.mode), vec![line], at)
    }
}

pub(super) fn event(status: OrderStatus) -> NewEvent {
    fixtures::event(status, T0)
}

/// Moves received order `id` to `to`, its event at `T0`.
pub(super) async fn advance(store: &OrderStore, id: OrderId, to: OrderStatus) -> Order {
    fixtures::moved(store, id, OrderStatus::Received, event(to)).await
}

pub(super) async fn available(t: &TestDb, n: u128) -> Option<Mass> {
    CatalogueStore::new(t.db().clone())
        .bundles(&[bundle_id(n)])
        .await
        .unwrap()[0]
        .available
}

pub(super) async fn events(t: &TestDb) -> Vec<(String, i64, String)> {
    let sql =
        "SELECT event_type, sequence, payload FROM order_events ORDER BY account_id, sequence";
    fixtures::events(t, sql).await
}
