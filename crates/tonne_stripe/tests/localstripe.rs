//! The adapter against `localstripe` (PyPI; a fake but stateful Stripe
//! server), which `.ci/run` starts like PostgreSQL: `TONNE_TEST_STRIPE_URL`
//! names it. Without it the tests say so and pass, except under `CI=true`.
//!
//! What the browser does with Stripe.js (creating the card's
//! PaymentMethod and confirming the intent) is done here over HTTP, as
//! Stripe.js does it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::BTreeMap;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tonne_kernel::{AccountMode, Currency, Money};
use tonne_links::ports::{Card, CardForm, CardOutcome, CardPayments as _, ProcessorForm};
use tonne_stripe::{
    DEFAULT_TOLERANCE, Event, IntentStatus, NewPaymentIntent, StripeCards, StripeClient,
    StripeConfig, StripeError, verify_signature,
};

const KEY: &str = "sk_test_tonne";

fn fake_url() -> Option<String> {
    match std::env::var("TONNE_TEST_STRIPE_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true: TONNE_TEST_STRIPE_URL must name a running localstripe")
        }
        _ => {
            eprintln!("TONNE_TEST_STRIPE_URL is not set: skipping the localstripe tests");
            None
        }
    }
}

fn client(url: &str) -> StripeClient {
    StripeClient::new(StripeConfig::new(KEY, url).unwrap())
}

fn order_intent(cents: i64) -> NewPaymentIntent {
    NewPaymentIntent {
        amount_minor: cents,
        currency: "EUR".into(),
        description: None,
        metadata: BTreeMap::from([("order_id".to_owned(), "ord_1".to_owned())]),
        payment_method: None,
    }
}

/// What Stripe.js does in the browser: the card becomes a PaymentMethod,
/// the intent is confirmed with it. Returns Stripe's answer to the confirm.
async fn pay_in_browser(url: &str, intent: &str, card: &str) -> (u16, serde_json::Value) {
    let http = reqwest::Client::new();
    let pm = http
        .post(format!("{url}/v1/payment_methods"))
        .bearer_auth(KEY)
        .form(&[
            ("type", "card"),
            ("card[number]", card),
            ("card[exp_month]", "12"),
            ("card[exp_year]", "2030"),
            ("card[cvc]", "123"),
        ])
        .send()
        .await
        .unwrap();
    let status = pm.status().as_u16();
    let body: serde_json::Value = pm.json().await.unwrap();
    if status != 200 {
        return (status, body);
    }
    // the fake takes the PaymentMethod as an update, then a bare confirm
    let update = http
        .post(format!("{url}/v1/payment_intents/{intent}"))
        .bearer_auth(KEY)
        .form(&[("payment_method", body["id"].as_str().unwrap())])
        .send()
        .await
        .unwrap();
    assert_eq!(update.status().as_u16(), 200);
    let res = http
        .post(format!("{url}/v1/payment_intents/{intent}/confirm"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

#[tokio::test]
async fn a_card_is_authorised_then_captured_and_refunded() {
    let Some(url) = fake_url() else { return };
    let stripe = client(&url);
    let intent = stripe
        .create_payment_intent(&order_intent(2_550), "order-ord_1-authorise")
        .await
        .unwrap();
    assert_eq!(intent.status, IntentStatus::RequiresPaymentMethod);
    assert_eq!((intent.amount, intent.currency.as_str()), (2_550, "eur"));
    assert_eq!(intent.metadata["order_id"], "ord_1");
    assert!(
        intent
            .client_secret
            .as_deref()
            .unwrap()
            .starts_with(&intent.id)
    );
    assert!(
        !format!("{intent:?}").contains("secret_"),
        "the client secret is never printed"
    );

    let (status, body) = pay_in_browser(&url, &intent.id, "4242424242424242").await;
    assert_eq!(status, 200, "{body}");
    // authorised, held on the card: what the page waits for before placing the order
    let held = stripe.payment_intent(&intent.id).await.unwrap();
    assert_eq!(held.status, IntentStatus::RequiresCapture);

    let captured = stripe
        .capture_payment_intent(&intent.id, "order-ord_1-capture")
        .await
        .unwrap();
    assert_eq!(captured.status, IntentStatus::Succeeded);
    let refund = stripe
        .refund_payment_intent(&intent.id, "order-ord_1-refund")
        .await
        .unwrap();
    assert_eq!(
        (refund.amount, refund.status.as_str()),
        (2_550, "succeeded")
    );
}

#[tokio::test]
async fn a_declined_card_authorises_nothing_and_a_hold_can_be_released() {
    let Some(url) = fake_url() else { return };
    let stripe = client(&url);
    let intent = stripe
        .create_payment_intent(&order_intent(990), "order-ord_2-authorise")
        .await
        .unwrap();
    // Stripe's test card that is declined when charged
    let (status, body) = pay_in_browser(&url, &intent.id, "4000000000000341").await;
    assert_eq!(status, 402, "{body}");
    assert_eq!(body["error"]["code"], "card_declined");
    let after = stripe.payment_intent(&intent.id).await.unwrap();
    assert_ne!(
        after.status,
        IntentStatus::RequiresCapture,
        "nothing authorised"
    );

    // an authorised intent cancelled before capture releases the hold
    let other = stripe
        .create_payment_intent(&order_intent(1_000), "order-ord_3-authorise")
        .await
        .unwrap();
    let (status, body) = pay_in_browser(&url, &other.id, "4242424242424242").await;
    assert_eq!(status, 200, "{body}");
    let cancelled = stripe
        .cancel_payment_intent(&other.id, "order-ord_3-cancel")
        .await
        .unwrap();
    assert_eq!(cancelled.status, IntentStatus::Canceled);
}

#[tokio::test]
async fn stripe_errors_are_told_apart_and_ids_are_checked_before_use() {
    let Some(url) = fake_url() else { return };
    let stripe = client(&url);
    let err = stripe.payment_intent("pi_doesnotexist").await.unwrap_err();
    match &err {
        StripeError::Api { status, .. } => assert_eq!(*status, 404, "{err}"),
        other => panic!("{other:?}"),
    }
    assert!(!err.is_transient() && !err.is_card_declined());
    // an id that would change the path is refused before any call
    for bad in ["../v1/charges", "pi_1/capture", "pi_1?x=y", ""] {
        assert!(
            matches!(
                stripe.payment_intent(bad).await,
                Err(StripeError::Config(_))
            ),
            "{bad}"
        );
    }
    // a non-positive amount is refused before any call
    assert!(matches!(
        stripe.create_payment_intent(&order_intent(0), "k").await,
        Err(StripeError::Config(_))
    ));
    // nothing listens: a transport error, worth retrying with the same key
    let gone = client("http://127.0.0.1:9");
    let err = gone.payment_intent("pi_1").await.unwrap_err();
    assert!(err.is_transient(), "{err:?}");
    assert!(
        !err.to_string().contains(KEY),
        "the key is never in an error"
    );
}

/// One HTTP request read off a socket: its headers (lower-cased names) and body.
async fn receive_one(listener: &TcpListener) -> (Vec<(String, String)>, Vec<u8>) {
    let (mut socket, _) = listener.accept().await.unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0_u8; 8192];
    let (head_end, length) = loop {
        let n = socket.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the connection closed early");
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_string();
            let length = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().unwrap())
                })
                .unwrap_or(0_usize);
            break (end + 4, length);
        }
    };
    while buf.len() < head_end + length {
        let n = socket.read(&mut chunk).await.unwrap();
        assert!(n > 0);
        buf.extend_from_slice(&chunk[..n]);
    }
    socket
        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        .await
        .unwrap();
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        })
        .collect();
    (headers, buf[head_end..head_end + length].to_vec())
}

