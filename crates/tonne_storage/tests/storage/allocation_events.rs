//! The outbox's allocation events on SQLite and PostgreSQL: written in the
//! transaction of the change they announce, after the order's own event, with
//! the allocation's stored id and time, gap-free in the account's sequence;
//! an allocation the order does not have rolls the whole change back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use rust_decimal::Decimal;
use time::OffsetDateTime;
use time::macros::datetime;
use tonne_kernel::StoreError;
use tonne_ordering::ports::OrderRepository as _;
use tonne_ordering::{
    AllocationEvent, AllocationId, AllocationStatus, BundleId, NewEvent, OrderStatus, Project,
    RetirementRecord, allocate_projects,
};
use tonne_storage::OrderStore;
use tonne_test_support::{TestDb, on_both_backends};
use uuid::Uuid;

use crate::fixtures::{self, project};

const T0: OffsetDateTime = datetime!(2026-03-04 05:06:07.123456 UTC);
const T1: OffsetDateTime = datetime!(2026-03-05 10:00:00 UTC);

fn projects_of(_: BundleId) -> Vec<Project> {
    vec![project(1), project(2)]
}

fn event(status: OrderStatus) -> NewEvent {
    fixtures::event(status, T1)
}

fn allocation_event(allocation: AllocationId, status: AllocationStatus) -> AllocationEvent {
    AllocationEvent {
        event_id: Uuid::new_v4(),
        allocation,
        status,
        at: T1,
    }
}

async fn events(t: &TestDb) -> Vec<(String, i64, serde_json::Value)> {
    let sql = "SELECT event_type, sequence, payload FROM order_events ORDER BY sequence";
    fixtures::events(t, sql)
        .await
        .into_iter()
        .map(|(event_type, sequence, payload)| {
            (
                event_type,
                sequence,
                serde_json::from_str(&payload).unwrap(),
            )
        })
        .collect()
}

async fn allocation_events_follow_their_orders_event_in_one_transaction(t: TestDb) {
    let account = fixtures::bundle_11_of_two_projects(&t, T0).await;
    let store = OrderStore::new(t.db().clone());
    let order = fixtures::paid(&store, fixtures::order_of_bundle_11(&account, T0), T1).await;
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
    fixtures::moved(
        &store,
        order.id,
        OrderStatus::Retiring,
        event(OrderStatus::Complete),
    )
    .await;

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
