//! A live offset-link order paid by card in Chromium through Stripe.js —
//! here `localstripe`'s stand-in, served by the fake at the configured
//! Stripe JS address (its card field is plain inputs where Stripe's is a
//! frame of its own, so the accessibility checks leave that field out): a
//! good card places one order and pays it, a card declined when charged
//! places nothing — on an offset link's page and on Lune Pay's.

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::json;

use super::kit::*;
use crate::support::{Tenant, TestApp};

/// axe-core over the page but the card processor's own field.
async fn assert_axe_clean_around_the_card(c: &Client, axe: &str, page: &str) {
    let result = axe_violations(c, axe, json!({"exclude": [["#card-element"]]})).await;
    assert_eq!(result, json!([]), "axe-core violations on the {page} page");
}

/// Opens the link, enters an email, and goes on to the confirmation page
/// with Stripe's card field mounted.
async fn to_the_card_step(c: &Session<'_>, link: &str, email: &str) {
    c.visit(&format!("/l/{link}")).await;
    c.fill(Locator::Css("#email"), email).await;
    c.click(Locator::Css("button[type=submit]")).await;
    c.wait(Locator::XPath("//h2[text()='Confirm your order']"))
        .await;
    soon(c, Locator::Css("#card-element input[placeholder=number]"))
        .await
        .expect("Stripe.js mounted its card field");
}

/// Types a card into Stripe's field and confirms.
async fn pay_with(c: &Session<'_>, number: &str) {
    for (field, value) in [
        ("number", number),
        ("exp_month", "12"),
        ("exp_year", "30"),
        ("cvc", "123"),
        ("postal_code", "75001"),
    ] {
        let input = format!("#card-element input[placeholder={field}]");
        c.fill(Locator::Css(&input), value).await;
    }
    c.click(Locator::Css("button[type=submit]")).await;
}

/// The fake Stripe, chromedriver (axe-core if installed), and a server
/// taking cards through that Stripe with the demo catalogue and a tenant;
/// `None` when Stripe or chromedriver is missing (the test is skipped).
async fn set_up() -> Option<(Kit, TestApp, Tenant)> {
    let url = crate::card_payments::stripe_url()?;
    let kit = Kit::lenient(driver().await?);
    let app = crate::card_payments::paying_app(tonne_test_support::TestDb::sqlite(), &url).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    Some((kit, app, t))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_pays_by_card_through_stripe_in_a_real_browser() {
    let Some((kit, app, t)) = set_up().await else {
        return;
    };
    let bundles = app.bundle_ids(&t.live_key).await;
    let link = create_link(
        &app,
        &t.live_key,
        json!({"name": "Pay", "title": "Fund a project", "bundles": [bundles[0]], "value": "20.00",
               "use_logo": false, "require_payment": true}),
    )
    .await;
    let c = kit.open(&app.base).await;

    to_the_card_step(&c, &link, "jane@example.org").await;
    screenshot(&c, "20-stripe-card-step").await;
    if let Some(axe) = c.axe_source() {
        assert_axe_clean_around_the_card(&c, axe, "card step").await;
    }
    pay_with(&c, "4242424242424242").await;
    let code = c.wait(Locator::Css("dd code")).await;
    let order_id = code.text().await.unwrap();
    screenshot(&c, "21-stripe-paid").await;
    if let Some(axe) = c.axe_source() {
        assert_axe_clean_around_the_card(&c, axe, "paid").await;
    }
    let page = c.text().await;
    assert!(page.contains("paid"), "{page}");
    let order = app
        .get(&format!("/v1/orders/{order_id}"), &t.live_key)
        .await;
    assert_eq!(order.body["status"], "paid", "{}", order.body);
    assert_eq!(order.body["payment_method"], "card");

    // a card Stripe declines when charged: the page says so, nothing is placed
    to_the_card_step(&c, &link, "sam@example.org").await;
    pay_with(&c, "4000000000000341").await;
    let alert = c
        .wait(Locator::XPath(
            "//*[@role='alert' and contains(., 'declined')]",
        ))
        .await;
    assert!(alert.text().await.unwrap().contains("nothing was charged"));
    screenshot(&c, "22-stripe-declined").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let orders = app
        .get(&format!("/v1/orders?offset_link_id={link}"), &t.live_key)
        .await;
    assert_eq!(
        orders.body["data"].as_array().unwrap().len(),
        1,
        "{}",
        orders.body
    );
    c.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_buyer_pays_on_lune_pay_through_stripe_in_a_real_browser() {
    let Some((kit, app, t)) = set_up().await else {
        return;
    };
    let bundle = app.bundle_ids(&t.live_key).await[0].clone();
    // the platform's return address: this server's own certificate-less page
    // will do (any address on an allowed origin); the browser stops there
    let origin = app.base.trim_end_matches('/').to_owned();
    let set = app
        .put(
            "/v1/lune-pay/origins",
            &t.live_key,
            &json!({ "origins": [origin] }),
        )
        .await;
    assert_eq!(set.status, 200, "{}", set.body);
    let back = format!("{origin}/health");
    let pay = format!(
        "{origin}/pay/{}?quantity=0.5&bundle_id={bundle}&redirect_url={}&redirect_label=Back%20to%20the%20shop&external_id=cart-9",
        t.live_account,
        url::form_urlencoded::byte_serialize(back.as_bytes()).collect::<String>()
    );
    let c = kit.open(&app.base).await;

    // declined when charged: the page again, saying so
    c.goto(&pay).await.unwrap();
    soon(&c, Locator::Css("#card-element input[placeholder=number]"))
        .await
        .expect("Stripe.js mounted its card field");
    screenshot(&c, "23-lune-pay").await;
    if let Some(axe) = c.axe_source() {
        assert_axe_clean_around_the_card(&c, axe, "Lune Pay").await;
    }
    pay_with(&c, "4000000000000341").await;
    let alert = soon(
        &c,
        Locator::XPath("//*[@role='alert' and contains(., 'declined')]"),
    )
    .await;
    screenshot(&c, "24-lune-pay-declined").await;
    let alert = match alert {
        Ok(a) => a,
        Err(e) => panic!("{e:?}: {}", c.source().await.unwrap()),
    };
    assert!(alert.text().await.unwrap().contains("nothing was charged"));

    // a good card: back to the platform with its reference and a temporary id
    c.wait(Locator::Css("#card-element input[placeholder=number]"))
        .await;
    pay_with(&c, "4242424242424242").await;
    let mut landed = String::new();
    for _ in 0..150 {
        landed = c.current_url().await.unwrap().to_string();
        if landed.starts_with(&back) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        landed.starts_with(&format!("{back}?external_id=cart-9&temporary_id=")),
        "{landed}"
    );
    let temporary_id = landed.rsplit('=').next().unwrap().to_owned();
    let payment = app
        .get_without_key(&format!("/v1/payments/by-temporary-id/{temporary_id}"))
        .await;
    assert_eq!(payment.status, 200, "{}", payment.body);
    assert_eq!(payment.body["order"]["status"], "paid");
    assert_eq!(payment.body["order"]["quantity"], "0.5");
    c.close().await;
}
