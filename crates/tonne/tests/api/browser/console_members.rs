//! A member creates a key and replays a webhook in the console.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_creates_a_key_and_replays_a_webhook_in_a_real_browser() {
    let Some(kit) = start().await else {
        return;
    };
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    crate::console::member(&app, "ada@acme.example", &t.organisation_id).await;
    let rx = crate::webhooks::Receiver::start(crate::webhooks::Behaviour::Status(503));
    let hook = crate::webhooks::post_webhook(&app, &t.live_key, &format!("{}/hook", rx.base)).await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    app.order_tonnes(&t.live_key, "2").await;
    // the organisation's invoice for it (issued as `tonne invoices issue` does)
    let today = time::OffsetDateTime::now_utc().date();
    let seller = tonne_ordering::invoices::Party::parse(
        "Tonne Operator Ltd",
        "1 High Street\nLondon",
        "GB123",
        "",
    )
    .unwrap();
    app.services
        .clone()
        .with_invoice_terms(tonne::InvoiceTerms {
            seller,
            tax_rate: tonne_ordering::invoices::TaxRate::default(),
        })
        .invoices
        .issue(
            t.organisation_id.parse().unwrap(),
            tonne_ordering::invoices::Period::new(today, today).unwrap(),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
    let s = kit.open(&app.base).await;
    s.sign_in("ada@acme.example").await;
    s.wait(Locator::LinkText("API keys")).await;
    // The organisation's orders, read-only, with the live/test switch.
    s.click(Locator::LinkText("Orders")).await;
    s.wait(Locator::Css("table")).await;
    assert!(s.text().await.contains("Orders (live)"));
    s.check("13b-console-member-orders").await;
    s.click(Locator::LinkText("API keys")).await;
    s.wait(Locator::XPath("//button[text()='Create a live key']"))
        .await;
    s.check("14-console-keys").await;
    s.press("Create a live key").await;
    let secret = s.secret().await;
    assert!(secret.starts_with("tonne_live_"));
    s.check("15-console-key-created").await;

    // PACT credentials for the live account: the form, then the secret once.
    s.click(Locator::LinkText("PACT")).await;
    s.wait(Locator::Id("label")).await;
    s.check("15b-console-pact").await;
    s.fill(Locator::Id("label"), "Carrier portal").await;
    s.press("Create credentials").await;
    let pact_secret = s.secret().await;
    assert!(pact_secret.starts_with("tonne_pact_"));
    s.check("15c-console-pact-created").await;

    // Invoices: the organisation's, with its PDF and the billing details form.
    s.click(Locator::LinkText("Invoices")).await;
    s.wait(Locator::Id("billing-name")).await;
    assert!(s.text().await.contains("INV-000001"));
    s.check("15d-console-invoices").await;

    // The failing webhook's log, then a replay once the receiver is fixed.
    s.visit("/console/webhooks").await;
    s.wait(Locator::Css("table")).await;
    s.check("16-console-webhooks").await;
    let page = format!("{}/console/webhooks/{hook_id}?mode=live", app.base);
    let mut failed = false;
    for _ in 0..50 {
        s.goto(&page).await.unwrap();
        if s.text().await.contains("HTTP 503") {
            failed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(failed, "the failed attempt shows in the log");
    s.check("17-console-webhook-failing").await;
    rx.set(crate::webhooks::Behaviour::Status(200));
    let since = (time::OffsetDateTime::now_utc() - time::Duration::hours(1))
        .format(time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]"
        ))
        .unwrap();
    s.execute(
        "document.getElementById('since').value = arguments[0];",
        vec![json!(since)],
    )
    .await
    .unwrap();
    s.press("Replay events").await;
    s.wait(Locator::Css("p.notice")).await;
    assert!(s.text().await.contains("will be sent again"));
    s.check("18-console-webhook-replayed").await;

    // A new webhook from the console: its secret shown once.
    s.visit("/console/webhooks?mode=live").await;
    s.wait(Locator::Id("url")).await;
    s.fill(Locator::Id("url"), &format!("{}/second", rx.base))
        .await;
    s.press("Add webhook").await;
    s.wait(Locator::Id("secret")).await;
    s.check("29-console-webhook-added").await;

    // A test event to the first webhook: the receiver's answer on its page.
    s.goto(&page).await.unwrap();
    s.press("Send test event").await;
    s.wait(Locator::Id("test-result")).await;
    assert!(
        s.text()
            .await
            .contains("The receiver acknowledged the test event: HTTP 200")
    );
    s.check("34-console-webhook-test-event").await;

    // A client account, created from the console.
    s.visit("/console/client-accounts").await;
    s.wait(Locator::Id("name")).await;
    s.fill(Locator::Id("name"), "Corner shop").await;
    s.press("Create client account").await;
    s.wait(Locator::Css("p.notice")).await;
    assert!(
        s.text()
            .await
            .contains("Client account Corner shop created.")
    );
    s.check("35-console-client-accounts").await;

    // Estimates, and one explained.
    let estimate = app
        .post(
            "/v1/estimates/electricity",
            &t.live_key,
            &json!({"consumption": {"amount": "2", "unit": "MWh"}, "country_code": "GBR"}),
        )
        .await;
    let estimate_id = estimate.body["id"].as_str().unwrap().to_owned();
    s.visit("/console/estimates").await;
    s.wait(Locator::LinkText(&estimate_id)).await;
    s.check("30-console-estimates").await;
    s.click(Locator::LinkText(&estimate_id)).await;
    s.wait(Locator::XPath("//h2[text()='How it was computed']"))
        .await;
    s.check("31-console-estimate").await;

    // Offset links, and one link's analytics chart.
    let bundles = app.bundle_ids(&t.live_key).await;
    let link = app
        .post(
            "/v1/offset-links",
            &t.live_key,
            &json!({"name": "Checkout", "bundles": [bundles[0]], "value": "12.50", "use_logo": false, "require_payment": false}),
        )
        .await;
    assert_eq!(link.status, 200, "{}", link.body);
    s.visit("/console/offset-links").await;
    s.wait(Locator::LinkText("Checkout")).await;
    s.check("32-console-offset-links").await;
    s.click(Locator::LinkText("Checkout")).await;
    s.wait(Locator::Css("figure.chart svg")).await;
    s.check("33-console-offset-link").await;

    // A new link from the console, with the first bundle, then switched off.
    s.visit("/console/offset-links").await;
    s.wait(Locator::Id("link-name")).await;
    s.fill(Locator::Id("link-name"), "Newsletter").await;
    s.click(Locator::Id(&format!("bundle-{}", bundles[0])))
        .await;
    s.check("36-console-offset-link-form").await;
    s.press("Create offset link").await;
    s.wait(Locator::XPath("//button[text()='Switch the link off']"))
        .await;
    s.press("Switch the link off").await;
    s.wait(Locator::XPath("//button[text()='Switch the link on']"))
        .await;
    s.check("37-console-offset-link-switched-off").await;

    // Impact: the account's figures and its sustainability page, linked.
    let page = app
        .post(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({"status": "enabled", "slug": "console-impact", "title": "by_volume", "sections": ["bundles_breakdown"]}),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    s.visit("/console/impact").await;
    s.wait(Locator::LinkText("Open the public page")).await;
    let shown = s.text().await;
    assert!(shown.contains("console-impact"), "{shown}");
    s.check("38-console-impact").await;
    s.close().await;
}
