//! The lifecycle: advancing, cancelling unconfirmed orders, illegal moves, serials, declined payments, retirement records, allocation events.

use super::*;

#[tokio::test]
async fn advancing_walks_the_happy_path_one_recorded_step_at_a_time() {
    let mut orders = MockOrderRepository::new();
    let start = stored(OrderStatus::Received);
    orders
        .expect_get()
        .returning(move |_| Ok(Some(start.clone())));
    let mut seen = Vec::new();
    for (from, to) in [
        (OrderStatus::Received, OrderStatus::Placed),
        (OrderStatus::Placed, OrderStatus::Paid),
        (OrderStatus::Paid, OrderStatus::Retiring),
        (OrderStatus::Retiring, OrderStatus::Complete),
    ] {
        seen.push(to);
        orders
            .expect_transition()
            .times(1)
            .withf(move |_, f, e, _, _, audit| {
                // each step is its own audit entry, by the person, in the organisation
                let audit = audit.as_ref().expect("a person's step is audited");
                *f == from
                    && e.status == to
                    && audit.action == format!("order.{}", to.as_str())
                    && audit.actor == Actor::person("ops@example.org")
                    && audit.organisation == Some(organisation())
                    && audit.before.get("status") == Some(from.as_str())
                    && audit.after.get("status") == Some(to.as_str())
            })
            .returning(move |_, _, _, _, _, _| Ok(stored(to)));
    }
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_bundles().returning(|_| Ok(vec![]));
    let svc = service_with(catalogue, orders);
    let id = stored(OrderStatus::Received).id.to_string();
    let done = svc
        .advance(
            &id,
            Some(OrderStatus::Complete),
            None,
            &Actor::person("ops@example.org"),
        )
        .await
        .unwrap();
    assert_eq!(done.status, OrderStatus::Complete);
}

#[tokio::test]
async fn an_unconfirmed_order_is_cancelled_only_while_received_and_unaudited() {
    let mut orders = holding(OrderStatus::Received);
    orders
        .expect_transition()
        .times(1)
        .withf(|_, from, e, projects, allocations, audit| {
            *from == OrderStatus::Received
                && e.status == OrderStatus::Cancelled
                && projects.is_none()
                && allocations.is_empty()
                && audit.is_none()
        })
        .returning(|_, _, _, _, _, _| Ok(stored(OrderStatus::Cancelled)));
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let done = svc
        .cancel_unconfirmed(stored(OrderStatus::Received).id)
        .await
        .unwrap();
    assert_eq!(done.status, OrderStatus::Cancelled);

    // placed (an operator confirmed it) or paid: left alone
    for status in [OrderStatus::Placed, OrderStatus::Paid] {
        let mut orders = MockOrderRepository::new();
        orders
            .expect_get()
            .returning(move |_| Ok(Some(stored(status))));
        orders.expect_transition().never();
        let svc = service_with(MockCatalogueRepository::new(), orders);
        let err = svc.cancel_unconfirmed(stored(status).id).await;
        assert!(
            matches!(err, Err(TransitionError::Illegal { .. })),
            "{status:?}"
        );
    }
}

#[tokio::test]
async fn illegal_transitions_and_lost_races_are_reported() {
    for (status, to) in [
        (OrderStatus::Paid, OrderStatus::Cancelled),
        (OrderStatus::Complete, OrderStatus::Failed),
        (OrderStatus::Cancelled, OrderStatus::Placed),
    ] {
        let mut orders = MockOrderRepository::new();
        let current = stored(status);
        orders
            .expect_get()
            .returning(move |_| Ok(Some(current.clone())));
        let svc = service_with(MockCatalogueRepository::new(), orders);
        let err = svc
            .advance(
                &stored(status).id.to_string(),
                Some(to),
                None,
                &Actor::CommandLine,
            )
            .await;
        assert!(
            matches!(err, Err(TransitionError::Illegal { .. })),
            "{status:?} → {to:?}"
        );
    }
    let mut orders = holding(OrderStatus::Received);
    orders
        .expect_transition()
        .returning(|_, _, _, _, _, _| Err(StoreError::NotFound));
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let err = svc
        .advance(
            &stored(OrderStatus::Received).id.to_string(),
            Some(OrderStatus::Cancelled),
            None,
            &Actor::CommandLine,
        )
        .await;
    assert!(matches!(err, Err(TransitionError::Conflict)));
    let err = svc
        .advance("not-an-id", None, None, &Actor::CommandLine)
        .await;
    assert!(matches!(err, Err(TransitionError::NotFound)));
}

#[tokio::test]
async fn a_serial_over_200_characters_is_refused_before_anything_is_read() {
    // no expectation on the repositories: any call would fail the test
    let svc = service_with(MockCatalogueRepository::new(), MockOrderRepository::new());
    for serial in ["9".repeat(crate::MAX_SERIAL_CHARS + 1), "VCS-1\u{0}".into()] {
        let err = svc
            .advance(
                &stored(OrderStatus::Retiring).id.to_string(),
                Some(OrderStatus::Complete),
                Some(serial),
                &Actor::CommandLine,
            )
            .await;
        assert!(
            matches!(err, Err(TransitionError::InvalidSerial(_))),
            "{err:?}"
        );
    }
}

