//! A customer funds a bundle on an offset link's page.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_funds_a_bundle_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    if axe.is_none() {
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
    let c = browser(&driver).await;

    // 1. the link's page
    c.goto(&format!("{}/l/{id}", app.base)).await.unwrap();
    assert_eq!(c.title().await.unwrap(), "Make your trip carbon neutral");
    screenshot(&c, "01-offset-link").await;
    assert_controls_named(&c).await;
    assert!(focus_is_visible(&c, "#email").await, "visible focus");
    // responsive: on a phone-sized window the page reflows without sideways scrolling
    c.set_window_size(390, 844).await.unwrap();
    let overflow = c
        .execute(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(overflow, json!(0), "no horizontal scroll at 390 px");
    screenshot(&c, "01-offset-link-narrow").await;
    c.set_window_size(1100, 1400).await.unwrap();
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "offset link").await;
    }
    c.find(Locator::Css(&format!("label[for='bundle-{}']", bundles[1])))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.find(Locator::Css("#email"))
        .await
        .unwrap()
        .send_keys("jane@example.org")
        .await
        .unwrap();
    c.find(Locator::Css("#amount"))
        .await
        .unwrap()
        .send_keys("30")
        .await
        .unwrap();
    c.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // 2. the confirmation step, priced by the ordering code
    soon(&c, Locator::XPath("//h2[text()='Confirm your order']"))
        .await
        .unwrap();
    let confirm = text(&c).await;
    assert!(confirm.contains("GBP 30.00"), "{confirm}");
    screenshot(&c, "02-confirm").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "confirmation").await;
    }

    // 3. the order placed — by a double click on the confirm button (two
    // submissions with the same one-time token): one order
    c.execute(
        "const b = document.querySelector('button[type=submit]'); b.click(); b.click();",
        vec![],
    )
    .await
    .unwrap();
    let code = soon(&c, Locator::Css("dd code")).await.unwrap();
    let order_id = code.text().await.unwrap();
    screenshot(&c, "03-placed").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "order placed").await;
    }
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
    c.goto(&format!("{}/l/{paid_link}", app.base))
        .await
        .unwrap();
    c.find(Locator::Css("#email"))
        .await
        .unwrap()
        .send_keys("sam@example.org")
        .await
        .unwrap();
    c.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let card = soon(&c, Locator::Css("#card")).await.unwrap();
    assert_controls_named(&c).await;
    card.send_keys("4000 0000 0000 0002").await.unwrap();
    c.find(Locator::Css("button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let alert = soon(&c, Locator::Css("[role=alert]")).await.unwrap();
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
    c.goto(&format!("{}/l/{expiring}", app.base)).await.unwrap();
    let ended = text(&c).await;
    assert!(ended.contains("has ended"), "{ended}");
    assert!(c.find(Locator::Css("form")).await.is_err(), "no form");
    screenshot(&c, "05-expired").await;
    if let Some(axe) = &axe {
        assert_axe_clean(&c, axe, "expired").await;
    }
    c.close().await.unwrap();
}
