//! An operator fulfils a live order in the console.

use std::time::Duration;

use fantoccini::Locator;

use super::kit::*;
use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_fulfils_a_live_order_in_the_console_in_a_real_browser() {
    let Some(kit) = start().await else {
        return;
    };
    let app = TestApp::spawn(tonne_test_support::TestDb::sqlite()).await;
    app.demo_catalogue().await;
    let t = app.tenant().await;
    // A webhook whose receiver is gone: the operator's webhooks page shows it.
    let rx = crate::webhooks::Receiver::start(crate::webhooks::Behaviour::Status(500));
    let hook = crate::webhooks::post_webhook(&app, &t.live_key, &format!("{}/hook", rx.base)).await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    let order = app.order_tonnes(&t.live_key, "4").await;
    let id = order.body["id"].as_str().unwrap().to_owned();
    crate::console::operator(&app, "operator@example.org").await;
    let s = kit.open(&app.base).await;
    let sign_in_form = || Locator::Css("form[action='/console/sign-in']");

    // Signed out, the console sends a visitor to sign in.
    s.visit("/console/orders").await;
    s.wait(sign_in_form()).await;
    s.check("07-console-sign-in").await;
    s.enter_credentials("operator@example.org", "wrong horse battery")
        .await;
    s.wait(Locator::Css("p.error")).await;
    assert!(s.text().await.contains("The email or password is wrong."));
    s.check("08-console-sign-in-refused").await;
    s.fill(Locator::Id("password"), "correct horse battery")
        .await;
    s.press("Sign in").await;
    s.wait(Locator::LinkText("Orders")).await;
    assert!(s.text().await.contains("Signed in as operator@example.org"));
    s.check("09-console-overview").await;

    // The queue shows the live order; its page has the actions.
    s.click(Locator::LinkText("Orders")).await;
    s.wait(Locator::LinkText(&id)).await;
    s.check("10-console-orders").await;
    s.click(Locator::LinkText(&id)).await;
    s.wait(Locator::XPath("//button[text()='Mark paid']")).await;
    s.check("11-console-order-received").await;
    s.press("Mark paid").await;
    s.wait(Locator::Id("serial")).await;
    s.fill(Locator::Id("serial"), "GS-4471-2026").await;
    s.check("12-console-order-paid").await;
    s.press("Start retirement").await;
    s.wait(Locator::XPath("//button[text()='Complete']")).await;
    s.press("Complete").await;
    s.wait(Locator::LinkText("Certificate")).await;
    let shown = s.text().await;
    assert!(shown.contains("GS-4471-2026-1"), "{shown}");
    s.check("13-console-order-complete").await;
    s.click(Locator::LinkText("Certificate")).await;
    s.wait(Locator::Css("table")).await;
    assert!(s.text().await.contains("GS-4471-2026-1"));

    // Organisations: create one (its keys shown once) and invite a member.
    s.visit("/console/organisations").await;
    s.wait(Locator::Id("name")).await;
    s.check("19-console-organisations").await;
    s.fill(Locator::Id("name"), "Initech").await;
    s.press("Create organisation").await;
    s.wait(Locator::Id("live-key")).await;
    s.check("20-console-organisation-created").await;
    s.click(Locator::LinkText("Go to the organisation")).await;
    s.wait(Locator::Id("email")).await;
    s.check("21-console-organisation").await;
    s.fill(Locator::Id("email"), "milton@initech.example").await;
    s.press("Invite member").await;
    s.wait(Locator::Id("link")).await;
    s.check("22-console-member-invited").await;
    // An account's default selection, from the organisation's page.
    s.back().await.unwrap();
    s.wait(Locator::Id("email")).await;
    s.click(Locator::XPath(
        "(//a[starts-with(normalize-space(.), 'Change')])[1]",
    ))
    .await;
    s.wait(Locator::XPath("//button[text()='Save selection']"))
        .await;
    s.check("22b-console-account-selection").await;

    // The audit log: what this operator just did, newest first, by the nav.
    s.click(Locator::LinkText("Audit log")).await;
    s.wait(Locator::Id("actor")).await;
    let shown = s.text().await;
    for action in ["user.created", "organisation.created", "order.complete"] {
        assert!(
            shown.contains(action),
            "the audit log shows {action}: {shown}"
        );
    }
    assert!(shown.contains("GS-4471-2026-1"), "the serial, as recorded");
    s.check("23-console-audit-log").await;
    s.fill(Locator::Id("action"), "order.").await;
    s.press("Filter").await;
    s.wait(Locator::Css("input#action[value='order.']")).await;
    let filtered = s.text().await;
    assert!(filtered.contains("order.paid") && !filtered.contains("organisation.created"));

    // The catalogue: add stock with a reason; the ledger shows it.
    s.click(Locator::LinkText("Catalogue")).await;
    s.wait(Locator::LinkText("Direct Air Capture"))
        .await
        .click()
        .await
        .unwrap();
    s.wait(Locator::Id("quantity")).await;
    s.check("24-console-bundle").await;
    s.fill(Locator::Id("quantity"), "25").await;
    s.fill(Locator::Id("reason"), "Bought 25 t from the registry")
        .await;
    s.press("Change stock").await;
    s.wait(Locator::XPath(
        "//td[text()='Bought 25 t from the registry']",
    ))
    .await;
    s.check("25-console-bundle-stock-changed").await;
    s.visit("/console/catalogue").await;
    s.wait(Locator::Css("table")).await;
    s.check("26-console-catalogue").await;

    // Webhooks across the installation: health, then one webhook's page.
    crate::webhooks::wait_for("a failed attempt", Duration::from_secs(30), || {
        !rx.received().is_empty()
    })
    .await;
    s.click(Locator::LinkText("Webhooks")).await;
    s.wait(Locator::Css("table")).await;
    s.check("27-console-installation-webhooks").await;
    s.visit(&format!("/console/webhooks/{hook_id}")).await;
    s.wait(Locator::XPath("//button[text()='Skip undelivered events']"))
        .await;
    assert!(s.text().await.contains("HTTP 500"));
    s.check("28-console-installation-webhook").await;

    // Limits per account: every organisation's usage, and one's form.
    s.visit("/console/limits").await;
    s.wait(Locator::Css("table")).await;
    s.check("29-console-limits").await;
    s.visit(&format!("/console/limits/{}", t.organisation_id))
        .await;
    s.wait(Locator::Id("max_pending_batches")).await;
    s.check("30-console-organisation-limits").await;

    // Signing out ends the session: the queue asks to sign in again.
    s.visit("/console/").await;
    s.press("Sign out").await;
    s.wait(sign_in_form()).await;
    s.visit("/console/orders").await;
    s.wait(sign_in_form()).await;
    s.close().await;
}
