//! A card authorised on a hosted page is collected at once: received →
//! placed → paid, each step its own event, with no author.

use super::*;

fn authorised(status: OrderStatus) -> Order {
    let mut order = stored(status);
    order.payment_method = crate::orders::PaymentMethod::Card;
    order.payment_reference = Some("pi_1".into());
    order
}

#[tokio::test]
async fn an_authorised_card_order_is_placed_then_paid_without_an_author() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(|_| Ok(Some(authorised(OrderStatus::Received))));
    let mut seq = mockall::Sequence::new();
    for (from, to) in [
        (OrderStatus::Received, OrderStatus::Placed),
        (OrderStatus::Placed, OrderStatus::Paid),
    ] {
        orders
            .expect_transition()
            .times(1)
            .in_sequence(&mut seq)
            .withf(move |_, f, e, _, _, audit| *f == from && e.status == to && audit.is_none())
            .returning(move |_, _, _, _, _, _| Ok(authorised(to)));
    }
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let paid = svc
        .collect_authorised(authorised(OrderStatus::Received).id)
        .await
        .unwrap();
    assert_eq!(paid.status, OrderStatus::Paid);
}

#[tokio::test]
async fn an_order_without_an_authorisation_or_moved_on_is_left_alone() {
    for order in [
        stored(OrderStatus::Received),
        authorised(OrderStatus::Placed),
    ] {
        let mut orders = MockOrderRepository::new();
        let given = order.clone();
        orders
            .expect_get()
            .returning(move |_| Ok(Some(given.clone())));
        orders.expect_transition().never();
        let svc = service_with(MockCatalogueRepository::new(), orders);
        let err = svc.collect_authorised(order.id).await;
        assert!(
            matches!(err, Err(TransitionError::Illegal { .. })),
            "{err:?}"
        );
    }
}

/// A gateway that collects and records each give-back, failing when told.
fn giving_back(fails: bool) -> (crate::ports::Fulfilment, Arc<std::sync::Mutex<usize>>) {
    let given = Arc::new(std::sync::Mutex::new(0));
    let seen = given.clone();
    let mut payments = crate::ports::MockPaymentGateway::new();
    payments.expect_give_back().returning(move |o| {
        assert_eq!(o.payment_reference.as_deref(), Some("pi_1"));
        *seen.lock().unwrap() += 1;
        if fails {
            anyhow::bail!("Stripe is unreachable")
        }
        Ok(())
    });
    let f = crate::ports::Fulfilment {
        payments: Arc::new(payments),
        registry: fulfilment().registry,
    };
    (f, given)
}

fn service_giving_back(
    orders: MockOrderRepository,
    fails: bool,
) -> (Ordering, Arc<std::sync::Mutex<usize>>) {
    let mut accounts = MockAccountDirectory::new();
    accounts.expect_holder().returning(|_| Ok(Some(holder())));
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .return_const(datetime!(2026-06-01 00:00 UTC));
    let (live, given) = giving_back(fails);
    let svc = Ordering::new(
        Arc::new(MockCatalogueRepository::new()),
        Arc::new(orders),
        Arc::new(accounts),
        (live, fulfilment()),
        Arc::new(clock),
        Settings::default(),
    );
    (svc, given)
}

#[tokio::test]
async fn a_card_order_given_up_is_given_back_before_it_moves() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(|_| Ok(Some(authorised(OrderStatus::Paid))));
    orders
        .expect_transition()
        .times(1)
        .withf(|_, from, e, _, _, _| *from == OrderStatus::Paid && e.status == OrderStatus::Failed)
        .returning(|_, _, _, _, _, _| Ok(authorised(OrderStatus::Failed)));
    let (svc, given) = service_giving_back(orders, false);
    let id = authorised(OrderStatus::Paid).id.to_string();
    let failed = svc
        .advance(&id, Some(OrderStatus::Failed), None, &Actor::CommandLine)
        .await
        .unwrap();
    assert_eq!(failed.status, OrderStatus::Failed);
    assert_eq!(*given.lock().unwrap(), 1, "refunded once");

    // the processor unreachable: the order stays where it was
    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(|_| Ok(Some(authorised(OrderStatus::Placed))));
    orders.expect_transition().never();
    let (svc, given) = service_giving_back(orders, true);
    let id = authorised(OrderStatus::Placed).id.to_string();
    let r = svc
        .advance(&id, Some(OrderStatus::Cancelled), None, &Actor::CommandLine)
        .await;
    assert!(r.is_err(), "{r:?}");
    assert_eq!(*given.lock().unwrap(), 1);
}

#[tokio::test]
async fn a_hold_is_released_by_an_operator_with_its_audit_entry_and_only_if_held() {
    let mut orders = MockOrderRepository::new();
    orders.expect_get().returning(|_| {
        let mut o = authorised(OrderStatus::Paid);
        o.held = Some(crate::DISPUTE_HOLD.into());
        Ok(Some(o))
    });
    orders
        .expect_release_hold()
        .times(1)
        .withf(|_, audit| {
            audit.action == "order.hold_released" && audit.organisation == Some(organisation())
        })
        .returning(|_, _| Ok(Some(authorised(OrderStatus::Paid))));
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let id = authorised(OrderStatus::Paid).id.to_string();
    let released = svc
        .release_hold(&id, &Actor::person("ops@example.org"))
        .await
        .unwrap();
    assert_eq!(released.held, None);

    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(|_| Ok(Some(authorised(OrderStatus::Paid))));
    orders.expect_release_hold().never();
    let svc = service_with(MockCatalogueRepository::new(), orders);
    assert!(matches!(
        svc.release_hold(&id, &Actor::CommandLine).await,
        Err(TransitionError::Illegal { .. })
    ));
}

#[tokio::test]
async fn a_held_order_moves_only_to_cancelled_or_failed() {
    let mut orders = MockOrderRepository::new();
    orders.expect_get().returning(|_| {
        let mut o = authorised(OrderStatus::Paid);
        o.held = Some(crate::DISPUTE_HOLD.into());
        Ok(Some(o))
    });
    orders.expect_transition().never();
    let svc = service_with(MockCatalogueRepository::new(), orders);
    let id = authorised(OrderStatus::Paid).id.to_string();
    let r = svc
        .advance(&id, Some(OrderStatus::Retiring), None, &Actor::CommandLine)
        .await;
    assert!(matches!(r, Err(TransitionError::OnHold(_))), "{r:?}");
}
