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
