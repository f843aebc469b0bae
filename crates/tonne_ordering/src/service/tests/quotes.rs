//! Quotes: selections, shares, values, bundle masses, many quotes at once.

use super::*;

#[tokio::test]
async fn a_selection_is_priced_in_request_order_and_adds_up() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(2, 2000), bundle(1, 1000)]));
    let svc = service(catalogue);
    let q = svc
        .quote_by_mass(
            account(),
            split("10", Some(vec![entry(1, Some("25")), entry(2, Some("75"))])),
        )
        .await
        .unwrap();
    assert_eq!(
        q.lines[0].bundle_id,
        BundleId::from_uuid(Uuid::from_u128(1))
    );
    assert_eq!(q.lines[0].quantity.to_tonnes_string(), "2.5");
    assert_eq!(q.lines[1].quantity.to_tonnes_string(), "7.5");
    assert_eq!(q.offset_cost.to_decimal_string(), "175.00");
    assert_eq!(q.commission.to_decimal_string(), "17.50");
    assert_eq!(q.total_cost.to_decimal_string(), "192.50");
    assert_eq!(
        q.requested_quantity.map(|m| m.to_tonnes_string()),
        Some("10".into())
    );
}

#[tokio::test]
async fn percentages_must_sum_to_100_and_be_all_or_none_before_any_lookup() {
    let svc = service(MockCatalogueRepository::new());
    let err = svc
        .quote_by_mass(
            account(),
            split(
                "1",
                Some(vec![entry(1, Some("50")), entry(2, Some("49.99"))]),
            ),
        )
        .await;
    assert!(matches!(err, Err(QuoteError::RatiosInvalid(_))));
    let err = svc
        .quote_by_mass(
            account(),
            split("1", Some(vec![entry(1, Some("50")), entry(2, None)])),
        )
        .await;
    assert!(matches!(err, Err(QuoteError::RatiosFormat(_))));
    let err = svc
        .quote_by_mass(
            account(),
            split("1", Some(vec![entry(1, None), entry(1, None)])),
        )
        .await;
    assert!(matches!(err, Err(QuoteError::BundleInvalid(_))));
    let err = svc.quote_by_mass(account(), split("0", None)).await;
    assert!(matches!(err, Err(QuoteError::QuantityInvalid(_))));
    let many = (0..10_000).map(|i| entry(i, None)).collect();
    let err = svc.quote_by_mass(account(), split("1", Some(many))).await;
    assert!(matches!(
        err,
        Err(QuoteError::Invalid {
            field: "bundle_selection",
            ..
        })
    ));
}

#[tokio::test]
async fn unknown_disabled_or_unpriced_bundles_are_invalid() {
    for found in [
        vec![],
        vec![{
            let mut b = bundle(1, 100);
            b.disabled = true;
            b
        }],
        vec![{
            let mut b = bundle(1, 100);
            b.prices = vec![];
            b
        }],
    ] {
        let mut catalogue = MockCatalogueRepository::new();
        catalogue
            .expect_bundles()
            .returning(move |_| Ok(found.clone()));
        let err = service(catalogue)
            .quote_by_mass(account(), split("1", Some(vec![entry(1, None)])))
            .await;
        assert!(matches!(err, Err(QuoteError::BundleInvalid(_))));
    }
}

#[tokio::test]
async fn without_a_selection_the_default_shares_apply() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_default_selection().returning(|| {
        let mut a = bundle(1, 1000);
        a.default_share = Some(6000);
        let mut b = bundle(2, 1000);
        b.default_share = Some(4000);
        Ok(vec![a, b])
    });
    let q = service(catalogue)
        .quote_by_mass(account(), split("1", None))
        .await
        .unwrap();
    assert_eq!(q.line_tonnes(), vec!["0.6", "0.4"]);
}

#[tokio::test]
async fn values_are_positive_money_in_the_account_currency() {
    let svc = service(MockCatalogueRepository::new());
    for bad in [
        "0",
        "0.00",
        "12.345",
        "-1",
        "abc",
        "1e3",
        "",
        "10000000000000",
    ] {
        let err = svc
            .quote_by_value(
                account(),
                ValueRequest {
                    value: bad.into(),
                    selection: None,
                    trunc: None,
                },
            )
            .await;
        assert!(matches!(err, Err(QuoteError::QuantityInvalid(_))), "{bad}");
    }
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(1, 1000)]));
    let q = service(catalogue)
        .quote_by_value(
            account(),
            ValueRequest {
                value: "110".into(),
                selection: Some(vec![entry(1, None)]),
                trunc: Some(MassUnit::T),
            },
        )
        .await
        .unwrap();
    assert_eq!(q.quantity.to_tonnes_string(), "10");
    assert_eq!(q.total_cost.to_decimal_string(), "110.00");
}

#[tokio::test]
async fn explicit_bundle_masses_are_truncated_and_priced() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(1, 1000), bundle(2, 500)]));
    let masses = vec![
        (
            BundleId::from_uuid(Uuid::from_u128(1)).to_string(),
            Mass::parse("1.9", MassUnit::T).unwrap(),
        ),
        (
            BundleId::from_uuid(Uuid::from_u128(2)).to_string(),
            Mass::parse("2", MassUnit::T).unwrap(),
        ),
    ];
    let q = service(catalogue)
        .quote_by_mass(
            account(),
            MassRequest::BundleMasses {
                masses,
                trunc: Some(MassUnit::T),
            },
        )
        .await
        .unwrap();
    assert_eq!(q.quantity.to_tonnes_string(), "3");
    assert_eq!(q.offset_cost.to_decimal_string(), "20.00");
}

#[tokio::test]
async fn many_quotes_read_each_selection_once_and_match_single_quotes() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_account_selection()
        .times(1)
        .returning(|_| Ok(vec![]));
    catalogue
        .expect_default_selection()
        .times(1)
        .returning(|| Ok(defaults()));
    catalogue
        .expect_bundles()
        .times(1)
        .returning(|_| Ok(vec![bundle(3, 700)]));
    let svc = service_with(catalogue, MockOrderRepository::new());
    let mut requests: Vec<MassRequest> = (1..=100)
        .map(|i| split(&format!("0.{i:03}"), None))
        .collect();
    requests.push(split("2", Some(vec![entry(3, None)])));
    requests.push(split("0", None));
    let many = svc.quote_many_by_mass(account(), requests.clone()).await;
    assert_eq!(many.len(), 102);
    assert!(matches!(many[101], Err(QuoteError::QuantityInvalid(_))));
    // the same as one by one (each priced by the same engine)
    let mut single_catalogue = MockCatalogueRepository::new();
    single_catalogue
        .expect_account_selection()
        .returning(|_| Ok(vec![]));
    single_catalogue
        .expect_default_selection()
        .returning(|| Ok(defaults()));
    single_catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(3, 700)]));
    let single = service_with(single_catalogue, MockOrderRepository::new());
    for (r, q) in requests.iter().zip(&many) {
        let one = single.quote_by_mass(account(), r.clone()).await;
        assert_eq!(format!("{q:?}"), format!("{one:?}"));
    }
    assert!(many.iter().take(101).all(Result::is_ok), "{many:?}");
}
