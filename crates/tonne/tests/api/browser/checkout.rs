//! A customer funds a bundle on an offset link's page.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_funds_a_bundle_in_a_real_browser() {
    let Some(kit) = start().await else {
        return;
    };
    if !kit.has_axe() {
        eprintln!(
            "note: axe-core is absent (target/axe); the automated accessibility check is skipped"
        );
    }
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let bundles: Vec<String> = app.get("/v1/bundles?limit=3", &t.test_key).await.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .collect();
    let id = create_link(
        &app,
        &t.test_key,
        json!({"name": "Checkout", "title": "Make your trip carbon neutral",
               "description": "Choose a project and an amount.", "bundles": bundles, "use_logo": false}),
    )
    .await;
    let c = kit.open(&app.base).await;

    // 1. the link's page
    c.visit(&format!("/l/{id}")).await;
    assert_eq!(c.title().await.unwrap(), "Make your trip carbon neutral");
    screenshot(&c, "01-offset-link").await;
    assert_controls_named(&c).await;
    assert!(focus_is_visible(&c, "#email").await, "visible focus");
    // responsive: on a phone-sized window the page reflows without sideways scrolling
    assert_narrow_without_sideways_scroll(&c).await;
    screenshot(&c, "01-offset-link-narrow").await;
    c.set_window_size(1100, 1400).await.unwrap();
    c.axe("offset link").await;
    c.click(Locator::Css(&format!("label[for='bundle-{}']", bundles[1])))
        .await;
    c.fill(Locator::Css("#email"), "jane@example.org").await;
    c.fill(Locator::Css("#amount"), "30").await;
    c.click(Locator::Css("button[type=submit]")).await;

    // 2. the confirmation step, priced by the ordering code
    c.wait(Locator::XPath("//h2[text()='Confirm your order']"))
        .await;
    let confirm = c.text().await;
    assert!(confirm.contains("GBP 30.00"), "{confirm}");
    screenshot(&c, "02-confirm").await;
    c.axe("confirmation").await;

    // 3. the order placed — by a double click on the confirm button (two
    // submissions with the same one-time token): one order
    c.execute(
        "const b = document.querySelector('button[type=submit]'); b.click(); b.click();",
        vec![],
    )
    .await
    .unwrap();
    let code = c.wait(Locator::Css("dd code")).await;
    let order_id = code.text().await.unwrap();
    screenshot(&c, "03-placed").await;
    c.axe("order placed").await;
    let orders = app
        .get(&format!("/v1/orders?offset_link_id={id}"), &t.test_key)
        .await;
    let data = orders.body["data"].as_array().unwrap();
    assert_eq!(data.len(), 1, "{}", orders.body);
    assert_eq!(data[0]["id"], order_id.as_str());
    assert_eq!(data[0]["email"], "jane@example.org");
    assert_eq!(data[0]["total_cost"], "30.00");

    // a declined test card pays nothing
    let paid_link = create_link(
        &app,
        &t.test_key,
        json!({"name": "Pay", "bundles": [bundles[0]], "value": "15.00", "use_logo": false, "require_payment": true}),
    )
    .await;
    c.visit(&format!("/l/{paid_link}")).await;
    c.fill(Locator::Css("#email"), "sam@example.org").await;
    c.click(Locator::Css("button[type=submit]")).await;
    let card = c.wait(Locator::Css("#card")).await;
    assert_controls_named(&c).await;
    card.send_keys("4000 0000 0000 0002").await.unwrap();
    c.click(Locator::Css("button[type=submit]")).await;
    let alert = c.wait(Locator::Css("[role=alert]")).await;
    assert!(alert.text().await.unwrap().contains("declined"));
    screenshot(&c, "04-declined").await;
    let none = app
        .get(
            &format!("/v1/orders?offset_link_id={paid_link}"),
            &t.test_key,
        )
        .await;
    assert_eq!(none.body["data"], json!([]), "no order for a declined card");

    // an expired link shows its page, without a form
    let expiring = create_link(
        &app,
        &t.test_key,
        json!({"name": "Soon over", "bundles": [bundles[0]], "use_logo": false,
               "expires_at": (time::OffsetDateTime::now_utc() + time::Duration::seconds(2))
                   .format(&time::format_description::well_known::Rfc3339).unwrap()}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(2_200)).await;
    c.visit(&format!("/l/{expiring}")).await;
    let ended = c.text().await;
    assert!(ended.contains("has ended"), "{ended}");
    assert!(c.find(Locator::Css("form")).await.is_err(), "no form");
    screenshot(&c, "05-expired").await;
    c.axe("expired").await;
    c.close().await;
}
