//! Tests of the offset link use cases over mocked ports.

use std::sync::{Arc, Mutex};

use time::macros::datetime;
use tonne_kernel::{AccountMode, Currency, MockClock, MockIdGenerator};
use tonne_ordering::{Bundle, MockOrderingService, Order, OrderKind, OrderStatus};
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

#[tokio::test]
async fn create_stores_a_valid_link_with_its_account_currency_and_mode() {
    let stored = Arc::new(Mutex::new(None));
    let seen = stored.clone();
    let mut links = MockOffsetLinkRepository::new();
    links.expect_insert().times(1).returning(move |l, audit| {
        assert!(audit.is_none(), "the API's business writes are not audited");
        *seen.lock().unwrap() = Some(l.clone());
        Ok(())
    });
    let svc = service(links, ordering(), MockCardPayments::new());
    let mut d = draft(vec![bid(1), bid(2)]);
    d.value = Some("12.50".into());
    d.emails = Some(vec!["a@example.org".into(), "A@EXAMPLE.org".into()]);
    d.expires_at = Some(datetime!(2027-01-01 0:00 UTC));
    let details = svc.create(account(), d).await.unwrap();
    let link = stored.lock().unwrap().clone().unwrap();
    assert_eq!(details.link, link);
    assert_eq!(details.bundles.len(), 2);
    assert_eq!(link.currency, Currency::Gbp);
    assert_eq!(link.mode, AccountMode::Test);
    assert_eq!(link.value, Some(Money::from_minor(1_250, Currency::Gbp)));
    assert_eq!(link.emails.len(), 1, "the same mailbox is listed once");
    assert_eq!(link.status(NOW), LinkStatus::Enabled);
}

#[tokio::test]
async fn create_refuses_a_wrong_bundle_count_and_writes_nothing() {
    let svc = service(untouched(), ordering(), MockCardPayments::new());
    let none = svc.create(account(), draft(vec![])).await;
    assert!(matches!(none, Err(LinkError::BundlesSize(_))), "{none:?}");
    let many = svc
        .create(account(), draft((1..=25).map(bid).collect()))
        .await;
    assert!(matches!(many, Err(LinkError::BundlesSize(_))), "{many:?}");
}

#[tokio::test]
async fn create_refuses_unknown_disabled_repeated_and_malformed_bundles() {
    let svc = service(untouched(), ordering(), MockCardPayments::new());
    for bundles in [
        vec![bid(1), bid(99)],
        vec![bid(66)],
        vec![bid(1), bid(1)],
        vec!["nope".to_owned()],
    ] {
        let named = bundles.last().cloned().unwrap();
        match svc.create(account(), draft(bundles)).await {
            Err(LinkError::BundleInvalid(why)) => assert!(why.contains(&named), "{why}"),
            other => panic!("{other:?}"),
        }
    }
}

/// A change to a valid draft.
type Mutation = Box<dyn Fn(&mut LinkDraft)>;

