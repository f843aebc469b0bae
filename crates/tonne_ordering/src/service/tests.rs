//! Tests of the ordering use cases over mocked ports.

use std::sync::Arc;

use time::macros::datetime;
use tonne_kernel::{AccountId, Actor, Currency, Mass, MassUnit, MockClock};
use uuid::Uuid;

use super::*;
use crate::ports::StoreError;
use crate::ports::{MockAccountDirectory, MockCatalogueRepository, MockOrderRepository};
use crate::selection::Percentage;
use crate::{IdempotencyKey, OrderKind, PlaceError, Pricing};
use tonne_kernel::AccountMode;

fn bundle(n: u128, minor: i64) -> Bundle {
    Bundle::sample(n, minor)
}

fn account() -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(9))
}

fn service(mut catalogue: MockCatalogueRepository) -> Ordering {
    catalogue
        .expect_account_selection()
        .returning(|_| Ok(vec![]));
    service_with(catalogue, MockOrderRepository::new())
}

/// Payments that always succeed and a registry that issues `R-n` serials.
fn fulfilment() -> crate::ports::Fulfilment {
    let mut payments = crate::ports::MockPaymentGateway::new();
    payments
        .expect_collect()
        .returning(|_| Ok(crate::ports::PaymentOutcome::Paid));
    let mut registry = crate::ports::MockCarbonRegistry::new();
    registry.expect_retire().returning(|_, projects, _| {
        Ok((1..=projects.len())
            .map(|n| Some(format!("R-{n}")))
            .collect())
    });
    crate::ports::Fulfilment {
        payments: Arc::new(payments),
        registry: Arc::new(registry),
    }
}

/// The organisation every test account belongs to.
fn organisation() -> tonne_kernel::OrganisationId {
    tonne_kernel::OrganisationId::from_uuid(uuid::Uuid::from_u128(77))
}

fn holder() -> crate::AccountHolder {
    crate::AccountHolder {
        organisation_id: organisation(),
        name: "Acme".into(),
        beneficiary: "Acme".into(),
        logo: None,
    }
}

fn service_with(catalogue: MockCatalogueRepository, orders: MockOrderRepository) -> Ordering {
    let mut accounts = MockAccountDirectory::new();
    accounts
        .expect_currency()
        .returning(|_| Ok(Some(Currency::Gbp)));
    accounts.expect_holder().returning(|_| Ok(Some(holder())));
    let mut clock = MockClock::new();
    clock
        .expect_now()
        .return_const(datetime!(2026-06-01 00:00 UTC));
    Ordering::new(
        Arc::new(catalogue),
        Arc::new(orders),
        Arc::new(accounts),
        (fulfilment(), fulfilment()),
        Arc::new(clock),
        Settings::default(),
    )
}

fn entry(n: u128, pct: Option<&str>) -> SelectionEntry {
    SelectionEntry {
        bundle_id: BundleId::from_uuid(Uuid::from_u128(n)).to_string(),
        percentage: pct.map(|p| Percentage::parse(p).unwrap()),
    }
}

fn split(mass: &str, selection: Option<Vec<SelectionEntry>>) -> MassRequest {
    MassRequest::Split {
        mass: Mass::parse(mass, MassUnit::T).unwrap(),
        selection,
        trunc: None,
    }
}

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
    assert_eq!(
        q.lines
            .iter()
            .map(|l| l.quantity.to_tonnes_string())
            .collect::<Vec<_>>(),
        vec!["0.6", "0.4"]
    );
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

fn order_request(key: Option<&str>, metadata: Vec<(String, String)>) -> OrderRequest {
    OrderRequest {
        pricing: Pricing::Mass(split("1", Some(vec![entry(1, None)]))),
        idempotency_key: key.map(str::to_owned),
        metadata,
        origin: None,
        payment_method: crate::orders::PaymentMethod::Invoice,
        payment_reference: None,
    }
}

fn one_bundle() -> MockCatalogueRepository {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_account_selection()
        .returning(|_| Ok(vec![]));
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(1, 1000)]));
    catalogue
}

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

