//! A member's keys and webhooks, and nothing of another organisation.

mod fixtures;
mod keys_and_replay;
mod webhook_settings;

use serde_json::json;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, member};
use crate::support::TestApp;
use keys_and_replay::a_member_manages_keys_and_replays_a_failing_webhook_and_sees_nothing_of_another_organisation;
use webhook_settings::a_member_adds_edits_rotates_and_deletes_a_webhook_and_each_change_is_audited;

async fn a_member_reads_each_accounts_estimates_with_their_explanations_and_no_one_elses(
    app: TestApp,
) {
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    let estimate = |key: &str, client: Option<&str>| {
        let mut req = app
            .request(
                reqwest::Method::POST,
                "/v1/estimates/electricity",
                Some(key),
            )
            .json(&json!({"consumption": {"amount": "2", "unit": "MWh"}, "country_code": "GBR"}));
        if let Some(client) = client {
            req = req.header("Lune-Account", client);
        }
        let app = &app;
        async move {
            let r = app.send(req).await;
            assert_eq!(r.status, 200, "{}", r.body);
            r.body["id"].as_str().unwrap().to_owned()
        }
    };
    let mine = estimate(&acme.live_key, None).await;
    let client = app
        .post(
            "/v1/accounts/client",
            &acme.live_key,
            &json!({"name": "Merchant Y", "currency": "GBP"}),
        )
        .await;
    assert_eq!(client.status, 200, "{}", client.body);
    let client_id = client.body["id"].as_str().unwrap().to_owned();
    let for_client = estimate(&acme.live_key, Some(&client_id)).await;
    let theirs = estimate(&rival.live_key, None).await;

    member(&app, "ada@acme.example", &acme.organisation_id).await;
    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let list = ada.get("/console/estimates").await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains(&mine) && !list.html.contains(&for_client));
    assert!(list.html.contains("Merchant Y (client account)"));
    let clients = ada
        .get(&format!("/console/estimates?mode=live&account={client_id}"))
        .await;
    assert!(clients.html.contains(&for_client) && !clients.html.contains(&mine));

    // One estimate, explained: its parts, factors and their sources.
    let live = acme.live_account.clone();
    let page = ada
        .get(&format!(
            "/console/estimates/{mine}?mode=live&account={live}"
        ))
        .await;
    assert_eq!(page.status, 200);
    let body = app
        .get(&format!("/v1/estimates/electricity/{mine}"), &acme.live_key)
        .await;
    let tonnes = body.body["mass"]["amount"].as_str().unwrap().to_owned();
    assert!(
        page.html.contains(&format!("{tonnes} t")),
        "the mass, {tonnes} t"
    );
    assert!(page.html.contains("How it was computed") && page.html.contains("Factors of"));

    // Another organisation's estimate or account: 404, as is an operator.
    let not_mine = ada
        .get(&format!(
            "/console/estimates/{theirs}?mode=live&account={live}"
        ))
        .await;
    assert_eq!(not_mine.status, 404);
    let rival_account = rival.live_account.clone();
    let other_account = ada
        .get(&format!(
            "/console/estimates?mode=live&account={rival_account}"
        ))
        .await;
    assert_eq!(other_account.status, 404);
    super::operator(&app, "op@example.org").await;
    let mut op = Visitor::new(&app);
    op.sign_in("op@example.org", PASSWORD).await;
    assert_eq!(op.get("/console/estimates").await.status, 404);
}

async fn a_member_follows_each_accounts_offset_links_and_their_analytics(app: TestApp) {
    app.demo_catalogue().await;
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    let link = |key: String, name: &'static str| {
        let app = &app;
        async move {
            let bundles = app.bundle_ids(&key).await;
            let body = json!({"name": name, "bundles": [bundles[0]], "value": "12.50", "use_logo": false, "require_payment": false});
            let res = app.post("/v1/offset-links", &key, &body).await;
            assert_eq!(res.status, 200, "{}", res.body);
            res.body["id"].as_str().unwrap().to_owned()
        }
    };
    let mine = link(acme.test_key.clone(), "Checkout").await;
    let theirs = link(rival.test_key.clone(), "Their checkout").await;
    // one visitor on the hosted page
    let visit = app.fetch(&format!("/l/{mine}"), None).await;
    assert_eq!(visit.status(), 200);

    member(&app, "ada@acme.example", &acme.organisation_id).await;
    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    assert!(ada.get("/console/").await.html.contains(">Offset links<"));
    let list = ada.get("/console/offset-links?mode=test").await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains("Checkout") && list.html.contains(&mine));
    assert!(!list.html.contains("Their checkout"));
    let account = acme.test_account.clone();
    let page = ada
        .get(&format!(
            "/console/offset-links/{mine}?mode=test&account={account}"
        ))
        .await;
    assert_eq!(page.status, 200);
    assert!(page.html.contains("<svg"), "the analytics chart");
    assert!(
        page.html
            .contains("Unique visitors (per day)</dt><dd>1</dd>"),
        "{}",
        page.html
    );
    let not_mine = ada
        .get(&format!(
            "/console/offset-links/{theirs}?mode=test&account={account}"
        ))
        .await;
    assert_eq!(not_mine.status, 404);
    let rival_account = rival.test_account.clone();
    assert_eq!(
        ada.get(&format!(
            "/console/offset-links?mode=test&account={rival_account}"
        ))
        .await
        .status,
        404
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_member_manages_keys_and_replays_a_failing_webhook_and_sees_nothing_of_another_organisation,
    a_member_adds_edits_rotates_and_deletes_a_webhook_and_each_change_is_audited,
    a_member_reads_each_accounts_estimates_with_their_explanations_and_no_one_elses,
    a_member_follows_each_accounts_offset_links_and_their_analytics,
);
