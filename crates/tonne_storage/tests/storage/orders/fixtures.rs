//! The order tests' builders: accounts, a catalogue of bundles, orders and
//! their events, and readers of inventory and the event log.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use diesel::prelude::*;
use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::Account;
use tonne_kernel::{AccountMode, Currency, Mass, MassUnit, Money};
use tonne_ordering::ports::{Catalogue, CatalogueRepository as _};
use tonne_ordering::{
    Bundle, BundleId, IdempotencyKey, NewEvent, Order, OrderId, OrderKind, OrderStatus, QuoteLine,
};
use tonne_storage::CatalogueStore;
use tonne_test_support::TestDb;
use uuid::Uuid;

pub(super) const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);

pub(super) async fn account(t: &TestDb, mode: AccountMode) -> Account {
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

pub(super) async fn catalogue(t: &TestDb) {
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

pub(super) fn event(status: OrderStatus) -> NewEvent {
    NewEvent {
        event_id: Uuid::new_v4(),
        status,
        at: T0,
    }
}

pub(super) async fn available(t: &TestDb, n: u128) -> Option<Mass> {
    CatalogueStore::new(t.db().clone())
        .bundles(&[BundleId::from_uuid(Uuid::from_u128(n))])
        .await
        .unwrap()[0]
        .available
}

pub(super) async fn events(t: &TestDb) -> Vec<(String, i64, String)> {
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