fn stored(status: OrderStatus) -> Order {
    let quote = crate::quote::price(
        &[],
        &[],
        Currency::Gbp,
        crate::pricing::CommissionRate::TEN_PERCENT,
    )
    .unwrap();
    let mut order = Order::from_quote(
        quote,
        OrderKind::Quantity,
        account(),
        AccountMode::Live,
        None,
        vec![],
        datetime!(2026-01-01 00:00 UTC),
    );
    order.status = status;
    order
}

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
    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(|_| Ok(Some(stored(OrderStatus::Received))));
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
    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(|_| Ok(Some(stored(OrderStatus::Received))));
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
async fn an_account_selection_beats_the_catalogue_default() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_account_selection()
        .returning(|_| Ok(vec![(bundle(7, 1000), 10_000)]));
    let q = service_with(catalogue, MockOrderRepository::new())
        .quote_by_mass(account(), split("1", None))
        .await
        .unwrap();
    assert_eq!(q.lines.len(), 1);
    assert_eq!(
        q.lines[0].bundle_id,
        BundleId::from_uuid(Uuid::from_u128(7))
    );
}

#[tokio::test]
async fn setting_an_account_selection_validates_it_first() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(1, 1000), bundle(2, 1000)]));
    catalogue
        .expect_set_account_selection()
        .times(1)
        .withf(|_, s, audit| {
            s.iter().map(|(_, share)| *share).collect::<Vec<_>>() == vec![2500, 7500]
                && audit.as_ref().is_some_and(|a| {
                    a.action == "account.selection_set"
                        && a.organisation == Some(organisation())
                        && a.after.get("selection").is_some_and(|v| v.contains("25%"))
                })
        })
        .returning(|_, _, _| Ok(()));
    let svc = service_with(catalogue, MockOrderRepository::new());
    let id = account().to_string();
    let bad = svc
        .set_account_selection(
            &id,
            vec![entry(1, Some("20")), entry(2, Some("75"))],
            &Actor::CommandLine,
        )
        .await;
    assert!(matches!(bad, Err(QuoteError::RatiosInvalid(_))));
    svc.set_account_selection(
        &id,
        vec![entry(1, Some("25")), entry(2, Some("75"))],
        &Actor::CommandLine,
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_declined_payment_fails_the_order_instead_of_paying_it() {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(|_| Ok(Some(stored(OrderStatus::Placed))));
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

fn defaults() -> Vec<Bundle> {
    let mut a = bundle(1, 1000);
    a.default_share = Some(6000);
    let mut b = bundle(2, 2500);
    b.default_share = Some(4000);
    vec![a, b]
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

fn catalogue_project(n: u128, link: Option<&str>) -> crate::catalogue::Project {
    use crate::catalogue::{Project, ProjectId, Registry};
    Project {
        id: ProjectId::from_uuid(Uuid::from_u128(n)),
        slug: format!("p{n}"),
        name: format!("P{n}"),
        short_name: format!("P{n}"),
        description: String::new(),
        project_type: "Biochar".into(),
        registry: Registry::PuroEarth,
        registry_link: link.map(str::to_owned),
        latitude: rust_decimal::Decimal::ZERO,
        longitude: rust_decimal::Decimal::ZERO,
        country_name: format!("Country {n}"),
        country_code: "XXX".into(),
        region: None,
        logo: None,
        primary_image: None,
        thumbnail_image: None,
        results: vec![],
        un_sdg: vec![],
        media: vec![],
        disabled: false,
        disabled_at: None,
        bundle_ids: vec![],
        facts: Default::default(),
    }
}

fn portfolio(n: u128, selection: Vec<(u128, u32)>) -> crate::BundlePortfolio {
    crate::BundlePortfolio {
        id: crate::BundlePortfolioId::from_uuid(Uuid::from_u128(n)),
        identifier: format!("portfolio-{n}"),
        label: format!("Portfolio {n}"),
        selection: selection
            .into_iter()
            .map(|(b, s)| (BundleId::from_uuid(Uuid::from_u128(b)), s))
            .collect(),
    }
}

#[tokio::test]
async fn a_certificate_is_a_complete_order_with_its_holder_and_catalogue_facts() {
    use crate::catalogue::{ProjectId, Registry};
    use crate::orders::{ProjectAllocation, ProjectStatus};
    use crate::views::AccountHolder;
    let allocation = |n: u128, serial: Option<&str>| ProjectAllocation {
        id: crate::AllocationId::from_uuid(Uuid::from_u128(100 + n)),
        allocated_at: time::OffsetDateTime::UNIX_EPOCH,
        project_id: ProjectId::from_uuid(Uuid::from_u128(n)),
        project_name: format!("P{n}"),
        project_type: "Biochar".into(),
        project_slug: format!("p{n}"),
        registry: Registry::PuroEarth,
        quantity: Mass::from_grams(500_000),
        unit_price: tonne_kernel::Money::from_minor(1000, Currency::Gbp),
        offset_cost: tonne_kernel::Money::from_minor(500, Currency::Gbp),
        serial: serial.map(str::to_owned),
        registry_record: None,
    };
    let mut complete = stored(OrderStatus::Complete);
    // project 12 has left the catalogue since; project 11's record has no link
    complete.projects = vec![
        allocation(10, Some("PURO-7")),
        allocation(11, None),
        allocation(12, None),
    ];
    let retiring = stored(OrderStatus::Retiring);
    let (complete_id, retiring_id) = (complete.id, retiring.id);
    let mut orders = MockOrderRepository::new();
    orders.expect_get().returning(move |id| {
        Ok(Some(if id == complete_id {
            complete.clone()
        } else {
            retiring.clone()
        }))
    });
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_projects().times(1).returning(|ids| {
        assert_eq!(ids.len(), 3, "one read for every project of the order");
        Ok(vec![
            catalogue_project(11, None),
            catalogue_project(10, Some("https://registry.example/p10")),
        ])
    });
    let mut accounts = MockAccountDirectory::new();
    accounts.expect_holder().times(1).returning(|a| {
        assert_eq!(a, account());
        Ok(Some(AccountHolder {
            organisation_id: organisation(),
            name: "Acme".into(),
            beneficiary: "Acme Foundation".into(),
            logo: Some("https://tonne.example/logos/acme.png".into()),
        }))
    });
    let svc = Ordering::new(
        Arc::new(catalogue),
        Arc::new(orders),
        Arc::new(accounts),
        (fulfilment(), fulfilment()),
        Arc::new(MockClock::new()),
        Settings::default(),
    );
    let c = svc.certificate(&complete_id.to_string()).await.unwrap();
    assert_eq!(c.holder.beneficiary, "Acme Foundation");
    let facts: Vec<_> = c
        .projects
        .iter()
        .map(|p| {
            (
                p.allocation.project_id,
                p.status,
                p.country_name.as_deref(),
                p.registry_link.as_deref(),
            )
        })
        .collect();
    let id = |n| ProjectId::from_uuid(Uuid::from_u128(n));
    assert_eq!(
        facts,
        vec![
            (
                id(10),
                ProjectStatus::Retired,
                Some("Country 10"),
                Some("https://registry.example/p10")
            ),
            (id(11), ProjectStatus::Retired, Some("Country 11"), None),
            (id(12), ProjectStatus::Retired, None, None),
        ],
        "in the order's project order; the order is complete, so all are retired"
    );
    assert!(matches!(
        svc.certificate(&retiring_id.to_string()).await,
        Err(ReadOrderError::NotFound)
    ));
    assert!(matches!(
        svc.certificate("not-an-id").await,
        Err(ReadOrderError::NotFound)
    ));
}

#[tokio::test]
async fn a_request_sets_a_selection_only_when_it_is_whole_and_sellable() {
    let mut catalogue = MockCatalogueRepository::new();
    let mut disabled = bundle(3, 1000);
    disabled.disabled = true;
    catalogue
        .expect_bundles()
        .returning(move |_| Ok(vec![bundle(1, 1000), bundle(2, 1000), disabled.clone()]));
    // Written exactly once: by the one valid request below.
    catalogue
        .expect_set_account_selection()
        .times(1)
        .withf(|_, s, audit| {
            // the API's own setting is the client's data, not an operator's change
            audit.is_none()
                && s.iter().map(|(_, share)| *share).collect::<Vec<_>>() == vec![4000, 6000]
        })
        .returning(|_, _, _| Ok(()));
    let svc = service_with(catalogue, MockOrderRepository::new());
    let empty = svc.set_bundle_selection(account(), vec![]).await;
    assert!(
        matches!(empty, Err(QuoteError::RatiosInvalid(_))),
        "an empty selection does not clear it through the API"
    );
    let not_100 = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(2, Some("50"))])
        .await;
    assert!(matches!(not_100, Err(QuoteError::RatiosInvalid(_))));
    let off = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(3, Some("60"))])
        .await;
    assert!(matches!(off, Err(QuoteError::BundleInvalid(_))));
    let unknown = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(4, Some("60"))])
        .await;
    assert!(matches!(unknown, Err(QuoteError::BundleInvalid(_))));
    let set = svc
        .set_bundle_selection(account(), vec![entry(1, Some("40")), entry(2, Some("60"))])
        .await
        .unwrap();
    assert_eq!(set.iter().map(|(_, s)| *s).sum::<u32>(), 10_000);
}

