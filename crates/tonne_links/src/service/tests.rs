//! Tests of the offset link use cases over mocked ports.

use std::sync::{Arc, Mutex};

use time::macros::datetime;
use tonne_kernel::{AccountMode, Currency, MockClock, MockIdGenerator};
use tonne_ordering::{Bundle, MockOrderingService, Order, OrderKind, OrderStatus, PaymentMethod};
use uuid::Uuid;

use super::*;
use crate::checkout::Amount;
use crate::limits::LinkLimits;
use crate::models::{AccountProfile, Email, LinkStatus, OffsetLink};
use crate::ports::{CardOutcome, StoreError};
use crate::ports::{MockAccountDirectory, MockCardPayments, MockOffsetLinkRepository};
use tonne_kernel::{Mass, Money};
use tonne_ordering::{
    BundleId, BundleView, CatalogueError, CreateOrderError, OrderRequest, Pricing, Quote,
    QuoteError, ReadOrderError, ValueRequest,
};

const NOW: OffsetDateTime = datetime!(2026-11-22 12:00 UTC);

fn account() -> AccountId {
    AccountId::from_uuid(Uuid::from_u128(9))
}

fn bundle(n: u128, disabled: bool) -> BundleView {
    BundleView {
        bundle: Bundle {
            disabled,
            ..Bundle::sample(n, 2_000)
        },
        projects: vec![],
    }
}

fn bid(n: u128) -> String {
    BundleId::from_uuid(Uuid::from_u128(n)).to_string()
}

/// Bundles 1–30 exist and are sold in GBP; bundle 66 is disabled; others do not exist.
fn ordering() -> MockOrderingService {
    let mut o = MockOrderingService::new();
    o.expect_bundle().returning(|id| {
        let n = Uuid::parse_str(id).map(|u| u.as_u128()).unwrap_or(0);
        match n {
            1..=30 => Ok(bundle(n, false)),
            66 => Ok(bundle(n, true)),
            _ => Err(CatalogueError::NotFound),
        }
    });
    o.expect_display_price().returning(|b, c| {
        b.price_in(c)
            .map(|p| (p, Money::from_minor(p.minor() * 11 / 10, c)))
    });
    o
}

/// [`ordering`], quoting 20.00 for a tonne by value.
fn quoting() -> MockOrderingService {
    let mut o = ordering();
    o.expect_quote_by_value()
        .returning(|_, _| Ok(quote(2_000, 1_000_000)));
    o
}

/// `o`, where no order was placed yet under any key.
fn first_submit(mut o: MockOrderingService) -> MockOrderingService {
    o.expect_order_by_idempotency_key()
        .returning(|_, _| Err(ReadOrderError::NotFound));
    o
}

fn directory() -> MockAccountDirectory {
    let mut d = MockAccountDirectory::new();
    d.expect_profile().returning(|_| {
        Ok(Some(AccountProfile {
            organisation_id: tonne_kernel::OrganisationId::from_uuid(Uuid::from_u128(7)),
            name: "Acme".into(),
            logo: None,
            currency: Currency::Gbp,
            mode: AccountMode::Test,
        }))
    });
    d
}

fn service(
    links: MockOffsetLinkRepository,
    ordering: MockOrderingService,
    cards: MockCardPayments,
) -> OffsetLinks {
    let mut clock = MockClock::new();
    clock.expect_now().returning(|| NOW);
    let mut ids = MockIdGenerator::new();
    ids.expect_new_uuid().returning(|| Uuid::from_u128(500));
    OffsetLinks::new(
        Arc::new(links),
        Arc::new(directory()),
        Arc::new(ordering),
        Arc::new(cards),
        Arc::new(clock),
        Arc::new(ids),
        Settings::default(),
    )
}

fn draft(bundles: Vec<String>) -> LinkDraft {
    LinkDraft {
        name: "Campaign".into(),
        bundles,
        use_logo: true,
        ..LinkDraft::default()
    }
}

/// A store that must never be written.
fn untouched() -> MockOffsetLinkRepository {
    let mut links = MockOffsetLinkRepository::new();
    links.expect_insert().never();
    links.expect_update().never();
    links
}

