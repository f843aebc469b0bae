//! The outbox's allocation events on SQLite and PostgreSQL: written in the
//! transaction of the change they announce, after the order's own event, with
//! the allocation's stored id and time, gap-free in the account's sequence;
//! an allocation the order does not have rolls the whole change back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use diesel::prelude::*;
use rust_decimal::Decimal;
use time::OffsetDateTime;
use time::macros::datetime;
use tonne_accounts::Account;
use tonne_kernel::{Currency, Mass, Money, StoreError};
use tonne_ordering::ports::{Catalogue, CatalogueRepository as _, OrderRepository as _};
use tonne_ordering::{
    AllocationEvent, AllocationId, AllocationStatus, Bundle, BundleId, NewEvent, Order, OrderId,
    OrderKind, OrderStatus, Project, ProjectId, QuoteLine, Registry, RetirementRecord,
    allocate_projects,
};
use tonne_storage::{CatalogueStore, Conn, OrderStore};
use tonne_test_support::{TestDb, on_both_backends};
use uuid::Uuid;

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);
const T1: OffsetDateTime = datetime!(2026-03-05 10:00:00 UTC);

fn project(n: u128) -> Project {
    Project {
        id: ProjectId::from_uuid(Uuid::from_u128(n)),
        slug: format!("project-{n}"),
        name: format!("Project {n}"),
        short_name: format!("P{n}"),
        description: "d".into(),
        project_type: "Biochar".into(),
        registry: Registry::PuroEarth,
        registry_link: None,
        latitude: Decimal::ZERO,
        longitude: Decimal::ZERO,
        country_name: "Peru".into(),
        country_code: "PER".into(),
        region: None,
        logo: None,
        primary_image: None,
        thumbnail_image: None,
        results: vec![],
        un_sdg: vec![],
        media: vec![],
        disabled: false,
        disabled_at: None,
        facts: Default::default(),
        bundle_ids: vec![],
    }
}

fn projects_of(_: BundleId) -> Vec<Project> {
    vec![project(1), project(2)]
}

async fn setup(t: &TestDb) -> Account {
    CatalogueStore::new(t.db().clone())
        .import(
            &Catalogue {
                projects: vec![project(1), project(2)],
                bundles: vec![Bundle {
                    project_ids: vec![project(1).id, project(2).id],
                    ..Bundle::sample(11, 1000)
                }],
                portfolios: vec![],
                perimeters: vec![],
            },
            T0,
            None,
        )
        .await
        .unwrap();
    let (_, test) = tonne_test_support::organisation(t.db(), T0).await;
    test
}

fn order(account: &Account) -> Order {
    let gbp = |m| Money::from_minor(m, Currency::Gbp);
    let quantity = Mass::from_grams(1_000_001);
    Order {
        id: OrderId::from_uuid(Uuid::new_v4()),
        account_id: account.id,
        mode: account.mode,
        idempotency_key: None,
        kind: OrderKind::Quantity,
        status: OrderStatus::Received,
        currency: Currency::Gbp,
        quantity,
        offset_cost: gbp(1000),
        commission: gbp(0),
        total_cost: gbp(1000),
        lines: vec![QuoteLine {
            bundle_id: BundleId::from_uuid(Uuid::from_u128(11)),
            bundle_name: "B".into(),
            quantity,
            unit_price: gbp(1000),
            gross_unit_price: gbp(1000),
            offset_cost: gbp(1000),
            insufficient_available_quantity: false,
        }],
        requested_quantity: Some(quantity),
        requested_value: None,
        metadata: vec![],
        offset_link_id: None,
        email: None,
        estimate_id: None,
        payment_method: tonne_ordering::PaymentMethod::Invoice,
        payment_reference: None,
        held: None,
        projects: vec![],
        created_at: T0,
        updated_at: T0,
    }
}

fn event(status: OrderStatus) -> NewEvent {
    NewEvent {
        event_id: Uuid::new_v4(),
        status,
        at: T1,
    }
}

