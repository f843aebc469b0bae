//! The order rules: which transitions are allowed, how an order's projects are
//! allocated and when they count as retired, payment methods and idempotency keys.

use super::*;

#[test]
fn every_transition_is_either_allowed_or_refused_as_specified() {
    use OrderStatus::*;
    let allowed = [
        (Received, Placed),
        (Placed, Paid),
        (Paid, Retiring),
        (Retiring, Complete),
        (Received, Cancelled),
        (Placed, Cancelled),
        (Received, Failed),
        (Placed, Failed),
        (Paid, Failed),
        (Retiring, Failed),
    ];
    for from in OrderStatus::ALL {
        for to in OrderStatus::ALL {
            assert_eq!(
                from.can_become(to),
                allowed.contains(&(from, to)),
                "{from:?} → {to:?}"
            );
        }
    }
    assert_eq!(Complete.event_type(), "order.completed");
    assert_eq!(OrderStatus::parse("retiring"), Some(Retiring));
}

#[test]
fn projects_split_each_line_exactly() {
    use crate::catalogue::{BundleId, Project};
    let bundle = BundleId::from_uuid(Uuid::from_u128(1));
    let line = QuoteLine {
        bundle_id: bundle,
        bundle_name: "B".into(),
        quantity: Mass::from_grams(1_000_001),
        unit_price: Money::from_minor(1000, Currency::Gbp),
        gross_unit_price: Money::from_minor(1100, Currency::Gbp),
        offset_cost: Money::from_minor(1001, Currency::Gbp),
        insufficient_available_quantity: false,
    };
    let quote = Quote {
        currency: Currency::Gbp,
        quantity: line.quantity,
        offset_cost: line.offset_cost,
        commission: Money::from_minor(100, Currency::Gbp),
        total_cost: Money::from_minor(1101, Currency::Gbp),
        lines: vec![line],
        requested_quantity: None,
        requested_value: None,
    };
    let order = Order::from_quote(
        quote,
        OrderKind::Quantity,
        AccountId::from_uuid(Uuid::from_u128(2)),
        AccountMode::Test,
        None,
        vec![],
        OffsetDateTime::UNIX_EPOCH,
    );
    let project = |n: u128| Project {
        bundle_ids: vec![bundle],
        ..Project::sample(n)
    };
    let split = allocate_projects(&order, OffsetDateTime::UNIX_EPOCH, |_| {
        vec![project(10), project(11), project(12)]
    });
    assert_eq!(
        split.iter().map(|p| p.quantity.grams()).sum::<i64>(),
        1_000_001
    );
    assert_eq!(
        split.iter().map(|p| p.offset_cost.minor()).sum::<i64>(),
        1001
    );
    assert!(split.iter().all(|p| p.serial.is_none()));
    assert!(allocate_projects(&order, OffsetDateTime::UNIX_EPOCH, |_| vec![]).is_empty());
}

#[test]
fn a_project_is_retired_once_it_has_a_serial_or_the_order_is_complete() {
    use crate::catalogue::{ProjectId, Registry};
    let gbp = |m| Money::from_minor(m, Currency::Gbp);
    let mut p = ProjectAllocation {
        id: AllocationId::from_uuid(Uuid::from_u128(7)),
        allocated_at: OffsetDateTime::UNIX_EPOCH,
        project_id: ProjectId::from_uuid(Uuid::from_u128(1)),
        project_name: "P".into(),
        project_type: "Biochar".into(),
        project_slug: "p".into(),
        registry: Registry::PuroEarth,
        quantity: Mass::from_grams(1),
        unit_price: gbp(1),
        offset_cost: gbp(1),
        serial: None,
        registry_record: None,
    };
    assert_eq!(p.status(OrderStatus::Retiring), ProjectStatus::Allocated);
    assert_eq!(p.status(OrderStatus::Failed), ProjectStatus::Allocated);
    assert_eq!(p.status(OrderStatus::Complete), ProjectStatus::Retired);
    p.serial = Some("PURO-1".into());
    assert_eq!(p.status(OrderStatus::Retiring), ProjectStatus::Retired);
    assert_eq!(p.status(OrderStatus::Retiring).as_str(), "retired");
}

#[test]
fn payment_methods_round_trip_their_spelling() {
    for m in PaymentMethod::ALL {
        assert_eq!(PaymentMethod::parse(m.as_str()), Some(m));
    }
    assert_eq!(PaymentMethod::parse("cheque"), None);
}

#[test]
fn idempotency_keys_are_bounded() {
    assert!(IdempotencyKey::parse("5bd808a954e").is_some());
    assert!(IdempotencyKey::parse("").is_none());
    assert!(IdempotencyKey::parse(&"k".repeat(101)).is_none());
    assert!(IdempotencyKey::parse("a\u{0}b").is_none());
}