#[tokio::test]
async fn events_signed_by_the_fake_verify_and_nothing_else_does() {
    let Some(url) = fake_url() else { return };
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let secret = format!("whsec_tonne_{port}");
    let http = reqwest::Client::new();
    let res = http
        .post(format!("{url}/_config/webhooks/tonne_{port}"))
        .form(&[
            ("url", format!("http://127.0.0.1:{port}/stripe/webhook")),
            ("secret", secret.clone()),
            ("events[]", "payment_intent.succeeded".to_owned()),
        ])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    let stripe = client(&url);
    let intent = stripe
        .create_payment_intent(&order_intent(700), &format!("webhook-{port}"))
        .await
        .unwrap();
    let (status, body) = pay_in_browser(&url, &intent.id, "4242424242424242").await;
    assert_eq!(status, 200, "{body}");
    stripe
        .capture_payment_intent(&intent.id, &format!("webhook-{port}-capture"))
        .await
        .unwrap();
    // other tests' events may arrive first: read until this intent's
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (headers, body) = tokio::time::timeout_at(deadline, receive_one(&listener))
            .await
            .expect("the fake sent no event for the intent");
        let signature = headers
            .iter()
            .find(|(k, _)| k == "stripe-signature")
            .map(|(_, v)| v.clone())
            .expect("a Stripe-Signature header");
        let now = time::OffsetDateTime::now_utc();
        assert_eq!(
            verify_signature(&body, &signature, &secret, now, DEFAULT_TOLERANCE),
            Ok(()),
            "{signature}"
        );
        assert!(
            verify_signature(&body, &signature, "whsec_wrong", now, DEFAULT_TOLERANCE).is_err()
        );
        let mut tampered = body.clone();
        tampered.push(b' ');
        assert!(verify_signature(&tampered, &signature, &secret, now, DEFAULT_TOLERANCE).is_err());
        let event = Event::parse(&body).unwrap();
        if event.object_str("id") == Some(intent.id.as_str()) {
            assert_eq!(event.kind, "payment_intent.succeeded");
            break;
        }
    }
}