#[tokio::test]
async fn a_declined_payment_fails_the_order_instead_of_paying_it() {
    let mut orders = holding(OrderStatus::Placed);
    orders
        .expect_transition()
        .times(1)
        .withf(|_, from, e, _, _, audit| {
            // what happened is recorded, not what was asked for
            *from == OrderStatus::Placed
                && e.status == OrderStatus::Failed
                && audit.as_ref().is_some_and(|a| a.action == "order.failed")
        })
        .returning(|_, _, _, _, _, _| Ok(stored(OrderStatus::Failed)));
    let mut accounts = MockAccountDirectory::new();
    accounts
        .expect_currency()
        .returning(|_| Ok(Some(Currency::Gbp)));
    accounts.expect_holder().returning(|_| Ok(Some(holder())));
    let mut payments = crate::ports::MockPaymentGateway::new();
    payments.expect_collect().returning(|_| {
        Ok(crate::ports::PaymentOutcome::Declined {
            reason: "card declined".into(),
        })
    });
    let declining = crate::ports::Fulfilment {
        payments: Arc::new(payments),
        registry: fulfilment().registry,
    };
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .return_const(datetime!(2026-06-01 00:00 UTC));
    let svc = Ordering::new(
        Arc::new(MockCatalogueRepository::new()),
        Arc::new(orders),
        Arc::new(accounts),
        (declining, fulfilment()),
        Arc::new(clock),
        Settings::default(),
    );
    let order = svc
        .advance(
            &stored(OrderStatus::Placed).id.to_string(),
            None,
            None,
            &Actor::CommandLine,
        )
        .await
        .unwrap();
    assert_eq!(order.status, OrderStatus::Failed);
}

#[tokio::test]
async fn retirement_records_name_the_orders_projects_and_only_changes_are_written() {
    use crate::{ProjectAllocation, ProjectId, Registry};
    let project = ProjectId::from_uuid(Uuid::from_u128(10));
    let with_project = move |status: OrderStatus| {
        let mut order = stored(status);
        order.projects = vec![ProjectAllocation {
            id: crate::AllocationId::from_uuid(Uuid::from_u128(110)),
            allocated_at: time::OffsetDateTime::UNIX_EPOCH,
            project_id: project,
            project_name: "P10".into(),
            project_type: "Biochar".into(),
            project_slug: "p10".into(),
            registry: Registry::PuroEarth,
            quantity: Mass::from_grams(1_000_000),
            unit_price: tonne_kernel::Money::from_minor(1000, Currency::Gbp),
            offset_cost: tonne_kernel::Money::from_minor(1000, Currency::Gbp),
            serial: Some("PURO-1".into()),
            registry_record: None,
        }];
        order
    };
    let mut orders = MockOrderRepository::new();
    let mut status = OrderStatus::Complete;
    orders.expect_get().returning(move |_| {
        let now = status;
        status = OrderStatus::Paid;
        Ok(Some(with_project(now)))
    });
    orders
        .expect_record_retirement()
        .times(1)
        .withf(move |_, records, allocations, audit| {
            records.len() == 1
                // the serial was there: no allocation retired anew
                && allocations.is_empty()
                && audit.action == "order.retirement_recorded"
                && audit.changed_fields() == ["record P10"]
                && audit.after.get("record P10") == Some("https://registry.example/r/1")
        })
        .returning(move |_, _, _, _| Ok(with_project(OrderStatus::Complete)));
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let id = stored(OrderStatus::Complete).id.to_string();
    let record = |serial: &str, url: &str| RetirementRecord::parse(project, serial, url).unwrap();
    // the same serial and a new address: only the address is recorded
    svc.record_retirement(
        &id,
        vec![record("PURO-1", "https://registry.example/r/1")],
        &Actor::CommandLine,
    )
    .await
    .unwrap();
    // the order read next is paid: nothing retired yet
    assert!(matches!(
        svc.record_retirement(&id, vec![record("X", "")], &Actor::CommandLine)
            .await,
        Err(crate::RecordError::NotRetiring("paid"))
    ));
}

#[tokio::test]
async fn allocation_events_go_with_the_step_or_the_record_that_retires_them() {
    use crate::{AllocationId, AllocationStatus, ProjectAllocation, ProjectId};
    let allocation = |n: u128, serial: Option<&str>| {
        ProjectAllocation::sample(n, serial, datetime!(2026-01-01 00:00 UTC))
    };
    let retiring = move || {
        let mut order = stored(OrderStatus::Retiring);
        order.projects = vec![allocation(1, Some("PURO-1")), allocation(2, None)];
        order
    };
    let only_two_retired = |allocations: &Vec<crate::AllocationEvent>| {
        allocations.len() == 1
            && allocations[0].allocation == AllocationId::from_uuid(Uuid::from_u128(102))
            && allocations[0].status == AllocationStatus::Retired
            && allocations[0].at == datetime!(2026-06-01 00:00 UTC)
    };

    // completing: the allocation without a serial is retired with the step
    let mut orders = MockOrderRepository::new();
    orders.expect_get().returning(move |_| Ok(Some(retiring())));
    orders
        .expect_transition()
        .times(1)
        .withf(move |_, from, e, projects, allocations, _| {
            *from == OrderStatus::Retiring
                && e.status == OrderStatus::Complete
                && projects.is_none()
                && only_two_retired(allocations)
        })
        .returning(|_, _, _, _, _, _| Ok(stored(OrderStatus::Complete)));
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let id = retiring().id.to_string();
    svc.advance(&id, None, None, &Actor::CommandLine)
        .await
        .unwrap();

    // recording project 2's first serial while retiring retires it then
    let mut orders = MockOrderRepository::new();
    orders.expect_get().returning(move |_| Ok(Some(retiring())));
    orders
        .expect_record_retirement()
        .times(1)
        .withf(move |_, records, allocations, _| {
            records.len() == 1 && only_two_retired(allocations)
        })
        .returning(move |_, _, _, _| Ok(retiring()));
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let record =
        RetirementRecord::parse(ProjectId::from_uuid(Uuid::from_u128(2)), "PURO-2", "").unwrap();
    svc.record_retirement(&id, vec![record], &Actor::CommandLine)
        .await
        .unwrap();
}