#[tokio::test]
async fn the_selection_shown_is_the_one_orders_use_as_whole_percentages() {
    // The account's own selection names a bundle disabled since: the rest
    // keep their relative shares, shown as percentages summing to 100.
    let mut catalogue = MockCatalogueRepository::new();
    let mut gone = bundle(2, 1000);
    gone.disabled = true;
    catalogue.expect_account_selection().returning(move |_| {
        Ok(vec![
            (bundle(1, 1000), 2000),
            (gone.clone(), 5000),
            (bundle(3, 1000), 3000),
        ])
    });
    let svc = service_with(catalogue, MockOrderRepository::new());
    let shown = svc.bundle_selection(account()).await.unwrap();
    assert_eq!(
        shown,
        vec![
            (BundleId::from_uuid(Uuid::from_u128(1)), 4000),
            (BundleId::from_uuid(Uuid::from_u128(3)), 6000),
        ]
    );
}

#[tokio::test]
async fn following_a_portfolio_checks_it_exists_and_sells_first() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_portfolio().returning(|id| {
        Ok(
            (id == crate::BundlePortfolioId::from_uuid(Uuid::from_u128(21)))
                .then(|| portfolio(21, vec![(1, 5000), (2, 5000)]))
                .or_else(|| {
                    (id == crate::BundlePortfolioId::from_uuid(Uuid::from_u128(22)))
                        .then(|| portfolio(22, vec![(1, 5000), (5, 5000)]))
                }),
        )
    });
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![bundle(1, 1000), bundle(2, 1000)]));
    catalogue
        .expect_set_account_portfolio()
        .times(1)
        .withf(|_, id| *id == crate::BundlePortfolioId::from_uuid(Uuid::from_u128(21)))
        .returning(|_, _| Ok(()));
    let svc = service_with(catalogue, MockOrderRepository::new());
    for bad in [
        "nope",
        crate::BundlePortfolioId::from_uuid(Uuid::from_u128(23))
            .to_string()
            .as_str(),
    ] {
        let err = svc.set_bundle_portfolio(account(), bad).await;
        assert!(
            matches!(
                err,
                Err(QuoteError::Invalid {
                    field: "bundle_portfolio_id",
                    ..
                })
            ),
            "{bad}"
        );
    }
    let unsellable = svc
        .set_bundle_portfolio(
            account(),
            &crate::BundlePortfolioId::from_uuid(Uuid::from_u128(22)).to_string(),
        )
        .await;
    assert!(matches!(unsellable, Err(QuoteError::BundleInvalid(_))));
    let followed = svc
        .set_bundle_portfolio(
            account(),
            &crate::BundlePortfolioId::from_uuid(Uuid::from_u128(21)).to_string(),
        )
        .await
        .unwrap();
    assert_eq!(followed.identifier, "portfolio-21");
}

