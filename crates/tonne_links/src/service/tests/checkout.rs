//! The hosted checkout: placing, repeats, refusals, the simulated card, closed links, visitors.

use super::*;

#[tokio::test]
async fn place_creates_one_order_with_the_link_and_email() {
    let mut o = first_submit(ordering());
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
        .returning(|_, _| Ok(invoiced_order()));
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
    let mut o = first_submit(quoting());
    o.expect_create_order()
        .times(1)
        .withf(|_, _, r| r.payment_method == tonne_ordering::PaymentMethod::Card)
        .returning(|_, _, r| Ok(order(&r)));
    let svc = service(granting(holding(stored_link(true)), 0), o, cards);
    let id = stored_link(true).id.to_string();
    let placed = svc
        .place(
            &id,
            jane_for_20(),
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
            jane_for_20(),
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
