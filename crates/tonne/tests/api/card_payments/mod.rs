//! Offset-link orders paid by card through Stripe, end to end over HTTP
//! against `localstripe` (a fake but stateful Stripe that `.ci/run` starts;
//! `TONNE_TEST_STRIPE_URL` names it; without it these tests say so and pass,
//! except under `CI=true`). What Stripe.js does in the browser —
//! `confirmCardSetup` with the card typed into Stripe's field — is done here
//! over HTTP as Stripe.js does it; `browser::stripe` does it in Chromium.

use serde_json::{Value, json};
use tonne_test_support::TestDb;

use crate::offset_links::{Page, Visitor};
use crate::support::{Reply, TestApp, json_of};

/// The signing secret the tests' server is given for `/stripe/webhook`.
pub(crate) const WEBHOOK_SECRET: &str = "whsec_tonne_test";

pub(crate) fn stripe_url() -> Option<String> {
    match std::env::var("TONNE_TEST_STRIPE_URL") {
        Ok(url) if !url.is_empty() => Some(url.trim_end_matches('/').to_owned()),
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true: TONNE_TEST_STRIPE_URL must name a running localstripe")
        }
        _ => {
            eprintln!("note: TONNE_TEST_STRIPE_URL is not set: the Stripe tests are skipped");
            None
        }
    }
}

/// A server whose live mode takes cards through the fake Stripe at `url`.
pub(crate) async fn paying_app(db: TestDb, url: &str) -> TestApp {
    let client = tonne_stripe::StripeClient::new(
        tonne_stripe::StripeConfig::new("sk_live_tonne", url).unwrap(),
    );
    let js_url = format!("{url}/js.stripe.com/v3/");
    TestApp::spawn_with(db, move |o| {
        o.cards = tonne::CardProcessors {
            live: Some(tonne::StripeMode {
                client,
                publishable_key: "pk_live_tonne".into(),
                js_url,
            }),
            test: None,
            webhook_secrets: vec![WEBHOOK_SECRET.into()],
        };
    })
    .await
}

/// `POST /v1/offset-links`: a link "Pay" to `bundle` at `value`, paid for
/// when ordered; the answer, unchecked.
pub(crate) async fn paid_link(app: &TestApp, key: &str, bundle: &str, value: &str) -> Reply {
    app.post(
        "/v1/offset-links",
        key,
        &json!({"name": "Pay", "bundles": [bundle], "value": value, "use_logo": false, "require_payment": true}),
    )
    .await
}

/// Stripe.js's `confirmCardSetup` on a confirmation page: the card becomes a
/// PaymentMethod.
async fn card_set_up(url: &str, confirm: &Page, card: &str) -> String {
    let client_secret = attribute(confirm, "data-secret");
    let id = client_secret.split("_secret_").next().unwrap();
    let body = json_of(
        reqwest::Client::new()
            .post(format!("{url}/v1/setup_intents/{id}/confirm"))
            .json(&json!({
                "key": "pk_live_tonne",
                "use_stripe_sdk": true,
                "client_secret": client_secret,
                "payment_method_data": {
                    "type": "card",
                    "card": {"number": card, "exp_month": "12", "exp_year": "2030", "cvc": "123"}
                }
            })),
    )
    .await;
    assert_eq!(body["status"], "succeeded", "{body}");
    body["payment_method"].as_str().unwrap().to_owned()
}

fn attribute(page: &Page, name: &str) -> String {
    let marker = format!("{name}=\"");
    let start = page
        .html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {}", page.html))
        + marker.len();
    let end = page.html[start..].find('"').unwrap() + start;
    page.html[start..end].to_owned()
}

async fn intent(url: &str, id: &str) -> Value {
    json_of(
        reqwest::Client::new()
            .get(format!("{url}/v1/payment_intents/{id}"))
            .bearer_auth("sk_live_tonne"),
    )
    .await
}

/// A visitor's checkout with `card`: the confirmation page, the card set up
/// as Stripe.js does, the order's submit. The page it ends on, and the token.
pub(crate) async fn checkout(
    v: &mut Visitor<'_>,
    id: &str,
    choice: &[(&str, &str)],
    url: &str,
    card: &str,
) -> (Page, String) {
    let confirm = v.post(id, "quote", choice).await;
    assert_eq!(confirm.status, 200, "{}", confirm.html);
    let token = confirm.field("token");
    let pm = card_set_up(url, &confirm, card).await;
    let mut form = choice.to_vec();
    form.push(("token", token.as_str()));
    form.push(("payment_method", pm.as_str()));
    (v.post(id, "order", &form).await, token)
}

