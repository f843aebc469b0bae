//! An operator fulfils a live order in the console.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_fulfils_a_live_order_in_the_console_in_a_real_browser() {
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
    // A webhook whose receiver is gone: the operator's webhooks page shows it.
    let rx = crate::webhooks::Receiver::start(crate::webhooks::Behaviour::Status(500));
    let hook = app
        .post(
            "/v1/webhooks",
            &t.live_key,
            &json!({ "url": format!("{}/hook", rx.base) }),
        )
        .await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    let order = app
        .post(
            "/v1/orders/by-mass",
            &t.live_key,
            &json!({"mass": {"amount": "4", "unit": "t"}}),
        )
        .await;
    let id = order.body["id"].as_str().unwrap().to_owned();
    crate::console::operator(&app, "operator@example.org").await;
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

    // Signed out, the console sends a visitor to sign in.
    c.goto(&format!("{}/console/orders", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("form[action='/console/sign-in']"))
        .await
        .unwrap();
    check("07-console-sign-in").await;
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("operator@example.org")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("wrong horse battery")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Sign in']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("p.error")).await.unwrap();
    assert!(text(&c).await.contains("The email or password is wrong."));
    check("08-console-sign-in-refused").await;
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
    soon(&c, Locator::LinkText("Orders")).await.unwrap();
    assert!(text(&c).await.contains("Signed in as operator@example.org"));
    check("09-console-overview").await;

    // The queue shows the live order; its page has the actions.
    c.find(Locator::LinkText("Orders"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText(&id)).await.unwrap();
    check("10-console-orders").await;
    c.find(Locator::LinkText(&id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Mark paid']"))
        .await
        .unwrap();
    check("11-console-order-received").await;
    c.find(Locator::XPath("//button[text()='Mark paid']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("serial")).await.unwrap();
    c.find(Locator::Id("serial"))
        .await
        .unwrap()
        .send_keys("GS-4471-2026")
        .await
        .unwrap();
    check("12-console-order-paid").await;
    c.find(Locator::XPath("//button[text()='Start retirement']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::XPath("//button[text()='Complete']"))
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Complete']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Certificate")).await.unwrap();
    let shown = text(&c).await;
    assert!(shown.contains("GS-4471-2026-1"), "{shown}");
    check("13-console-order-complete").await;
    c.find(Locator::LinkText("Certificate"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    assert!(text(&c).await.contains("GS-4471-2026-1"));

    // Organisations: create one (its keys shown once) and invite a member.
    c.goto(&format!("{}/console/organisations", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Id("name")).await.unwrap();
    check("19-console-organisations").await;
    c.find(Locator::Id("name"))
        .await
        .unwrap()
        .send_keys("Initech")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Create organisation']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("live-key")).await.unwrap();
    check("20-console-organisation-created").await;
    c.find(Locator::LinkText("Go to the organisation"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("email")).await.unwrap();
    check("21-console-organisation").await;
    c.find(Locator::Id("email"))
        .await
        .unwrap()
        .send_keys("milton@initech.example")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Invite member']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("link")).await.unwrap();
    check("22-console-member-invited").await;
    // An account's default selection, from the organisation's page.
    c.back().await.unwrap();
    soon(&c, Locator::Id("email")).await.unwrap();
    c.find(Locator::XPath(
        "(//a[starts-with(normalize-space(.), 'Change')])[1]",
    ))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
    soon(&c, Locator::XPath("//button[text()='Save selection']"))
        .await
        .unwrap();
    check("22b-console-account-selection").await;

    // The audit log: what this operator just did, newest first, by the nav.
    c.find(Locator::LinkText("Audit log"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("actor")).await.unwrap();
    let shown = text(&c).await;
    for action in ["user.created", "organisation.created", "order.complete"] {
        assert!(
            shown.contains(action),
            "the audit log shows {action}: {shown}"
        );
    }
    assert!(shown.contains("GS-4471-2026-1"), "the serial, as recorded");
    check("23-console-audit-log").await;
    c.find(Locator::Id("action"))
        .await
        .unwrap()
        .send_keys("order.")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Filter']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("input#action[value='order.']"))
        .await
        .unwrap();
    let filtered = text(&c).await;
    assert!(filtered.contains("order.paid") && !filtered.contains("organisation.created"));

    // The catalogue: add stock with a reason; the ledger shows it.
    c.find(Locator::LinkText("Catalogue"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::LinkText("Direct Air Capture"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Id("quantity")).await.unwrap();
    check("24-console-bundle").await;
    c.find(Locator::Id("quantity"))
        .await
        .unwrap()
        .send_keys("25")
        .await
        .unwrap();
    c.find(Locator::Id("reason"))
        .await
        .unwrap()
        .send_keys("Bought 25 t from the registry")
        .await
        .unwrap();
    c.find(Locator::XPath("//button[text()='Change stock']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(
        &c,
        Locator::XPath("//td[text()='Bought 25 t from the registry']"),
    )
    .await
    .unwrap();
    check("25-console-bundle-stock-changed").await;
    c.goto(&format!("{}/console/catalogue", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("26-console-catalogue").await;

    // Webhooks across the installation: health, then one webhook's page.
    crate::webhooks::wait_for("a failed attempt", Duration::from_secs(30), || {
        !rx.received().is_empty()
    })
    .await;
    c.find(Locator::LinkText("Webhooks"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("27-console-installation-webhooks").await;
    c.goto(&format!("{}/console/webhooks/{hook_id}", app.base))
        .await
        .unwrap();
    soon(
        &c,
        Locator::XPath("//button[text()='Skip undelivered events']"),
    )
    .await
    .unwrap();
    assert!(text(&c).await.contains("HTTP 500"));
    check("28-console-installation-webhook").await;

    // Limits per account: every organisation's usage, and one's form.
    c.goto(&format!("{}/console/limits", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("table")).await.unwrap();
    check("29-console-limits").await;
    c.goto(&format!(
        "{}/console/limits/{}",
        app.base, t.organisation_id
    ))
    .await
    .unwrap();
    soon(&c, Locator::Id("max_pending_batches")).await.unwrap();
    check("30-console-organisation-limits").await;

    // Signing out ends the session: the queue asks to sign in again.
    c.goto(&format!("{}/console/", app.base)).await.unwrap();
    c.find(Locator::XPath("//button[text()='Sign out']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    soon(&c, Locator::Css("form[action='/console/sign-in']"))
        .await
        .unwrap();
    c.goto(&format!("{}/console/orders", app.base))
        .await
        .unwrap();
    soon(&c, Locator::Css("form[action='/console/sign-in']"))
        .await
        .unwrap();
    c.close().await.unwrap();
}
