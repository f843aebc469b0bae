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

fn stored(status: OrderStatus) -> Order {
    let at = datetime!(2026-01-01 00:00 UTC);
    Order::sample(status, (account(), AccountMode::Live), at)
}

/// Orders that hold one order, in `status`.
fn holding(status: OrderStatus) -> MockOrderRepository {
    let mut orders = MockOrderRepository::new();
    orders
        .expect_get()
        .returning(move |_| Ok(Some(stored(status))));
    orders
}

fn defaults() -> Vec<Bundle> {
    let mut a = bundle(1, 1000);
    a.default_share = Some(6000);
    let mut b = bundle(2, 2500);
    b.default_share = Some(4000);
    vec![a, b]
}

fn catalogue_project(n: u128, link: Option<&str>) -> crate::catalogue::Project {
    crate::catalogue::Project {
        registry_link: link.map(str::to_owned),
        country_name: format!("Country {n}"),
        ..crate::catalogue::Project::sample(n)
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

mod cards;
mod lifecycle;
mod orders;
mod quotes;
mod selections;
mod stock;
