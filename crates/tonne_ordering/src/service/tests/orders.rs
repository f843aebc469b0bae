//! Placing orders: events, idempotency keys, estimates, refused input, reads by key.

use super::*;

#[tokio::test]
async fn an_order_is_placed_in_received_with_its_event_and_a_repeated_key_is_a_conflict() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .times(1)
        .withf(|order, event| {
            order.status == OrderStatus::Received
                && event.status == OrderStatus::Received
                && order.mode == AccountMode::Test
                && order.idempotency_key.as_ref().map(IdempotencyKey::as_str) == Some("k1")
                && order.total_cost.to_decimal_string() == "11.00"
        })
        .returning(|order, _| Ok(order.clone()));
    orders
        .expect_place()
        .returning(|_, _| Err(PlaceError::IdempotencyKeyTaken));
    let svc = service_with(one_bundle(), orders);
    let order = svc
        .create_order(
            account(),
            AccountMode::Test,
            order_request(Some("k1"), vec![]),
        )
        .await
        .unwrap();
    assert_eq!(order.kind, OrderKind::Quantity);
    let again = svc
        .create_order(
            account(),
            AccountMode::Test,
            order_request(Some("k1"), vec![]),
        )
        .await;
    assert!(matches!(again, Err(CreateOrderError::IdempotencyKeyExists)));
}

#[tokio::test]
async fn an_estimate_is_ordered_for_its_mass_once() {
    let estimate = tonne_kernel::EstimateId::from_uuid(uuid::Uuid::from_u128(42));
    let mut orders = MockOrderRepository::new();
    orders
        .expect_place()
        .times(1)
        .withf(move |order, _| {
            order.estimate_id == Some(estimate)
                && order.requested_quantity.map(|m| m.grams()) == Some(1_500_000)
                && order.kind == OrderKind::Quantity
        })
        .returning(|order, _| Ok(order.clone()));
    orders
        .expect_place()
        .returning(|_, _| Err(PlaceError::EstimateAlreadyOrdered));
    orders.expect_by_idempotency_key().never();
    let svc = service_with(one_bundle(), orders);
    let request = || OrderRequest {
        pricing: Pricing::Estimate {
            estimate_id: estimate,
            mass: tonne_kernel::Mass::from_grams(1_500_000),
            selection: Some(vec![entry(1, None)]),
            trunc: None,
        },
        idempotency_key: Some("e1".into()),
        metadata: vec![],
        origin: None,
        payment_method: crate::orders::PaymentMethod::Invoice,
        payment_reference: None,
    };
    let order = svc
        .create_order(account(), AccountMode::Live, request())
        .await
        .unwrap();
    assert_eq!(order.quantity.grams(), 1_500_000);
    // the store refuses a second order of the estimate; the key is free, so it is the estimate
    let again = svc
        .create_order(account(), AccountMode::Live, request())
        .await;
    assert!(matches!(
        again,
        Err(CreateOrderError::EstimateAlreadyOrdered)
    ));
}

#[tokio::test]
async fn bad_keys_and_metadata_are_refused_before_anything_is_written() {
    let svc = service_with(MockCatalogueRepository::new(), MockOrderRepository::new());
    let long_key = "k".repeat(101);
    for request in [
        order_request(Some(""), vec![]),
        order_request(Some(&long_key), vec![]),
        order_request(
            None,
            (0..51).map(|i| (format!("k{i}"), "v".into())).collect(),
        ),
        order_request(None, vec![(String::new(), "v".into())]),
        order_request(None, vec![("k".into(), "v".repeat(501))]),
    ] {
        let err = svc
            .create_order(account(), AccountMode::Live, request)
            .await;
        assert!(matches!(
            err,
            Err(CreateOrderError::Quote(QuoteError::Invalid { .. }))
        ));
    }
}

#[tokio::test]
async fn a_key_reads_only_its_organisations_orders_of_its_mode() {
    let order = stored(OrderStatus::Received);
    let (live, id) = (order.mode, order.id.to_string());
    let organisation = tonne_kernel::OrganisationId::from_uuid(uuid::Uuid::from_u128(9));
    let mut orders = MockOrderRepository::new();
    orders
        .expect_in_organisation()
        .returning(move |_, _| Ok(Some(order.clone())));
    let svc = service_with(MockCatalogueRepository::new(), orders);
    assert!(svc.key_order(organisation, live, &id).await.is_ok());
    // the other mode's key is told "not found", as for an unknown id
    assert!(matches!(
        svc.key_order(organisation, AccountMode::Test, &id).await,
        Err(ReadOrderError::NotFound)
    ));
    assert!(matches!(
        svc.key_order(organisation, live, "not-an-id").await,
        Err(ReadOrderError::NotFound)
    ));
}
