//! The link's limits on the hosted checkout, and the hold's expiry.

use super::*;
use crate::{ClaimOutcome, LimitReached, LimitsDraft};

fn small_link() -> OffsetLink {
    let mut link = stored_link(false);
    link.limits.order_mass = Mass::from_grams(2_000_000);
    link.limits.order_value = Money::from_minor(5_000, Currency::Gbp);
    link
}

fn pricing_at(minor: i64, grams: i64) -> MockOrderingService {
    let mut o = priced_at(minor, grams);
    o.expect_order_by_idempotency_key()
        .returning(|_, _| Err(ReadOrderError::NotFound));
    o
}

/// Prices every choice at `minor` pence for `grams`; orders by key not set up.
fn priced_at(minor: i64, grams: i64) -> MockOrderingService {
    let mut o = ordering();
    o.expect_quote_by_value()
        .returning(move |_, _| Ok(quote(minor, grams)));
    o.expect_quote_by_mass()
        .returning(move |_, _| Ok(quote(minor, grams)));
    o
}

#[tokio::test]
async fn an_order_above_a_per_order_limit_is_refused_before_anything_is_counted_or_placed() {
    for (minor, grams, expected) in [
        (
            1_000,
            2_000_001,
            LimitReached::OrderMass {
                max: Mass::from_grams(2_000_000),
            },
        ),
        (
            5_001,
            1_000,
            LimitReached::OrderValue {
                max: Money::from_minor(5_000, Currency::Gbp),
            },
        ),
    ] {
        let mut o = pricing_at(minor, grams);
        o.expect_create_order().never();
        let mut links = holding(small_link());
        links.expect_claim().never();
        links.expect_release().never();
        let mut cards = MockCardPayments::new();
        cards.expect_authorise().never();
        let svc = service(links, o, cards);
        let id = small_link().id.to_string();
        let c = choice("jane@example.org", Some(Amount::Tonnes("2.5".into())));
        let placed = svc.place(&id, c.clone(), None, "tok", visitor()).await;
        assert!(
            matches!(placed, Err(CheckoutError::Limit(r)) if r == expected),
            "{placed:?}"
        );
        // the confirmation step says so already
        let quoted = svc.quote(&id, c).await;
        assert!(
            matches!(quoted, Err(CheckoutError::Limit(r)) if r == expected),
            "{quoted:?}"
        );
    }
}

#[tokio::test]
async fn a_refused_daily_claim_places_nothing_and_names_its_limit() {
    for reached in [
        LimitReached::DailyOrders,
        LimitReached::DailyMass,
        LimitReached::VisitorOrders,
    ] {
        let mut o = pricing_at(2_000, 1_000_000);
        o.expect_create_order().never();
        let mut links = holding(stored_link(false));
        links
            .expect_claim()
            .times(1)
            .returning(move |_| Ok(ClaimOutcome::Refused(reached)));
        links.expect_release().never();
        let svc = service(links, o, MockCardPayments::new());
        let r = place_20(&svc).await;
        assert!(
            matches!(r, Err(CheckoutError::Limit(got)) if got == reached),
            "{r:?}"
        );
    }
}

#[tokio::test]
async fn a_claim_whose_order_was_not_placed_by_this_request_is_given_back() {
    // two submits of one form raced: the other placed the order (and counts it)
    let mut o = priced_at(2_000, 1_000_000);
    let mut first = true;
    o.expect_order_by_idempotency_key().returning(move |_, _| {
        if std::mem::take(&mut first) {
            Err(ReadOrderError::NotFound)
        } else {
            Ok(order_for("20", PaymentMethod::Invoice, None))
        }
    });
    o.expect_create_order()
        .times(1)
        .returning(|_, _, _| Err(CreateOrderError::IdempotencyKeyExists));
    let links = granting(holding(stored_link(false)), 1);
    let svc = service(links, o, MockCardPayments::new());
    let answered = place_20(&svc).await.unwrap();
    assert_eq!(answered.order.id.as_uuid(), Uuid::from_u128(777));

    // the store failed placing it: given back too, and the failure reported
    let mut o = pricing_at(2_000, 1_000_000);
    o.expect_create_order().times(1).returning(|_, _, _| {
        Err(CreateOrderError::Quote(QuoteError::Unexpected(
            anyhow::anyhow!("down"),
        )))
    });
    let svc = service(
        granting(holding(stored_link(false)), 1),
        o,
        MockCardPayments::new(),
    );
    let r = place_20(&svc).await;
    assert!(matches!(r, Err(CheckoutError::Unexpected(_))), "{r:?}");
}

