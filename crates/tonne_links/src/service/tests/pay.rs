//! Lune Pay's rules over mocked ports: the return address on an allowed
//! origin or nothing happens, a live account without a card processor takes
//! no payment, a declined card places nothing, a repeated page answers its
//! order, temporary ids answer for 15 minutes.

use super::*;
use crate::pay::{PayRequest, TEMPORARY_ID_VALIDITY};
use crate::ports::CardForm;

fn request(redirect: &str) -> PayRequest {
    PayRequest {
        quantity: "1.5".into(),
        bundle_id: bid(1),
        redirect_url: redirect.into(),
        redirect_label: None,
        external_id: Some("cart-7".into()),
    }
}

/// A store whose account allows `https://shop.example` and writes nothing else.
fn allowing() -> MockOffsetLinkRepository {
    let mut links = untouched();
    links
        .expect_pay_origins()
        .returning(|_| Ok(vec!["https://shop.example".into()]));
    links
}

fn priced() -> MockOrderingService {
    let mut o = ordering();
    o.expect_quote_by_mass()
        .returning(|_, _| Ok(quote(20_100, 1_500_000)));
    o
}

#[tokio::test]
async fn a_return_address_off_the_allowed_origins_is_refused_before_anything() {
    let mut o = ordering();
    o.expect_quote_by_mass().never();
    o.expect_create_order().never();
    let mut cards = MockCardPayments::new();
    cards.expect_authorise().never();
    let svc = service(allowing(), o, cards);
    for elsewhere in [
        "https://evil.example/",
        "https://shop.example.evil.example/",
        "http://shop.example/",
        "ftp://shop.example/",
        "not an address",
    ] {
        let r = svc
            .pay(&account().to_string(), request(elsewhere), None, "tok")
            .await;
        assert!(
            matches!(
                r,
                Err(CheckoutError::Invalid {
                    field: "redirect_url",
                    ..
                })
            ),
            "{elsewhere}: {r:?}"
        );
    }
}

#[tokio::test]
async fn a_declined_card_places_nothing_and_no_temporary_id_is_issued() {
    let mut o = priced();
    o.expect_order_by_idempotency_key()
        .returning(|_, _| Err(ReadOrderError::NotFound));
    o.expect_create_order().never();
    let mut cards = MockCardPayments::new();
    cards
        .expect_authorise()
        .withf(|_, amount, _, key| amount.minor() == 20_100 && key == "lune-pay-tok")
        .returning(|_, _, _, _| {
            Ok(CardOutcome::Declined {
                reason: "declined".into(),
            })
        });
    let mut links = allowing();
    links.expect_record_temporary_id().never();
    let svc = service(links, o, cards);
    let r = svc
        .pay(
            &account().to_string(),
            request("https://shop.example/done"),
            Some(Card::Number("4000000000000002".into())),
            "tok",
        )
        .await;
    assert!(matches!(r, Err(CheckoutError::Declined(_))), "{r:?}");
}

#[tokio::test]
async fn a_paid_page_sends_the_buyer_back_with_its_reference_and_a_temporary_id() {
    let mut o = priced();
    o.expect_order_by_idempotency_key()
        .returning(|_, _| Err(ReadOrderError::NotFound));
    o.expect_create_order()
        .times(1)
        .withf(|_, _, r| {
            r.idempotency_key.as_deref() == Some("lune-pay-tok")
                && r.metadata == vec![("external_id".to_owned(), "cart-7".to_owned())]
                && r.origin.is_none()
        })
        .returning(|_, _, r| Ok(order(&r)));
    let mut cards = MockCardPayments::new();
    cards
        .expect_authorise()
        .returning(|_, _, _, _| Ok(CardOutcome::Authorised { reference: None }));
    let mut links = allowing();
    links
        .expect_record_temporary_id()
        .times(1)
        .returning(|_, _, _| Ok(Uuid::nil()));
    let svc = service(links, o, cards);
    let paid = svc
        .pay(
            &account().to_string(),
            request("https://shop.example/done?cart=7#top"),
            Some(Card::Number("4242424242424242".into())),
            "tok",
        )
        .await
        .unwrap();
    assert_eq!(
        paid.redirect,
        "https://shop.example/done?cart=7&external_id=cart-7&temporary_id=00000000-0000-0000-0000-000000000000"
    );
}

#[tokio::test]
async fn a_live_account_without_a_card_processor_takes_no_payment() {
    let mut cards = MockCardPayments::new();
    cards
        .expect_form()
        .returning(|_, _, _| Ok(CardForm::Operator));
    let svc = service(allowing(), priced(), cards);
    let checkout = svc
        .pay_page(&account().to_string(), request("https://shop.example/"))
        .await
        .unwrap();
    assert!(matches!(
        svc.pay_card_form(&checkout, "tok").await,
        Err(CheckoutError::Invalid {
            field: "account",
            ..
        })
    ));
}

#[tokio::test]
async fn a_temporary_id_answers_for_fifteen_minutes() {
    let mut links = untouched();
    links
        .expect_order_by_temporary_id()
        .withf(|_, since| *since == NOW - TEMPORARY_ID_VALIDITY)
        .returning(|_, _| Ok(None));
    let svc = service(links, ordering(), MockCardPayments::new());
    assert_eq!(svc.payment(Uuid::nil()).await.unwrap(), None);
    assert_eq!(TEMPORARY_ID_VALIDITY, time::Duration::minutes(15));
}

#[tokio::test]
async fn origins_are_checked_deduplicated_and_bounded() {
    let mut links = untouched();
    links
        .expect_set_pay_origins()
        .times(1)
        .withf(|_, o| o == ["http://127.0.0.1:8080", "https://shop.example"])
        .returning(|_, _| Ok(()));
    let svc = service(links, ordering(), MockCardPayments::new());
    let set = svc
        .set_pay_origins(
            account(),
            vec![
                "https://Shop.Example/".into(),
                "https://shop.example".into(),
                "http://127.0.0.1:8080".into(),
            ],
        )
        .await
        .unwrap();
    assert_eq!(set, ["http://127.0.0.1:8080", "https://shop.example"]);
    let svc = service(untouched(), ordering(), MockCardPayments::new());
    let too_many = (0..21).map(|i| format!("https://s{i}.example")).collect();
    assert!(matches!(
        svc.set_pay_origins(account(), too_many).await,
        Err(LinkError::Invalid {
            field: "origins",
            ..
        })
    ));
    assert!(matches!(
        svc.set_pay_origins(account(), vec!["http://shop.example".into()])
            .await,
        Err(LinkError::Invalid {
            field: "origins",
            ..
        })
    ));
}
