//! A member creates offset links from the console and switches them off and
//! on: the links domain's use cases, validated beside each field, audited.

use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, audit_of, member, test_mode_form};
use crate::support::TestApp;

async fn a_member_creates_an_offset_link_and_switches_it_off_and_on(app: TestApp) {
    app.demo_catalogue().await;
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    member(&app, "ada@acme.example", &acme.organisation_id).await;
    member(&app, "bob@rival.example", &rival.organisation_id).await;
    let bundles = app.bundle_ids(&acme.test_key).await;
    let account = acme.test_account.clone();
    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let list = ada
        .get(&format!(
            "/console/offset-links?mode=test&account={account}"
        ))
        .await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains("Create offset link"));
    assert!(
        list.html.contains(&format!("value=\"{}\"", bundles[0])),
        "the form offers the bundles on sale"
    );
    let csrf = list.csrf();
    let links = || async {
        app.get("/v1/offset-links", &acme.test_key).await.body["data"]
            .as_array()
            .unwrap()
            .clone()
    };

    // No bundle: refused beside the bundles, what was typed kept, nothing written.
    let refused = ada
        .post_test_mode(
            "/console/offset-links",
            &csrf,
            &account,
            &[("name", "Checkout <b>"), ("value", "12.50")],
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(refused.html.contains("id=\"link-bundles-error\""));
    assert!(refused.html.contains("Checkout &lt;b&gt;"));
    // A value that is not an amount: refused beside the value.
    let bad_value = ada
        .post_test_mode(
            "/console/offset-links",
            &csrf,
            &account,
            &[
                ("name", "Checkout"),
                ("bundles", &bundles[0]),
                ("value", "lots"),
            ],
        )
        .await;
    assert_eq!(bad_value.status, 400);
    assert!(bad_value.html.contains("id=\"link-value-error\""));
    assert!(links().await.is_empty());
    // Without the token: 403; for another organisation's account: 404.
    let forged = ada
        .post(
            "/console/offset-links",
            &[("mode", "test"), ("account", &account), ("name", "X")],
        )
        .await;
    assert_eq!(forged.status, 403);
    let elsewhere = ada
        .post_test_mode(
            "/console/offset-links",
            &csrf,
            &rival.test_account,
            &[("name", "Mine"), ("bundles", &bundles[0])],
        )
        .await;
    assert_eq!(elsewhere.status, 404);
    assert!(links().await.is_empty());

    // Created with two bundles; a second submit of the same form makes no second link.
    let form = test_mode_form(
        &csrf,
        &account,
        &[
            ("name", "Checkout"),
            ("title", "Offset your order"),
            ("bundles", bundles[0].as_str()),
            ("bundles", bundles[1].as_str()),
            ("value", "12.50"),
        ],
    );
    let made = ada.post("/console/offset-links", &form).await;
    assert_eq!(made.status, 303, "{}", made.html);
    let again = ada.post("/console/offset-links", &form).await;
    assert_eq!(again.status, 400);
    assert!(
        again
            .html
            .contains("Another offset link of this account has this name.")
    );
    let stored = links().await;
    assert_eq!(stored.len(), 1);
    let id = stored[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(stored[0]["title"], "Offset your order");
    assert_eq!(stored[0]["bundles"].as_array().unwrap().len(), 2);
    assert_eq!(stored[0]["value"], "12.50");
    let location = made.location.unwrap();
    assert!(location.contains(&id));
    let page = ada.get(&location).await;
    assert_eq!(page.status, 200);
    assert!(page.html.contains("Switch the link off"));

    // Switched off: the hosted page says so; then on again.
    let switch = format!("/console/offset-links/{id}/switch");
    let off = ada
        .post_test_mode(&switch, &csrf, &account, &[("on", "false")])
        .await;
    assert_eq!(off.status, 303);
    let api = app
        .get(&format!("/v1/offset-links/{id}"), &acme.test_key)
        .await;
    assert_eq!(api.body["status"], "disabled", "{}", api.body);
    let hosted = app.fetch(&format!("/l/{id}"), None).await;
    assert_eq!(hosted.status(), 410);
    // another organisation's member cannot switch it
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let bob_csrf = bob.get("/console/").await.csrf();
    let poke = bob
        .post_test_mode(&switch, &bob_csrf, &account, &[("on", "true")])
        .await;
    assert_eq!(poke.status, 404);
    let on = ada
        .post_test_mode(&switch, &csrf, &account, &[("on", "true")])
        .await;
    assert_eq!(on.status, 303);
    let api = app
        .get(&format!("/v1/offset-links/{id}"), &acme.test_key)
        .await;
    assert_eq!(api.body["status"], "enabled");

    // Audited as the member's, newest first.
    let log = audit_of(&app, &id).await;
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "offset_link.enabled",
            "offset_link.disabled",
            "offset_link.created"
        ]
    );
    assert!(
        log.iter()
            .all(|e| e.actor == tonne_kernel::Actor::person("ada@acme.example"))
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_member_creates_an_offset_link_and_switches_it_off_and_on,
);