async fn a_live_link_order_is_paid_by_card_through_stripe(db: TestDb) {
    let Some(url) = stripe_url() else { return };
    let app = paying_app(db, &url).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles = app.bundle_ids(&t.live_key).await;
    let res = paid_link(&app, &t.live_key, &bundles[0], "20.00").await;
    assert_eq!(res.status, 200, "{}", res.body);
    let id = res.body["id"].as_str().unwrap().to_owned();
    let mut v = Visitor::new(&app);

    // the confirmation page loads Stripe.js and Tonne's card script, and its
    // policy lets them reach Stripe and nothing else
    let (chosen, confirm) = v.quote(&id, &bundles[0]).await;
    let choice = chosen.form();
    assert_eq!(confirm.status, 200, "{}", confirm.html);
    assert!(
        confirm
            .html
            .contains(&format!("<script src=\"{url}/js.stripe.com/v3/\">"))
    );
    assert!(confirm.html.contains("<script src=\"/assets/card.js\">"));
    assert!(
        !confirm.html.contains("name=\"card\""),
        "no card number field of Tonne's"
    );
    assert!(
        confirm.html.contains("<noscript>"),
        "a message when scripts are off"
    );
    assert_eq!(attribute(&confirm, "data-key"), "pk_live_tonne");
    assert!(
        confirm
            .policy
            .contains(&format!("script-src 'self' {url};"))
            && confirm.policy.contains(&format!("connect-src {url};"))
            && confirm.policy.contains("frame-ancestors 'none'"),
        "{}",
        confirm.policy
    );
    let script = app.fetch("/assets/card.js", None).await;
    assert_eq!(
        script.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
    assert!(script.text().await.unwrap().contains("confirmCardSetup"));

    let token = confirm.field("token");
    let pm = card_set_up(&url, &confirm, "4242424242424242").await;
    let mut form = choice.to_vec();
    form.push(("token", token.as_str()));
    form.push(("payment_method", pm.as_str()));
    let (_, before) = app.count_estimates_and_orders().await;
    let placed = v.post(&id, "order", &form).await;
    assert_eq!(placed.status, 200, "{}", placed.html);
    assert!(
        !placed.html.contains("has confirmed your payment"),
        "nothing waits for the operator"
    );
    let order_id = placed.order_id();
    let order = app
        .get(&format!("/v1/orders/{order_id}"), &t.live_key)
        .await;
    assert_eq!(
        order.body["status"], "paid",
        "captured when placed: {}",
        order.body
    );
    assert_eq!(order.body["payment_method"], "card");
    assert_eq!(order.body["total_cost"], "20.00");

    // Stripe holds the same amount, captured
    let stored = app.services.ordering.order(&order_id).await.unwrap();
    let reference = stored
        .payment_reference
        .expect("the PaymentIntent on the order");
    let pi = intent(&url, &reference).await;
    assert_eq!(pi["status"], "succeeded", "{pi}");
    assert_eq!(pi["amount"], 2_000);
    assert_eq!(pi["capture_method"], "manual");
    assert!(
        pi["metadata"]["tonne_checkout"]
            .as_str()
            .unwrap()
            .starts_with("offset-link-")
    );

    // the operator gives a paid card order up: Stripe refunds it in full
    crate::cli::tonne(
        &[
            "--stripe-secret-key",
            "sk_live_tonne",
            "--stripe-publishable-key",
            "pk_live_tonne",
            "--stripe-api-url",
            &url,
            "orders",
            "advance",
            &order_id,
            "--to",
            "failed",
        ],
        &app.database_url,
    );
    let order = app
        .get(&format!("/v1/orders/{order_id}"), &t.live_key)
        .await;
    assert_eq!(order.body["status"], "failed", "{}", order.body);
    // (the fake expands the intent's latest charge in place)
    let after = intent(&url, &reference).await;
    let charge = &after["latest_charge"];
    assert_eq!(charge["refunded"], true, "{charge}");
    assert_eq!(charge["amount_refunded"], 2_000);

    // a second submit of the same checkout answers the same order
    let again = v.post(&id, "order", &form).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.order_id(), order_id);
    assert_eq!(app.count_estimates_and_orders().await.1, before + 1);

    // a card declined when charged places nothing
    let (declined, token) = checkout(&mut v, &id, &choice, &url, "4000000000000341").await;
    assert_eq!(declined.status, 402, "{}", declined.html);
    assert!(declined.html.contains("declined"), "{}", declined.html);
    // with scripts off nothing reaches Stripe and nothing is placed
    let mut form = choice.to_vec();
    form.push(("token", token.as_str()));
    let no_script = v.post(&id, "order", &form).await;
    assert_eq!(no_script.status, 402, "{}", no_script.html);
    assert!(no_script.html.contains("JavaScript"), "{}", no_script.html);
    assert_eq!(
        app.count_estimates_and_orders().await.1,
        before + 1,
        "no order"
    );

    // test mode without a test key keeps the simulator
    let res = app
        .post(
            "/v1/offset-links",
            &t.test_key,
            &json!({"name": "Sim", "bundles": [bundles[0]], "value": "5.00", "use_logo": false, "require_payment": true}),
        )
        .await;
    let sim = res.body["id"].as_str().unwrap().to_owned();
    let (_, page) = v.quote(&sim, &bundles[0]).await;
    assert!(
        page.html
            .contains("<label for=\"card\">Card number</label>")
    );
    assert!(!page.html.contains("<script"), "{}", page.html);
    assert!(!page.policy.contains("script-src"));
}

mod crash;
mod disputes;

tonne_test_support::on_both_backends!(a_live_link_order_is_paid_by_card_through_stripe);