#[tokio::test]
async fn create_refuses_bad_fields() {
    let svc = service(untouched(), ordering(), MockCardPayments::new());
    let cases: Vec<(&str, Mutation)> = vec![
        ("name", Box::new(|d| d.name = "  ".into())),
        ("name", Box::new(|d| d.name = "x".repeat(256))),
        ("expires_at", Box::new(|d| d.expires_at = Some(NOW))),
        (
            "emails",
            Box::new(|d| d.emails = Some(vec!["nobody".into()])),
        ),
        ("value", Box::new(|d| d.value = Some("0".into()))),
        ("value", Box::new(|d| d.value = Some("1.234".into()))),
        ("value", Box::new(|d| d.value = Some("-5".into()))),
    ];
    for (field, change) in cases {
        let mut d = draft(vec![bid(1)]);
        change(&mut d);
        match svc.create(account(), d).await {
            Err(LinkError::Invalid { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_name_taken_is_a_conflict() {
    let mut links = MockOffsetLinkRepository::new();
    links
        .expect_insert()
        .returning(|_, _| Err(StoreError::Duplicate));
    let svc = service(links, ordering(), MockCardPayments::new());
    let r = svc.create(account(), draft(vec![bid(1)])).await;
    assert!(matches!(r, Err(LinkError::NameTaken(n)) if n == "Campaign"));
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

#[tokio::test]
async fn another_accounts_link_is_not_found() {
    let svc = service(
        holding(stored_link(false)),
        ordering(),
        MockCardPayments::new(),
    );
    let other = AccountId::from_uuid(Uuid::from_u128(10));
    let id = stored_link(false).id.to_string();
    assert!(matches!(
        svc.get(other, &id).await,
        Err(LinkError::NotFound)
    ));
    assert!(matches!(
        svc.analytics(other, &id).await,
        Err(LinkError::NotFound)
    ));
    assert!(matches!(
        svc.get(account(), "junk").await,
        Err(LinkError::NotFound)
    ));
}

#[tokio::test]
async fn require_payment_cannot_change_but_may_be_repeated() {
    let mut links = holding(stored_link(false));
    links.expect_update().times(1).returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let id = stored_link(false).id.to_string();
    let change = |r: bool| LinkChanges {
        name: "Campaign".into(),
        require_payment: Some(r),
        status: Some(LinkStatus::Disabled),
        ..LinkChanges::default()
    };
    let refused = svc.update(account(), &id, change(true)).await;
    assert!(matches!(
        refused,
        Err(LinkError::Invalid {
            field: "require_payment",
            ..
        })
    ));
    let kept = svc.update(account(), &id, change(false)).await.unwrap();
    assert_eq!(kept.link.status(NOW), LinkStatus::Disabled);
    assert_eq!(kept.link.emails.len(), 1, "absent fields keep their value");
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

#[tokio::test]
async fn place_creates_one_order_with_the_link_and_email() {
    let mut o = ordering();
    o.expect_order_by_idempotency_key()
        .returning(|_, _| Err(ReadOrderError::NotFound));
    o.expect_create_order()
        .times(1)
        .withf(|a, mode, r| {
            *a == account()
                && *mode == AccountMode::Test
                && r.idempotency_key.as_deref() == Some("offset-link-abc123")
                && matches!(&r.pricing, Pricing::Value(v) if v.value == "20.00")
                && r.payment_method == tonne_ordering::PaymentMethod::Invoice
        })
        .returning(|_, _, r| Ok(order(&r)));
    o.expect_quote_by_value()
        .returning(|_, _| Ok(quote(2_000, 1_000_000)));
    let mut links = holding(stored_link(false));
    links
        .expect_claim()
        .times(1)
        .withf(|c| {
            // the link's day, today (UTC), this visitor, the priced mass and the link's limits
            c.link == stored_link(false).id
                && c.day == NOW.date()
                && c.visitor == visitor()
                && c.mass == Mass::from_grams(1_000_000)
                && c.daily_orders == 50
                && c.visitor_daily_orders == 3
        })
        .returning(|_| Ok(crate::ClaimOutcome::Granted));
    links.expect_release().never();
    let svc = service(links, o, MockCardPayments::new());
    let id = stored_link(false).id.to_string();
    let placed = svc
        .place(
            &id,
            choice(" Jane@Example.org ", Some(Amount::Money("20.00".into()))),
            None,
            "abc123",
            visitor(),
        )
        .await
        .unwrap();
    assert_eq!(placed.order.offset_link_id.as_deref(), Some(id.as_str()));
    assert_eq!(placed.order.email.as_deref(), Some("Jane@Example.org"));
    assert!(!placed.awaiting_payment);
}

#[tokio::test]
async fn a_repeated_submit_answers_the_order_already_placed() {
    let mut o = ordering();
    o.expect_order_by_idempotency_key()
        .times(1)
        .returning(|_, _| {
            Ok(order(&OrderRequest {
                pricing: Pricing::Value(ValueRequest {
                    value: "1".into(),
                    selection: None,
                    trunc: None,
                }),
                idempotency_key: None,
                metadata: vec![],
                origin: None,
                payment_method: tonne_ordering::PaymentMethod::Invoice,
                payment_reference: None,
            }))
        });
    o.expect_create_order().never();
    let mut cards = MockCardPayments::new();
    cards.expect_authorise().never();
    let svc = service(holding(stored_link(true)), o, cards);
    let id = stored_link(true).id.to_string();
    let again = svc
        .place(
            &id,
            choice("jane@example.org", Some(Amount::Money("20".into()))),
            None,
            "t1",
            visitor(),
        )
        .await
        .unwrap();
    assert_eq!(again.order.id.as_uuid(), Uuid::from_u128(777));
}

#[tokio::test]
async fn refused_choices_place_nothing() {
    let svc = service(
        holding(stored_link(false)),
        never_orders(),
        MockCardPayments::new(),
    );
    let id = stored_link(false).id.to_string();
    let money = |s: &str| Some(Amount::Money(s.into()));
    let tonnes = |s: &str| Some(Amount::Tonnes(s.into()));
    let cases = [
        (choice("john@example.org", money("5")), "allow-list"),
        (choice("not-an-email", money("5")), "email"),
        (choice("jane@example.org", money("0")), "amount"),
        (choice("jane@example.org", money("-3")), "amount"),
        (choice("jane@example.org", money("10000.01")), "amount"),
        (choice("jane@example.org", tonnes("1000.5")), "amount"),
        (choice("jane@example.org", money("lots")), "amount"),
        (choice("jane@example.org", None), "amount"),
        (
            Choice {
                bundle_id: bid(2),
                ..choice("jane@example.org", money("5"))
            },
            "bundle",
        ),
    ];
    for (c, what) in cases {
        let r = svc.place(&id, c.clone(), None, "tok", visitor()).await;
        match (&r, what) {
            (Err(CheckoutError::EmailNotAllowed), "allow-list") => {}
            (Err(CheckoutError::Invalid { field, .. }), _) if *field == what => {}
            _ => panic!("{c:?}: {r:?}"),
        }
    }
    assert!(matches!(
        svc.place(
            &id,
            choice("jane@example.org", money("5")),
            None,
            "bad token!",
            visitor()
        )
        .await,
        Err(CheckoutError::Invalid { field: "token", .. })
    ));
}

#[tokio::test]
async fn an_authorised_card_places_an_order_paid_by_card() {
    let mut cards = MockCardPayments::new();
    cards
        .expect_authorise()
        .times(1)
        .returning(|_, _, _, _| Ok(CardOutcome::Authorised { reference: None }));
    let mut o = ordering();
    o.expect_order_by_idempotency_key()
        .returning(|_, _| Err(ReadOrderError::NotFound));
    o.expect_quote_by_value()
        .returning(|_, _| Ok(quote(2_000, 1_000_000)));
    o.expect_create_order()
        .times(1)
        .withf(|_, _, r| r.payment_method == tonne_ordering::PaymentMethod::Card)
        .returning(|_, _, r| Ok(order(&r)));
    let svc = service(granting(holding(stored_link(true)), 0), o, cards);
    let id = stored_link(true).id.to_string();
    let placed = svc
        .place(
            &id,
            choice("jane@example.org", Some(Amount::Money("20.00".into()))),
            Some(Card::Number("4242424242424242".into())),
            "tok",
            visitor(),
        )
        .await
        .unwrap();
    assert_eq!(
        placed.order.payment_method,
        tonne_ordering::PaymentMethod::Card
    );
    assert!(!placed.awaiting_payment);
}

#[tokio::test]
async fn a_declined_card_places_nothing() {
    let mut cards = MockCardPayments::new();
    cards
        .expect_authorise()
        .withf(|mode, amount, card, key| {
            *mode == AccountMode::Test
                && amount.minor() == 2_000
                && key == "offset-link-tok"
                && card == &Some(Card::Number("4000000000000002".into()))
        })
        .returning(|_, _, _, _| {
            Ok(CardOutcome::Declined {
                reason: "card declined".into(),
            })
        });
    // declined: the claim is given back
    let svc = service(
        granting(holding(stored_link(true)), 1),
        never_orders(),
        cards,
    );
    let id = stored_link(true).id.to_string();
    let r = svc
        .place(
            &id,
            choice("jane@example.org", Some(Amount::Money("20.00".into()))),
            Some(Card::Number("4000000000000002".into())),
            "tok",
            visitor(),
        )
        .await;
    assert!(
        matches!(r, Err(CheckoutError::Declined(ref why)) if why == "card declined"),
        "{r:?}"
    );
}

#[tokio::test]
async fn switched_off_expired_and_unknown_links_take_no_orders() {
    let mut off = stored_link(false);
    off.switched_off = true;
    let svc = service(
        holding(off.clone()),
        never_orders(),
        MockCardPayments::new(),
    );
    let c = choice("jane@example.org", Some(Amount::Money("5".into())));
    assert!(matches!(
        svc.open(&off.id.to_string(), None).await,
        Err(CheckoutError::Gone)
    ));
    assert!(matches!(
        svc.place(&off.id.to_string(), c.clone(), None, "t", visitor())
            .await,
        Err(CheckoutError::Gone)
    ));
    let mut expired = stored_link(false);
    expired.expires_at = Some(NOW);
    let svc = service(
        holding(expired.clone()),
        never_orders(),
        MockCardPayments::new(),
    );
    assert!(matches!(
        svc.quote(&expired.id.to_string(), c.clone()).await,
        Err(CheckoutError::Gone)
    ));
    assert!(matches!(
        svc.open(&bid(4242), None).await,
        Err(CheckoutError::NotFound)
    ));
}

#[tokio::test]
async fn opening_counts_the_visitor_for_today() {
    let mut links = holding(stored_link(false));
    links
        .expect_record_visit()
        .times(1)
        .withf(|_, day, v| *day == NOW.date() && v.as_str() == "h")
        .returning(|_, _, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let page = svc
        .open(
            &stored_link(false).id.to_string(),
            Some(VisitorHash::from_stored("h".into())),
        )
        .await
        .unwrap();
    assert_eq!(page.account.name, "Acme");
    assert_eq!(
        page.prices,
        vec![Some(Money::from_minor(2_200, Currency::Gbp))]
    );
}

/// From the console: the link is written with its audit entry, as the person's.
#[tokio::test]
async fn a_person_creates_a_link_with_its_audit_entry() {
    let mut links = MockOffsetLinkRepository::new();
    links
        .expect_insert()
        .times(1)
        .withf(|l, audit| {
            let audit = audit.as_ref().unwrap();
            audit.action == "offset_link.created"
                && audit.actor == Actor::person("ada@example.org")
                && audit.object_id == l.id.to_string()
                && audit.organisation
                    == Some(tonne_kernel::OrganisationId::from_uuid(Uuid::from_u128(7)))
                && audit.after.get("name") == Some("Campaign")
        })
        .returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let made = svc
        .create_as(
            account(),
            draft(vec![bid(1)]),
            &Actor::person("ada@example.org"),
        )
        .await
        .unwrap();
    assert_eq!(made.link.name, "Campaign");
}

/// Switching off then on: each a change with its entry; switching to the
/// state the link is in writes nothing.
#[tokio::test]
async fn a_person_switches_a_link_off_and_the_same_state_again_changes_nothing() {
    let mut links = holding(stored_link(false));
    links
        .expect_update()
        .times(1)
        .withf(|l, audit| {
            let audit = audit.as_ref().unwrap();
            l.switched_off
                && audit.action == "offset_link.disabled"
                && audit.before.get("state") == Some("on")
                && audit.after.get("state") == Some("off")
        })
        .returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let id = stored_link(false).id.to_string();
    let by = Actor::person("ada@example.org");
    let off = svc.switch_as(account(), &id, false, &by).await.unwrap();
    assert!(off.link.switched_off);
    // already on: nothing written (update expected once, above)
    let on = svc.switch_as(account(), &id, true, &by).await.unwrap();
    assert!(!on.link.switched_off);
    // another account's link
    let other = AccountId::from_uuid(Uuid::from_u128(10));
    assert!(matches!(
        svc.switch_as(other, &id, false, &by).await,
        Err(LinkError::NotFound)
    ));
}

mod cards;
mod limits;
mod pay;