fn stored_link(require_payment: bool) -> OffsetLink {
    OffsetLink {
        id: OffsetLinkId::from_uuid(Uuid::from_u128(500)),
        account_id: account(),
        mode: AccountMode::Test,
        name: "Campaign".into(),
        title: None,
        description: None,
        bundle_ids: vec![BundleId::from_uuid(Uuid::from_u128(1))],
        value: None,
        currency: Currency::Gbp,
        emails: vec![Email::parse("jane@example.org").unwrap()],
        expires_at: None,
        use_logo: false,
        require_payment,
        switched_off: false,
        limits: LinkLimits::defaults(&DefaultLimits::default(), Currency::Gbp),
        created_at: NOW,
        updated_at: NOW,
    }
}

/// The visitor address of every test order (hashed as the pages do).
fn visitor() -> VisitorHash {
    crate::PageKey::new([3; 32]).orderer(NOW.date(), "203.0.113.9")
}

/// The link's day grants every claim; none is given back unless `releases`.
fn granting(mut links: MockOffsetLinkRepository, releases: usize) -> MockOffsetLinkRepository {
    links
        .expect_claim()
        .returning(|_| Ok(crate::ClaimOutcome::Granted));
    links.expect_release().times(releases).returning(|_| Ok(()));
    links
}

fn holding(link: OffsetLink) -> MockOffsetLinkRepository {
    let mut links = MockOffsetLinkRepository::new();
    links
        .expect_get()
        .returning(move |id| Ok((id == link.id).then(|| link.clone())));
    links
}

fn quote(minor: i64, grams: i64) -> Quote {
    Quote {
        currency: Currency::Gbp,
        quantity: Mass::from_grams(grams),
        offset_cost: Money::from_minor(minor, Currency::Gbp),
        commission: Money::zero(Currency::Gbp),
        total_cost: Money::from_minor(minor, Currency::Gbp),
        lines: vec![],
        requested_quantity: None,
        requested_value: None,
    }
}

fn order(request: &OrderRequest) -> Order {
    Order {
        id: tonne_ordering::OrderId::from_uuid(Uuid::from_u128(777)),
        account_id: account(),
        mode: AccountMode::Test,
        idempotency_key: None,
        kind: OrderKind::Value,
        status: OrderStatus::Received,
        currency: Currency::Gbp,
        quantity: Mass::from_grams(1_000_000),
        offset_cost: Money::from_minor(2_000, Currency::Gbp),
        commission: Money::zero(Currency::Gbp),
        total_cost: Money::from_minor(2_000, Currency::Gbp),
        lines: vec![],
        requested_quantity: None,
        requested_value: None,
        metadata: vec![],
        offset_link_id: request.origin.as_ref().map(|o| o.offset_link_id.clone()),
        email: request.origin.as_ref().map(|o| o.email.clone()),
        estimate_id: None,
        payment_method: request.payment_method,
        payment_reference: request.payment_reference.clone(),
        held: None,
        projects: vec![],
        created_at: NOW,
        updated_at: NOW,
    }
}

/// An order of the link's account for `value`, paid by `method` (under
/// `reference`), through no link.
fn order_for(value: &str, method: PaymentMethod, reference: Option<&str>) -> Order {
    order(&OrderRequest {
        pricing: Pricing::Value(ValueRequest {
            value: value.into(),
            selection: None,
            trunc: None,
        }),
        idempotency_key: None,
        metadata: vec![],
        origin: None,
        payment_method: method,
        payment_reference: reference.map(str::to_owned),
    })
}

/// An order of the link's account for 1.00, paid by invoice, through no link.
fn invoiced_order() -> Order {
    order_for("1", PaymentMethod::Invoice, None)
}

/// Jane places an order of 20 (pounds) through the stored link without
/// payment.
async fn place_20(svc: &OffsetLinks) -> Result<Confirmed, CheckoutError> {
    let id = stored_link(false).id.to_string();
    let jane = choice("jane@example.org", Some(Amount::Money("20".into())));
    svc.place(&id, jane, None, "tok", visitor()).await
}

/// Jane's choice of 20.00 of bundle 1.
fn jane_for_20() -> Choice {
    choice("jane@example.org", Some(Amount::Money("20.00".into())))
}

fn choice(email: &str, amount: Option<Amount>) -> Choice {
    Choice {
        bundle_id: bid(1),
        email: email.into(),
        amount,
    }
}

fn never_orders() -> MockOrderingService {
    let mut o = ordering();
    o.expect_order_by_idempotency_key()
        .returning(|_, _| Err(ReadOrderError::NotFound));
    o.expect_create_order().never();
    o.expect_quote_by_value()
        .returning(|_, _| Ok(quote(2_000, 1_000_000)));
    o
}

mod cards;
mod checkout;
mod limits;
mod links;
mod pay;
