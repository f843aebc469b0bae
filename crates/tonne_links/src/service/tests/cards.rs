//! The card step with a processor (Stripe): the form it asks for, an
//! authorisation kept on the order and collected at once, and a hold given
//! back when the order cannot be placed.

use super::*;
use crate::ports::{CardForm, ProcessorForm};

fn authorising(reference: &'static str) -> MockCardPayments {
    let mut cards = MockCardPayments::new();
    cards
        .expect_authorise()
        .times(1)
        .withf(|_, _, card, key| {
            card == &Some(Card::PaymentMethod("pm_1".into())) && key == "offset-link-tok"
        })
        .returning(move |_, _, _, _| {
            Ok(CardOutcome::Authorised {
                reference: Some(reference.into()),
            })
        });
    cards
}

fn paid_by(card: &str) -> Option<Card> {
    Some(Card::PaymentMethod(card.into()))
}

#[tokio::test]
async fn an_authorised_card_is_kept_on_the_order_and_collected_at_once() {
    let mut o = first_submit(quoting());
    o.expect_create_order()
        .times(1)
        .withf(|_, _, r| r.payment_reference.as_deref() == Some("pi_1"))
        .returning(|_, _, r| Ok(order(&r)));
    o.expect_collect_authorised().times(1).returning(|id| {
        let mut paid = order_for("20", PaymentMethod::Card, Some("pi_1"));
        assert_eq!(paid.id, id);
        paid.status = OrderStatus::Paid;
        Ok(paid)
    });
    let svc = service(
        granting(holding(stored_link(true)), 0),
        o,
        authorising("pi_1"),
    );
    let id = stored_link(true).id.to_string();
    let placed = svc
        .place(&id, jane_for_20(), paid_by("pm_1"), "tok", visitor())
        .await
        .unwrap();
    assert_eq!(placed.order.status, OrderStatus::Paid);
    assert_eq!(placed.order.payment_reference.as_deref(), Some("pi_1"));
    assert!(!placed.awaiting_payment);
}

#[tokio::test]
async fn a_hold_whose_order_cannot_be_placed_is_given_back() {
    let mut o = first_submit(quoting());
    o.expect_create_order().times(1).returning(|_, _, _| {
        Err(CreateOrderError::Quote(QuoteError::BundleInvalid(
            "sold out meanwhile".into(),
        )))
    });
    o.expect_collect_authorised().never();
    let mut cards = authorising("pi_2");
    cards
        .expect_release()
        .times(1)
        .withf(|_, reference| reference == "pi_2")
        .returning(|_, _| Ok(()));
    // not placed: the link's day is given back too
    let svc = service(granting(holding(stored_link(true)), 1), o, cards);
    let id = stored_link(true).id.to_string();
    let r = svc
        .place(&id, jane_for_20(), paid_by("pm_1"), "tok", visitor())
        .await;
    assert!(r.is_err(), "{r:?}");
}

#[tokio::test]
async fn the_confirmation_page_asks_the_processor_for_its_form_by_the_checkout_key() {
    let mut cards = MockCardPayments::new();
    cards
        .expect_form()
        .times(1)
        .withf(|mode, amount, key| {
            *mode == AccountMode::Test && amount.minor() == 2_000 && key == "offset-link-tok"
        })
        .returning(|_, _, _| {
            Ok(CardForm::Processor(ProcessorForm {
                script_url: "https://js.stripe.com/v3/".into(),
                origins: vec!["https://js.stripe.com".into()],
                publishable_key: "pk_test_1".into(),
                client_secret: "seti_1_secret_2".into(),
            }))
        });
    let o = quoting();
    let svc = service(holding(stored_link(true)), o, cards);
    let id = stored_link(true).id.to_string();
    let checkout = svc.quote(&id, jane_for_20()).await.unwrap();
    let form = svc.card_form(&checkout, "tok").await.unwrap();
    assert!(matches!(form, CardForm::Processor(ref p) if p.publishable_key == "pk_test_1"));
    // a forged token never reaches the processor
    assert!(matches!(
        svc.card_form(&checkout, "../x").await,
        Err(CheckoutError::Invalid { field: "token", .. })
    ));
}

#[tokio::test]
async fn a_link_without_payment_asks_for_no_card() {
    let o = quoting();
    let mut cards = MockCardPayments::new();
    cards.expect_form().never();
    let svc = service(holding(stored_link(false)), o, cards);
    let id = stored_link(false).id.to_string();
    let checkout = svc.quote(&id, jane_for_20()).await.unwrap();
    assert_eq!(
        svc.card_form(&checkout, "tok").await.unwrap(),
        CardForm::Operator
    );
}