fn allocation_event(allocation: AllocationId, status: AllocationStatus) -> AllocationEvent {
    AllocationEvent {
        event_id: Uuid::new_v4(),
        allocation,
        status,
        at: T1,
    }
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

async fn events(t: &TestDb) -> Vec<(String, i64, serde_json::Value)> {
    t.db()
        .query(|conn| {
            Box::pin(async move {
                let sql =
                    "SELECT event_type, sequence, payload FROM order_events ORDER BY sequence";
                match conn {
                    Conn::Pg(c) => {
                        diesel_async::RunQueryDsl::load::<EventRow>(
                            diesel::sql_query(sql),
                            &mut **c,
                        )
                        .await
                    }
                    Conn::Sqlite(c) => {
                        diesel_async::RunQueryDsl::load::<EventRow>(
                            diesel::sql_query(sql),
                            &mut **c,
                        )
                        .await
                    }
                }
            })
        })
        .await
        .unwrap()
        .into_iter()
        .map(|r| {
            (
                r.event_type,
                r.sequence,
                serde_json::from_str(&r.payload).unwrap(),
            )
        })
        .collect()
}

/// Received → placed → paid, no allocations.
async fn paid(store: &OrderStore, order: Order) -> Order {
    let mut order = store
        .place(&order, event(OrderStatus::Received))
        .await
        .unwrap();
    for to in [OrderStatus::Placed, OrderStatus::Paid] {
        order = store
            .transition(order.id, order.status, event(to), None, vec![], None)
            .await
            .unwrap();
    }
    order
}

async fn allocation_events_follow_their_orders_event_in_one_transaction(t: TestDb) {
    let account = setup(&t).await;
    let store = OrderStore::new(t.db().clone());
    let order = paid(&store, order(&account)).await;
    let mut split = allocate_projects(&order, T1, projects_of);
    split[0].serial = Some("PURO-1".into());
    let (a, b) = (split[0].id, split[1].id);

    // an allocation the order does not have: nothing is written
    let stray = AllocationId::from_uuid(Uuid::new_v4());
    assert!(matches!(
        store
            .transition(
                order.id,
                OrderStatus::Paid,
                event(OrderStatus::Retiring),
                Some(split.clone()),
                vec![allocation_event(stray, AllocationStatus::New)],
                None,
            )
            .await,
        Err(StoreError::Unexpected(_))
    ));
    assert_eq!(
        store.get(order.id).await.unwrap().unwrap().status,
        OrderStatus::Paid
    );
    assert_eq!(events(&t).await.len(), 3, "no event without its change");

    let retiring = store
        .transition(
            order.id,
            OrderStatus::Paid,
            event(OrderStatus::Retiring),
            Some(split.clone()),
            vec![
                allocation_event(a, AllocationStatus::New),
                allocation_event(b, AllocationStatus::New),
                allocation_event(a, AllocationStatus::Retired),
            ],
            None,
        )
        .await
        .unwrap();
    // the ids and times are stored and read back
    assert_eq!(
        retiring
            .projects
            .iter()
            .map(|p| (p.id, p.allocated_at))
            .collect::<Vec<_>>(),
        [(a, T1), (b, T1)]
    );
    // project 2 gets its serial: retired with the record
    let record = RetirementRecord::parse(project(2).id, "PURO-2", "").unwrap();
    let audit = tonne_kernel::AuditEntry::new(
        T1,
        tonne_kernel::Actor::CommandLine,
        "order.retirement_recorded",
        "order",
        order.id,
    );
    store
        .record_retirement(
            order.id,
            vec![record],
            vec![allocation_event(b, AllocationStatus::Retired)],
            audit,
        )
        .await
        .unwrap();
    store
        .transition(
            order.id,
            OrderStatus::Retiring,
            event(OrderStatus::Complete),
            None,
            vec![],
            None,
        )
        .await
        .unwrap();

    let got = events(&t).await;
    let kinds: Vec<(&str, i64)> = got.iter().map(|e| (e.0.as_str(), e.1)).collect();
    assert_eq!(
        kinds,
        [
            ("order.received", 1),
            ("order.placed", 2),
            ("order.paid", 3),
            ("order.retiring", 4),
            ("allocation.new", 5),
            ("allocation.new", 6),
            ("allocation.retired", 7),
            ("allocation.retired", 8),
            ("order.completed", 9),
        ],
        "after the order's event, gap-free in the account's sequence"
    );
    let first = &got[4].2["allocation"];
    assert_eq!(
        first,
        &serde_json::json!({
            "id": a.to_string(),
            "order_id": order.id.to_string(),
            "project_id": project(1).id.to_string(),
            "quantity": split[0].quantity.to_tonnes_string(),
            "status": "new",
            "created_at": "2026-03-05T10:00:00Z",
        })
    );
    assert_eq!(got[6].2["allocation"]["id"], a.to_string());
    assert_eq!(got[6].2["allocation"]["status"], "retired");
    assert_eq!(got[7].2["allocation"]["id"], b.to_string());
    assert_eq!(got[7].2["allocation"]["status"], "retired");
    assert!(got[4].2.get("splitFrom").is_none());
    let tonnes: Decimal = got[4..6]
        .iter()
        .map(|e| {
            e.2["allocation"]["quantity"]
                .as_str()
                .unwrap()
                .parse::<Decimal>()
                .unwrap()
        })
        .sum();
    assert_eq!(
        tonnes.to_string(),
        "1.000001",
        "the allocations add up to the order"
    );
}

on_both_backends!(allocation_events_follow_their_orders_event_in_one_transaction,);
