//! The console's isolation matrix: a member of one organisation, given every
//! console URL that names another organisation's object (and every operator
//! URL), gets 404 and changes nothing; their lists never show the other's
//! objects.

use serde_json::json;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, member};
use crate::support::TestApp;
use crate::webhooks::{Behaviour, Receiver};

async fn a_member_reaches_nothing_of_another_organisation_through_any_console_url(app: TestApp) {
    app.demo_catalogue().await;
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    // Acme's objects, one of each kind.
    let order = app.order_tonnes(&acme.live_key, "1").await;
    let order = order.body["id"].as_str().unwrap().to_owned();
    let rx = Receiver::start(Behaviour::Status(200));
    let hook_url = format!("{}/acme", rx.base);
    let hook = app
        .post("/v1/webhooks", &acme.live_key, &json!({ "url": hook_url }))
        .await;
    let hook = hook.body["id"].as_str().unwrap().to_owned();
    let estimate = app
        .post(
            "/v1/estimates/electricity",
            &acme.live_key,
            &json!({"consumption": {"amount": "1", "unit": "MWh"}, "country_code": "GBR"}),
        )
        .await;
    let estimate = estimate.body["id"].as_str().unwrap().to_owned();
    let bundles = app.bundle_ids(&acme.live_key).await;
    let link = app
        .post(
            "/v1/offset-links",
            &acme.live_key,
            &json!({"name": "Acme checkout", "bundles": [bundles[0]], "use_logo": false, "require_payment": false}),
        )
        .await;
    let link = link.body["id"].as_str().unwrap().to_owned();
    let keys = app
        .services
        .accounts
        .list_keys(acme.organisation_id.parse().unwrap())
        .await
        .unwrap();
    let key = keys[0].id.to_string();
    let account = acme.live_account.clone();
    let org = acme.organisation_id.clone();
    let bundle = &bundles[0];

    member(&app, "bob@rival.example", &rival.organisation_id).await;
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let csrf = bob.get("/console/").await.csrf();

    let reads = [
        format!("/console/orders/{order}"),
        format!("/console/webhooks/{hook}?mode=live"),
        format!("/console/estimates?mode=live&account={account}"),
        format!("/console/estimates/{estimate}?mode=live&account={account}"),
        format!("/console/estimates/{estimate}?mode=live"),
        format!("/console/offset-links?mode=live&account={account}"),
        format!("/console/offset-links/{link}?mode=live&account={account}"),
        format!("/console/offset-links/{link}?mode=live"),
        format!("/console/impact?mode=live&account={account}"),
        // the operator's pages
        "/console/catalogue".to_owned(),
        format!("/console/catalogue/{bundle}"),
        "/console/audit".to_owned(),
        "/console/organisations".to_owned(),
        format!("/console/organisations/{org}"),
    ];
    for path in &reads {
        assert_eq!(bob.get(path).await.status, 404, "GET {path}");
    }
    let writes: [(String, Vec<(&str, &str)>); 15] = [
        (
            format!("/console/orders/{order}/advance"),
            vec![("to", "cancelled")],
        ),
        (format!("/console/keys/{key}/revoke"), vec![]),
        (
            format!("/console/webhooks/{hook}/recover"),
            vec![("mode", "live"), ("since", "2026-01-01T00:00")],
        ),
        (
            format!("/console/webhooks/{hook}/edit"),
            vec![("mode", "live"), ("url", "https://evil.example/x")],
        ),
        (
            format!("/console/webhooks/{hook}/rotate"),
            vec![("mode", "live")],
        ),
        (
            format!("/console/webhooks/{hook}/delete"),
            vec![("mode", "live")],
        ),
        (
            format!("/console/webhooks/{hook}/test"),
            vec![("mode", "live"), ("account", account.as_str())],
        ),
        (format!("/console/webhooks/{hook}/skip"), vec![]),
        (format!("/console/webhooks/{hook}/enable"), vec![]),
        (
            format!("/console/catalogue/{bundle}/stock"),
            vec![("direction", "remove"), ("quantity", "1"), ("reason", "x")],
        ),
        (
            format!("/console/catalogue/{bundle}/state"),
            vec![("enabled", "false")],
        ),
        (
            format!("/console/catalogue/{bundle}/edit"),
            vec![("description", "x")],
        ),
        (
            "/console/organisations".to_owned(),
            vec![("name", "Mine now")],
        ),
        (
            format!("/console/organisations/{org}/members"),
            vec![("email", "eve@example.org")],
        ),
        (
            format!("/console/organisations/{org}/members"),
            vec![("email", "eve2@example.org")],
        ),
    ];
    for (path, fields) in &writes {
        let mut form = vec![("csrf", csrf.as_str())];
        form.extend(fields.iter().copied());
        assert_eq!(bob.post(path, &form).await.status, 404, "POST {path}");
    }

    // Nothing changed: the order, the webhook, the key, the stock.
    let o = app
        .get(&format!("/v1/orders/{order}"), &acme.live_key)
        .await;
    assert_eq!(o.body["status"], "received");
    let h = app
        .get(&format!("/v1/webhooks/{hook}"), &acme.live_key)
        .await;
    assert_eq!(h.body["url"], hook_url.as_str());
    assert_eq!(app.get("/v1/accounts/me", &acme.live_key).await.status, 200);
    assert!(
        app.services
            .audit
            .list(
                tonne_kernel::AuditFilter {
                    actor: Some("bob@rival.example".into()),
                    ..Default::default()
                },
                tonne_kernel::PageRequest::first(),
            )
            .await
            .unwrap()
            .items
            .is_empty(),
        "nothing recorded: nothing was done"
    );

    // Lists never show Acme's objects.
    for path in [
        "/console/orders?mode=live",
        "/console/webhooks?mode=live",
        "/console/keys?mode=live",
        "/console/estimates?mode=live",
        "/console/offset-links?mode=live",
        "/console/impact?mode=live",
    ] {
        let page = bob.get(path).await;
        assert_eq!(page.status, 200, "{path}");
        for theirs in [&order, &hook, &estimate, &link, &key, &account] {
            assert!(
                !page.html.contains(theirs.as_str()),
                "{path} shows {theirs}"
            );
        }
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_member_reaches_nothing_of_another_organisation_through_any_console_url,
);