// ---- the operator's stock and sale ----

fn stocked(available_t: Option<i64>, disabled: bool) -> Bundle {
    Bundle {
        available: available_t.map(|t| Mass::from_grams(t * 1_000_000)),
        disabled,
        ..bundle(1, 1000)
    }
}

fn stock_service(catalogue: MockCatalogueRepository) -> Ordering {
    service_with(catalogue, MockOrderRepository::new())
}

#[tokio::test]
async fn a_stock_change_is_one_ledger_row_with_its_reason_and_an_audit_entry() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(Some(10), false)]));
    catalogue
        .expect_adjust_stock()
        .times(1)
        .withf(|entry, audit| {
            entry.delta_grams == -2_000_000
                && entry.reason == "withdrawn"
                && entry.actor == Actor::person("ops@example.org")
                && audit.action == "bundle.stock_changed"
                && audit.after.get("change") == Some("−2 t")
                && audit.after.get("reason") == Some("withdrawn")
        })
        .returning(|entry, _| {
            Ok(Some(crate::StockEntry {
                available_after: Mass::from_grams(8_000_000),
                ..entry
            }))
        });
    let svc = stock_service(catalogue);
    let done = svc
        .adjust_stock(
            &stocked(None, false).id.to_string(),
            crate::StockChange::parse("remove", "2").unwrap(),
            crate::StockReason::parse(" withdrawn ").unwrap(),
            &Actor::person("ops@example.org"),
        )
        .await
        .unwrap();
    assert_eq!(done.available_after, Mass::from_grams(8_000_000));
}