/// What Stripe.js's `confirmCardSetup` does in the browser with the card
/// typed into its field: the page's SetupIntent, confirmed with the card and
/// the publishable key, becomes a PaymentMethod. Its id, or Stripe's error.
pub async fn confirm_setup_in_browser(
    url: &str,
    client_secret: &str,
    card: &str,
) -> Result<String, serde_json::Value> {
    let id = client_secret.split("_secret_").next().unwrap();
    let res = reqwest::Client::new()
        .post(format!("{url}/v1/setup_intents/{id}/confirm"))
        .json(&serde_json::json!({
            "key": "pk_test_tonne",
            "use_stripe_sdk": true,
            "client_secret": client_secret,
            "payment_method_data": {
                "type": "card",
                "card": {"number": card, "exp_month": "12", "exp_year": "2030", "cvc": "123"}
            }
        }))
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = res.json().await.unwrap();
    match body["payment_method"].as_str() {
        Some(pm) if body["status"] == "succeeded" => Ok(pm.to_owned()),
        _ => Err(body),
    }
}

fn cards(url: &str) -> StripeCards {
    StripeCards::new(
        client(url),
        "pk_test_tonne",
        &format!("{url}/js.stripe.com/v3/"),
    )
}

async fn card_form(cards: &StripeCards, key: &str) -> ProcessorForm {
    let amount = Money::from_minor(2_550, Currency::Eur);
    match cards.form(AccountMode::Test, amount, key).await.unwrap() {
        CardForm::Processor(p) => p,
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_hosted_page_card_is_set_up_in_the_browser_then_authorised_once() {
    let Some(url) = fake_url() else { return };
    let cards = cards(&url);
    let form = card_form(&cards, "offset-link-abc").await;
    assert_eq!(form.publishable_key, "pk_test_tonne");
    assert_eq!(form.script_url, format!("{url}/js.stripe.com/v3/"));
    // the page's policy allows the script's origin (and the API's, the same here)
    assert_eq!(form.origins, vec![url.trim_end_matches('/').to_owned()]);
    assert!(form.client_secret.starts_with("seti_"));

    let pm = confirm_setup_in_browser(&url, &form.client_secret, "4242424242424242")
        .await
        .unwrap();
    let amount = Money::from_minor(2_550, Currency::Eur);
    let outcome = cards
        .authorise(
            AccountMode::Test,
            amount,
            Some(Card::PaymentMethod(pm)),
            "offset-link-abc",
        )
        .await
        .unwrap();
    let CardOutcome::Authorised {
        reference: Some(intent),
    } = outcome
    else {
        panic!("{outcome:?}")
    };
    let held = client(&url).payment_intent(&intent).await.unwrap();
    assert_eq!(held.status, IntentStatus::RequiresCapture);
    assert_eq!((held.amount, held.currency.as_str()), (2_550, "eur"));
    assert_eq!(held.metadata["tonne_checkout"], "offset-link-abc");

    // an order that could not be placed gives the hold back
    cards.release(AccountMode::Test, &intent).await.unwrap();
    let released = client(&url).payment_intent(&intent).await.unwrap();
    assert_eq!(released.status, IntentStatus::Canceled);
}

#[tokio::test]
async fn a_declined_or_missing_card_authorises_nothing() {
    let Some(url) = fake_url() else { return };
    let cards = cards(&url);
    let amount = Money::from_minor(2_550, Currency::Eur);
    let form = card_form(&cards, "offset-link-declined").await;
    // Stripe's card that sets up but is declined when charged
    let pm = confirm_setup_in_browser(&url, &form.client_secret, "4000000000000341")
        .await
        .unwrap();
    let outcome = cards
        .authorise(
            AccountMode::Test,
            amount,
            Some(Card::PaymentMethod(pm)),
            "offset-link-declined",
        )
        .await
        .unwrap();
    assert!(
        matches!(&outcome, CardOutcome::Declined { reason } if reason.contains("declined")),
        "{outcome:?}"
    );
    // no card (scripts off), or a number typed where Stripe's field belongs
    for card in [None, Some(Card::Number("4242424242424242".into()))] {
        let outcome = cards
            .authorise(AccountMode::Test, amount, card, "offset-link-none")
            .await
            .unwrap();
        assert!(
            matches!(outcome, CardOutcome::Declined { .. }),
            "{outcome:?}"
        );
    }
    // a forged payment method id never reaches Stripe's path
    let forged = cards
        .authorise(
            AccountMode::Test,
            amount,
            Some(Card::PaymentMethod("pm_1/../../v1/refunds".into())),
            "offset-link-forged",
        )
        .await;
    assert!(forged.is_err());
}