#[tokio::test]
async fn links_take_the_defaults_unless_the_owner_sets_limits_within_the_ceilings() {
    let stored = Arc::new(Mutex::new(Vec::new()));
    let seen = stored.clone();
    let mut links = MockOffsetLinkRepository::new();
    links.expect_insert().times(2).returning(move |l, _| {
        seen.lock().unwrap().push(l.clone());
        Ok(())
    });
    let svc = service(links, ordering(), MockCardPayments::new());
    svc.create(account(), draft(vec![bid(1)])).await.unwrap();
    let mut d = draft(vec![bid(1)]);
    d.name = "Owned".into();
    d.limits = LimitsDraft {
        order_tonnes: Some("0.5".into()),
        daily_orders: Some("2".into()),
        ..LimitsDraft::default()
    };
    svc.create(account(), d).await.unwrap();
    let made = stored.lock().unwrap().clone();
    let defaults = LinkLimits::defaults(&DefaultLimits::default(), Currency::Gbp);
    assert_eq!(made[0].limits, defaults, "the API sets no limits: defaults");
    assert_eq!(made[1].limits.order_mass, Mass::from_grams(500_000));
    assert_eq!(made[1].limits.daily_orders, 2);
    assert_eq!(made[1].limits.daily_mass, defaults.daily_mass);

    let svc = service(untouched(), ordering(), MockCardPayments::new());
    let mut d = draft(vec![bid(1)]);
    d.limits.order_tonnes = Some("1000.1".into());
    let refused = svc.create(account(), d).await;
    assert!(matches!(
        refused,
        Err(LinkError::Invalid {
            field: "order_tonnes",
            ..
        })
    ));

    // an update without limits (the API) keeps them; the console's replaces them
    let mut owned = stored_link(false);
    owned.limits.daily_orders = 7;
    let mut links = holding(owned.clone());
    let written = Arc::new(Mutex::new(Vec::new()));
    let w = written.clone();
    links.expect_update().times(2).returning(move |l, _| {
        w.lock().unwrap().push(l.limits);
        Ok(())
    });
    let svc = service(links, ordering(), MockCardPayments::new());
    let change = |limits| LinkChanges {
        name: "Campaign".into(),
        limits,
        ..LinkChanges::default()
    };
    let id = owned.id.to_string();
    svc.update(account(), &id, change(None)).await.unwrap();
    let limits = LimitsDraft {
        visitor_daily_orders: Some("1".into()),
        ..LimitsDraft::default()
    };
    svc.update(account(), &id, change(Some(limits)))
        .await
        .unwrap();
    let written = written.lock().unwrap().clone();
    assert_eq!(written[0].daily_orders, 7);
    assert_eq!(written[1].visitor_daily_orders, 1);
    assert_eq!(written[1].daily_orders, 50, "blank fields: the defaults");
}

#[tokio::test]
async fn orders_unconfirmed_after_the_hold_are_cancelled_and_confirmed_ones_left() {
    let ids: Vec<tonne_ordering::OrderId> = (1..=3)
        .map(|n| tonne_ordering::OrderId::from_uuid(Uuid::from_u128(n)))
        .collect();
    let mut links = MockOffsetLinkRepository::new();
    let due = ids.clone();
    links
        .expect_unconfirmed_orders()
        .times(1)
        .withf(|before, limit| *before == NOW - time::Duration::hours(24) && *limit == 100)
        .returning(move |_, _| Ok(due.clone()));
    let mut o = ordering();
    let (first, second) = (ids[0], ids[1]);
    o.expect_cancel_unconfirmed().times(3).returning(move |id| {
        if id == first {
            Ok(invoiced_order())
        } else if id == second {
            // an operator confirmed it meanwhile
            Err(tonne_ordering::TransitionError::Illegal {
                from: "placed",
                to: "cancelled",
            })
        } else {
            Err(tonne_ordering::TransitionError::Conflict)
        }
    });
    let svc = service(links, o, MockCardPayments::new());
    assert_eq!(svc.expire_unconfirmed(100).await.unwrap(), 1);
}

#[tokio::test]
async fn the_owner_sets_limits_audited_and_the_same_limits_write_nothing() {
    let mut links = holding(stored_link(false));
    links
        .expect_update()
        .times(1)
        .withf(|l, audit| {
            let audit = audit.as_ref().expect("a person's change is audited");
            l.limits.daily_orders == 4
                && audit.action == "offset_link.limits_changed"
                && audit.actor == tonne_kernel::Actor::person("owner@example.org")
                && audit
                    .before
                    .get("limits")
                    .is_some_and(|b| b.contains("50 orders"))
                && audit
                    .after
                    .get("limits")
                    .is_some_and(|a| a.contains("4 orders"))
        })
        .returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let id = stored_link(false).id.to_string();
    let by = tonne_kernel::Actor::person("owner@example.org");
    let four = LimitsDraft {
        daily_orders: Some("4".into()),
        ..LimitsDraft::default()
    };
    let set = svc.set_limits_as(account(), &id, four, &by).await.unwrap();
    assert_eq!(set.link.limits.daily_orders, 4);
    // the defaults again: unchanged, nothing written (update expected once)
    svc.set_limits_as(account(), &id, LimitsDraft::default(), &by)
        .await
        .unwrap();
    // refused values write nothing; another account's link is not found
    let junk = LimitsDraft {
        visitor_daily_orders: Some("0".into()),
        ..LimitsDraft::default()
    };
    assert!(matches!(
        svc.set_limits_as(account(), &id, junk, &by).await,
        Err(LinkError::Invalid {
            field: "visitor_daily_orders",
            ..
        })
    ));
    let other = AccountId::from_uuid(Uuid::from_u128(10));
    assert!(matches!(
        svc.set_limits_as(other, &id, LimitsDraft::default(), &by)
            .await,
        Err(LinkError::NotFound)
    ));
}