#[tokio::test]
async fn a_refused_stock_change_says_what_is_left_and_unlimited_bundles_have_no_stock() {
    let id = stocked(None, false).id.to_string();
    let remove = || crate::StockChange::parse("remove", "20").unwrap();
    let reason = || crate::StockReason::parse("sold").unwrap();
    // the guard refused it (another change ran first): the message says what is left
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(Some(10), false)]));
    catalogue.expect_adjust_stock().returning(|_, _| Ok(None));
    let err = stock_service(catalogue)
        .adjust_stock(&id, remove(), reason(), &Actor::CommandLine)
        .await;
    assert!(
        matches!(&err, Err(crate::StockError::Insufficient { available }) if available == "10"),
        "{err:?}"
    );
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(None, false)]));
    catalogue.expect_adjust_stock().never();
    let err = stock_service(catalogue)
        .adjust_stock(&id, remove(), reason(), &Actor::CommandLine)
        .await;
    assert!(matches!(err, Err(crate::StockError::Unlimited)));
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_bundles().returning(|_| Ok(vec![]));
    let err = stock_service(catalogue)
        .adjust_stock(&id, remove(), reason(), &Actor::CommandLine)
        .await;
    assert!(matches!(err, Err(crate::StockError::NotFound)));
}

#[tokio::test]
async fn taking_a_bundle_off_sale_is_audited_once() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue
        .expect_bundles()
        .returning(|_| Ok(vec![stocked(Some(1), false)]));
    catalogue
        .expect_set_bundle_disabled()
        .times(1)
        .withf(|_, at, audit| {
            at.is_some()
                && audit.action == "bundle.disabled"
                && audit.before.get("state") == Some("enabled")
                && audit.after.get("state") == Some("disabled")
        })
        .returning(|_, _, _| Ok(()));
    let svc = stock_service(catalogue);
    let id = stocked(None, false).id.to_string();
    let off = svc
        .set_bundle_enabled(&id, false, &Actor::CommandLine)
        .await
        .unwrap();
    assert!(off.disabled);
    // already on sale: enabling changes (and records) nothing
    let on = svc
        .set_bundle_enabled(&id, true, &Actor::CommandLine)
        .await
        .unwrap();
    assert!(!on.disabled);
}

#[tokio::test]
async fn a_bundle_edit_records_only_what_changed_and_refuses_unsold_currencies() {
    let mut catalogue = MockCatalogueRepository::new();
    catalogue.expect_bundles().returning(|_| {
        Ok(vec![Bundle {
            description: Some("Trees.".into()),
            ..stocked(Some(1), false)
        }])
    });
    catalogue
        .expect_update_bundle()
        .times(1)
        .withf(|_, edit, _, audit| {
            edit.description.as_deref() == Some("Trees.")
                && audit.action == "bundle.edited"
                && audit.changed_fields() == ["price GBP"]
                && audit.before.get("price GBP") == Some("10.00")
                && audit.after.get("price GBP") == Some("12.00")
        })
        .returning(|_, _, _, _| Ok(()));
    let svc = stock_service(catalogue);
    let id = stocked(None, false).id.to_string();
    let edit = |gbp: &str| crate::BundleEdit::parse("Trees.", &[(Currency::Gbp, gbp)]).unwrap();
    let edited = svc
        .edit_bundle(&id, edit("12.00"), &Actor::CommandLine)
        .await
        .unwrap();
    assert_eq!(edited.price_in(Currency::Gbp).unwrap().minor(), 1200);
    let unsold = crate::BundleEdit::parse("", &[(Currency::Usd, "5")]).unwrap();
    assert!(matches!(
        svc.edit_bundle(&id, unsold, &Actor::CommandLine).await,
        Err(crate::BundleEditError::Invalid(e)) if e.field == "price USD"
    ));
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

#[tokio::test]
async fn allocation_events_go_with_the_step_or_the_record_that_retires_them() {
    use crate::{AllocationId, AllocationStatus, ProjectAllocation, ProjectId, Registry};
    let allocation = |n: u128, serial: Option<&str>| ProjectAllocation {
        id: AllocationId::from_uuid(Uuid::from_u128(100 + n)),
        allocated_at: datetime!(2026-01-01 00:00 UTC),
        project_id: ProjectId::from_uuid(Uuid::from_u128(n)),
        project_name: format!("P{n}"),
        project_type: "Biochar".into(),
        project_slug: format!("p{n}"),
        registry: Registry::PuroEarth,
        quantity: Mass::from_grams(500_000),
        unit_price: tonne_kernel::Money::from_minor(1000, Currency::Gbp),
        offset_cost: tonne_kernel::Money::from_minor(500, Currency::Gbp),
        serial: serial.map(str::to_owned),
        registry_record: None,
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

mod cards;
