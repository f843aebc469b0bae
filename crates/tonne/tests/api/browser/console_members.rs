//! A member creates a key and replays a webhook in the console.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_creates_a_key_and_replays_a_webhook_in_a_real_browser() {
    let Some(driver) = driver().await else {
        return;
    };
    let axe = axe_source();
    assert!(
        axe.is_some() || !mandatory(),
        "CI=true: axe-core must be installed in target/axe (.ci/run does it)"
    );
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    crate::console::member(&app, "ada@acme.example", &t.organisation_id).await;
    let rx = crate::webhooks::Receiver::start(crate::webhooks::Behaviour::Status(503));
    let hook = app
        .post(
            "/v1/webhooks",
            &t.live_key,
            &json!({ "url": format!("{}/hook", rx.base) }),
        )
        .await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    app.post(
        "/v1/orders/by-mass",
        &t.live_key,
        &json!({"mass": {"amount": "2", "unit": "t"}}),
    )
    .await;
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
    let c = browser(&driver).await;
    let check = |name: &'static str| {
        let (c, axe) = (&c, &axe);
        async move {
            assert_controls_named(c).await;
            if let Some(axe) = axe {
                assert_axe_clean(c, axe, name).await;
            }
            screenshot(c, name).await;
            assert_reflows(c, name).await;
        }
    };
    c.goto(&format!("{}/console/sign-in", app.base))
        .await
        .unwrap();
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("ada@acme.example")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("correct horse battery")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("API keys")).await.unwrap();
    // The organisation's orders, read-only, with the live/test switch.
    c.find(Locator::LinkText("Orders"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    assert!(text(&c).await.contains("Orders (live)"));
    check("13b-console-member-orders").await;
    c.find(Locator::LinkText("API keys"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Create a live key']"))
        .await
        .unwrap();
    check("14-console-keys").await;
    c.find(Locator::XPath("//button[text()='Create a live key']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let secret = soon(&c, Locator::Id("secret"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(secret.starts_with("tonne_live_"));
    check("15-console-key-created").await;

    // PACT credentials for the live account: the form, then the secret once.
    c.find(Locator::LinkText("PACT"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("label")).await.unwrap();
    check("15b-console-pact").await;
    c.find(Locator::Id("label"))
        .await
        .unwrap()
        .send_keys("Carrier portal")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Create credentials']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let pact_secret = soon(&c, Locator::Id("secret"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    assert!(pact_secret.starts_with("tonne_pact_"));
    check("15c-console-pact-created").await;

    // Invoices: the organisation's, with its PDF and the billing details form.
    c.find(Locator::LinkText("Invoices"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("billing-name")).await.unwrap();
    assert!(text(&c).await.contains("INV-000001"));
    check("15d-console-invoices").await;

    // The failing webhook's log, then a replay once the receiver is fixed.
    c.goto(&format!("{}/console/webhooks", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("16-console-webhooks").await;
    let page = format!("{}/console/webhooks/{hook_id}?mode=live", app.base);
    let mut failed = false;
    for _ in 0..50 {
        c.goto(&page).await.unwrap();
        if text(&c).await.contains("HTTP 503") {
            failed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(failed, "the failed attempt shows in the log");
    check("17-console-webhook-failing").await;
    rx.set(crate::webhooks::Behaviour::Status(200));
    let since = (time::OffsetDateTime::now_utc() - time::Duration::hours(1))
        .format(time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]"
        ))
        .unwrap();
    c.execute(
        "document.getElementById('since').value = arguments[0];",
        vec![json!(since)],
    )
    .await
    .unwrap();
    c.find(Locator::XPath("//button[text()='Replay events']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("p.notice")).await.unwrap();
    assert!(text(&c).await.contains("will be sent again"));
    check("18-console-webhook-replayed").await;

    // A new webhook from the console: its secret shown once.
    c.goto(&format!("{}/console/webhooks?mode=live", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("url")).await.unwrap();
    c.find(Locator::Id("url"))
        .await
        .unwrap()
        .send_keys(&format!("{}/second", rx.base))
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Add webhook']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("secret")).await.unwrap();
    check("29-console-webhook-added").await;

    // A test event to the first webhook: the receiver's answer on its page.
    c.goto(&page).await.unwrap();
    c.find(Locator::XPath("//button[text()='Send test event']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("test-result")).await.unwrap();
    assert!(
        text(&c)
            .await
            .contains("The receiver acknowledged the test event: HTTP 200")
    );
    check("34-console-webhook-test-event").await;

    // A client account, created from the console.
    c.goto(&format!("{}/console/client-accounts", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("name")).await.unwrap();
    c.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys("Corner shop")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Create client account']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("p.notice")).await.unwrap();
    assert!(
        text(&c)
            .await
            .contains("Client account Corner shop created.")
    );
    check("35-console-client-accounts").await;

    // Estimates, and one explained.
    let estimate = app
        .post(
            "/v1/estimates/electricity",
            &t.live_key,
            &json!({"consumption": {"amount": "2", "unit": "MWh"}, "country_code": "GBR"}),
        )
        .await;
    let estimate_id = estimate.body["id"].as_str().unwrap().to_owned();
    c.goto(&format!("{}/console/estimates", app.base))
        .await
        .unwrap();
    soon(&c, Locator::LinkText(&estimate_id)).await.unwrap();
    check("30-console-estimates").await;
    c.find(Locator::LinkText(&estimate_id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//h2[text()='How it was computed']"))
        .await
        .unwrap();
    check("31-console-estimate").await;

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
    c.goto(&format!("{}/console/offset-links", app.base))
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Checkout")).await.unwrap();
    check("32-console-offset-links").await;
    c.find(Locator::LinkText("Checkout"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("figure.chart svg")).await.unwrap();
    check("33-console-offset-link").await;

    // A new link from the console, with the first bundle, then switched off.
    c.goto(&format!("{}/console/offset-links", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("link-name")).await.unwrap();
    c.find(Locator::Id("link-name"))
        .await
        .unwrap()
        .send_keys("Newsletter")
        .await
        .unwrap();
    c.find(Locator::Id(&format!("bundle-{}", bundles[0])))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    check("36-console-offset-link-form").await;
    c.find(Locator::XPath("//button[text()='Create offset link']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Switch the link off']"))
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Switch the link off']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Switch the link on']"))
        .await
        .unwrap();
    check("37-console-offset-link-switched-off").await;

    // Impact: the account's figures and its sustainability page, linked.
    let page = app
        .post(
            "/v1/sustainability-pages",
            &t.live_key,
            &json!({"status": "enabled", "slug": "console-impact", "title": "by_volume", "sections": ["bundles_breakdown"]}),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    c.goto(&format!("{}/console/impact", app.base))
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Open the public page"))
        .await
        .unwrap();
    let shown = text(&c).await;
    assert!(shown.contains("console-impact"), "{shown}");
    check("38-console-impact").await;
    c.close().await.unwrap();
}
