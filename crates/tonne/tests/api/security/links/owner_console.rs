//! The owner sets a link's limits in the console, and the hosted page keeps
//! to them; another organisation cannot change them.

use super::fixtures::{Customer, scarce_bundle, stock};
use crate::console::test_mode_form;
use crate::support::TestApp;

/// A member of the organisation, signed in to the console.
async fn owner<'a>(
    app: &'a TestApp,
    email: &str,
    organisation: &str,
) -> crate::console::Visitor<'a> {
    let password = "limits are set by owners";
    app.services
        .users
        .create(
            tonne_accounts::users::NewUser {
                email: email.parse().unwrap(),
                role: tonne_accounts::users::Role::Member(organisation.parse().unwrap()),
            },
            Some(tonne_accounts::users::Password::new(password).unwrap()),
            &tonne_kernel::Actor::CommandLine,
        )
        .await
        .unwrap();
    let mut visitor = crate::console::Visitor::new(app);
    visitor.sign_in(email, password).await;
    visitor
}

/// The owner's console creates the link "Owned" of `bundle`, taking at most
/// `order_tonnes` per order.
async fn create_owned(
    owner: &crate::console::Visitor<'_>,
    csrf: &str,
    account: &str,
    bundle: &str,
    order_tonnes: &str,
) -> crate::console::Page {
    owner
        .post_test_mode(
            "/console/offset-links",
            csrf,
            account,
            &[
                ("name", "Owned"),
                ("bundles", bundle),
                ("order_tonnes", order_tonnes),
            ],
        )
        .await
}

pub(super) async fn the_owner_sets_the_limits_in_the_console_and_the_page_keeps_to_them(
    app: TestApp,
) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let rival = app.tenant().await;
    let bundle = scarce_bundle(&app, &t.test_key).await;
    let account = t.test_account.clone();
    let ada = owner(&app, "ada@acme.example", &t.organisation_id).await;
    let list = ada
        .get(&format!(
            "/console/offset-links?mode=test&account={account}"
        ))
        .await;
    let csrf = list.csrf();
    assert!(
        list.html.contains("Most tonnes per order"),
        "the form has the limits"
    );
    // created with a limit above the server's ceiling (1,000 t): refused beside it
    let refused = create_owned(&ada, &csrf, &account, &bundle, "1000.5").await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.html.contains("id=\"link-order_tonnes-error\""),
        "{}",
        refused.html
    );
    let made = create_owned(&ada, &csrf, &account, &bundle, "0.5").await;
    assert_eq!(made.status, 303, "{}", made.html);
    let links = app.get("/v1/offset-links", &t.test_key).await;
    let id = links.body["data"][0]["id"].as_str().unwrap().to_owned();
    let c = Customer::arrive(&app, &id, &bundle).await;
    let over = c.order("1", "own1").await;
    assert_eq!(over.status, 400);
    assert!(
        over.html.contains("at most 0.5 t per order"),
        "{}",
        over.html
    );

    // the link's page: its limits, changed by the owner (a bad value refused beside it)
    let path = format!("/console/offset-links/{id}/limits");
    let bad = ada
        .post_test_mode(&path, &csrf, &account, &[("visitor_daily_orders", "0")])
        .await;
    assert_eq!(bad.status, 400);
    assert!(
        bad.html.contains("id=\"link-visitor_daily_orders-error\""),
        "{}",
        bad.html
    );
    let form = test_mode_form(
        &csrf,
        &account,
        &[("order_tonnes", "2"), ("visitor_daily_orders", "1")],
    );
    let saved = ada.post(&path, &form).await;
    assert_eq!(saved.status, 303, "{}", saved.html);
    let page = ada.get(saved.location.as_deref().unwrap()).await;
    assert!(
        page.html.contains("1 orders per visitor address per day"),
        "{}",
        page.html
    );
    assert_eq!(c.order("1", "own2").await.status, 200, "1 t now within 2 t");
    assert_eq!(
        c.order("1", "own3").await.status,
        429,
        "one order per visitor"
    );
    assert_eq!(stock(&app, &t.test_key, &bundle).await, "499");

    // another organisation's member cannot change them; the change is audited
    let bob = owner(&app, "bob@rival.example", &rival.organisation_id).await;
    let bob_csrf = bob.get("/console/").await.csrf();
    let poke = bob
        .post_test_mode(&path, &bob_csrf, &account, &[("order_tonnes", "1000")])
        .await;
    assert_eq!(poke.status, 404);
    let forged = ada.post(&path, &form[1..]).await;
    assert_eq!(forged.status, 403, "no CSRF token");
    let log = crate::console::audit_of(&app, &id).await;
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        ["offset_link.limits_changed", "offset_link.created"]
    );
}
