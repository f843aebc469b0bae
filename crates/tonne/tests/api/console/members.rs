//! A member's keys and webhooks, and nothing of another organisation.

use std::time::Duration;

use serde_json::json;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, audit_of, member};
use crate::support::TestApp;
use crate::webhooks::{Behaviour, Receiver, verify_all, wait_for};

/// The value of the read-only `secret` field of the created-key page.
fn shown_secret(html: &str) -> String {
    let at = html.find(r#"id="secret""#).expect("the secret field");
    let rest = &html[at..];
    let v = rest.find("value=\"").unwrap() + "value=\"".len();
    rest[v..v + rest[v..].find('"').unwrap()].to_owned()
}

async fn a_member_manages_keys_and_replays_a_failing_webhook_and_sees_nothing_of_another_organisation(
    app: TestApp,
) {
    app.demo_catalogue().await;
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    member(&app, "ada@acme.example", &acme.organisation_id).await;
    member(&app, "bob@rival.example", &rival.organisation_id).await;
    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let overview = ada.get("/console/").await;
    for nav in [">Overview<", ">API keys<", ">Webhooks<"] {
        assert!(overview.html.contains(nav), "{nav}");
    }

    // API keys: create (shown once, works on the API), revoke (then refused).
    let keys = ada.get("/console/keys?mode=test").await;
    assert_eq!(keys.status, 200);
    let csrf = keys.csrf();
    assert_eq!(
        ada.post("/console/keys", &[("mode", "test")]).await.status,
        403
    );
    let created = ada
        .post("/console/keys", &[("csrf", &csrf), ("mode", "test")])
        .await;
    assert_eq!(created.status, 200);
    let secret = shown_secret(&created.html);
    assert!(secret.starts_with("tonne_test_"), "{secret}");
    assert_eq!(app.get("/v1/accounts/me", &secret).await.status, 200);
    let listed = ada.get("/console/keys?mode=test").await;
    assert!(
        !listed.html.contains(&secret),
        "the secret is shown once only"
    );
    let prefix = &secret[..15];
    assert!(listed.html.contains(prefix));
    // used once on the API: its last use shows, to the hour
    let used = app
        .services
        .accounts
        .list_keys(acme.organisation_id.parse().unwrap())
        .await
        .unwrap()
        .into_iter()
        .find(|k| secret.starts_with(&k.display_prefix))
        .and_then(|k| k.last_used_at);
    assert!(used.is_some(), "the key's use is recorded");
    assert!(
        listed.html.contains(":00 UTC</td>"),
        "Last used, to the hour"
    );
    let key_id = app
        .services
        .accounts
        .list_keys(acme.organisation_id.parse().unwrap())
        .await
        .unwrap()
        .into_iter()
        .find(|k| secret.starts_with(&k.display_prefix))
        .map(|k| k.id.to_string())
        .unwrap();
    // Bob cannot revoke Acme's key (404), Ada can.
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let bob_csrf = bob.get("/console/").await.csrf();
    let poke = bob
        .post(
            &format!("/console/keys/{key_id}/revoke"),
            &[("csrf", &bob_csrf)],
        )
        .await;
    assert_eq!(poke.status, 404);
    assert!(
        !bob.get("/console/keys?mode=test")
            .await
            .html
            .contains(prefix)
    );
    let revoked = ada
        .post(
            &format!("/console/keys/{key_id}/revoke"),
            &[("csrf", &csrf)],
        )
        .await;
    assert_eq!(revoked.status, 303);
    tokio::time::sleep(Duration::from_millis(1_200)).await; // the key cache's TTL in tests
    assert_eq!(app.get("/v1/accounts/me", &secret).await.status, 401);

    // Webhooks: a receiver that fails, its attempts in the log, then fixed and replayed.
    let rx = Receiver::start(Behaviour::Status(500));
    let hook = app
        .post(
            "/v1/webhooks",
            &acme.live_key,
            &json!({ "url": format!("{}/hook", rx.base) }),
        )
        .await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    let before = time::OffsetDateTime::now_utc() - time::Duration::minutes(1);
    let order = app
        .post(
            "/v1/orders/by-mass",
            &acme.live_key,
            &json!({ "mass": { "amount": "1", "unit": "t" } }),
        )
        .await;
    assert_eq!(order.status, 200);
    wait_for("a failed attempt", Duration::from_secs(30), || {
        !rx.received().is_empty()
    })
    .await;
    // Orders: Ada sees Acme's, read-only; Bob sees none of them.
    let order_id = order.body["id"].as_str().unwrap();
    assert!(ada.get("/console/orders").await.html.contains(order_id));
    let ada_order = ada.get(&format!("/console/orders/{order_id}")).await;
    assert_eq!(ada_order.status, 200);
    assert!(
        !ada_order.html.contains("Mark paid"),
        "members see no actions"
    );
    assert!(!bob.get("/console/orders").await.html.contains(order_id));
    assert_eq!(
        bob.get(&format!("/console/orders/{order_id}")).await.status,
        404
    );
    let list = ada.get("/console/webhooks").await;
    assert!(
        list.html
            .contains(&format!("/console/webhooks/{hook_id}?mode=live"))
    );
    let page_path = format!("/console/webhooks/{hook_id}?mode=live");
    let mut log = ada.get(&page_path).await;
    for _ in 0..50 {
        if log.html.contains("HTTP 500") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        log = ada.get(&page_path).await;
    }
    assert!(
        log.html.contains("HTTP 500"),
        "the failed attempt is in the log"
    );
    assert!(log.html.contains("failed"));
    assert!(
        log.html.contains("receiver answered 500"),
        "the first bytes of the receiver's answer"
    );
    // Another organisation's member sees none of it.
    assert_eq!(bob.get(&page_path).await.status, 404);
    assert!(!bob.get("/console/webhooks").await.html.contains(&hook_id));

    rx.set(Behaviour::Status(200));
    let csrf = log.csrf();
    let recover = format!("/console/webhooks/{hook_id}/recover");
    let bad = ada
        .post(
            &recover,
            &[("csrf", &csrf), ("mode", "live"), ("since", "soon")],
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("From: give a date and time"));
    let since = before
        .format(time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]"
        ))
        .unwrap();
    let bob_try = bob
        .post(
            &recover,
            &[("csrf", &bob_csrf), ("mode", "live"), ("since", &since)],
        )
        .await;
    assert_eq!(bob_try.status, 404);
    let replay = ada
        .post(
            &recover,
            &[("csrf", &csrf), ("mode", "live"), ("since", &since)],
        )
        .await;
    assert_eq!(replay.status, 303, "{}", replay.html);
    assert!(replay.location.as_deref().unwrap().contains("recovered="));
    wait_for("a delivery after the fix", Duration::from_secs(30), || {
        rx.received().len() >= 2 && rx.events("/hook").iter().any(|e| e.1 == 1)
    })
    .await;
    verify_all(&rx.received(), hook.body["secret"].as_str().unwrap());
}

/// The webhook id in the "Go to the webhook" link of the secret page.
fn webhook_link(html: &str) -> String {
    let at = html
        .find("/console/webhooks/")
        .expect("a link to the webhook")
        + "/console/webhooks/".len();
    html[at..at + 32].to_owned()
}

async fn a_member_adds_edits_rotates_and_deletes_a_webhook_and_each_change_is_audited(
    app: TestApp,
) {
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    member(&app, "ada@acme.example", &acme.organisation_id).await;
    member(&app, "bob@rival.example", &rival.organisation_id).await;
    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let list = ada.get("/console/webhooks?mode=live").await;
    let csrf = list.csrf();

    // Refused with the reason beside the form, and nothing stored.
    let refused = ada
        .post(
            "/console/webhooks",
            &[
                ("csrf", &csrf),
                ("mode", "live"),
                ("url", "https://user:pw@hooks.example.com/x"),
            ],
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(refused.html.contains("Receiver URL:"), "{}", refused.html);
    assert!(
        refused.html.contains("user:pw@hooks.example.com"),
        "the form keeps what was typed"
    );
    let none = app.get("/v1/webhooks", &acme.live_key).await;
    assert_eq!(none.body, json!([]));

    // Added: the secret is shown once and is the webhook's.
    let rx = Receiver::start(Behaviour::Status(200));
    let url = format!("{}/a", rx.base);
    let added = ada
        .post(
            "/console/webhooks",
            &[("csrf", &csrf), ("mode", "live"), ("url", &url)],
        )
        .await;
    assert_eq!(added.status, 200, "{}", added.html);
    let secret = shown_secret(&added.html);
    let id = webhook_link(&added.html);
    let stored = app.get(&format!("/v1/webhooks/{id}"), &acme.live_key).await;
    assert_eq!(stored.body["url"], url.as_str());
    assert!(
        secret.ends_with(
            stored.body["secret"]
                .as_str()
                .unwrap()
                .trim_start_matches('*')
        )
    );

    // The form offers every event type, all ticked; two ticked are those two,
    // none ticked is refused beside the form, nothing stored.
    assert!(
        list.html
            .contains(r#"name="event_type" value="order.completed" checked"#)
    );
    let chosen = ada
        .post(
            "/console/webhooks",
            &[
                ("csrf", &csrf),
                ("mode", "live"),
                ("url", &format!("{}/c", rx.base)),
                ("event_types_shown", "1"),
                ("event_type", "order.completed"),
                ("event_type", "order.cancelled"),
            ],
        )
        .await;
    assert_eq!(chosen.status, 200, "{}", chosen.html);
    let chosen_id = webhook_link(&chosen.html);
    let stored_chosen = app
        .get(&format!("/v1/webhooks/{chosen_id}"), &acme.live_key)
        .await;
    assert_eq!(
        stored_chosen.body["event_types"],
        json!(["order.completed", "order.cancelled"]),
        "{}",
        stored_chosen.body
    );
    let before = app.get("/v1/webhooks", &acme.live_key).await.body;
    let none_ticked = ada
        .post(
            "/console/webhooks",
            &[
                ("csrf", &csrf),
                ("mode", "live"),
                ("url", &format!("{}/d", rx.base)),
                ("event_types_shown", "1"),
            ],
        )
        .await;
    assert_eq!(none_ticked.status, 400);
    assert!(none_ticked.html.contains("Events:"), "{}", none_ticked.html);
    assert_eq!(app.get("/v1/webhooks", &acme.live_key).await.body, before);

    // Settings: a new URL, then disabled (the box unchecked).
    let here = format!("/console/webhooks/{id}");
    let moved = format!("{}/b", rx.base);
    let edit = ada
        .post(
            &format!("{here}/edit"),
            &[
                ("csrf", &csrf),
                ("mode", "live"),
                ("url", &moved),
                ("enabled", "true"),
            ],
        )
        .await;
    assert_eq!(edit.status, 303);
    let off = ada
        .post(
            &format!("{here}/edit"),
            &[("csrf", &csrf), ("mode", "live"), ("url", &moved)],
        )
        .await;
    assert_eq!(off.status, 303);
    let now = app.get(&format!("/v1/webhooks/{id}"), &acme.live_key).await;
    assert_eq!(
        (now.body["url"].clone(), now.body["enabled"].clone()),
        (json!(moved), json!(false))
    );

    // Rotate: a new secret, shown once, different from the first.
    let rotated = ada
        .post(
            &format!("{here}/rotate"),
            &[("csrf", &csrf), ("mode", "live")],
        )
        .await;
    assert_eq!(rotated.status, 200);
    assert_ne!(shown_secret(&rotated.html), secret);

    // Another organisation's member can do none of it.
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let bob_csrf = bob.get("/console/").await.csrf();
    for action in ["edit", "rotate", "delete"] {
        let poke = bob
            .post(
                &format!("{here}/{action}"),
                &[
                    ("csrf", &bob_csrf),
                    ("mode", "live"),
                    ("url", "https://evil.example/x"),
                ],
            )
            .await;
        assert_eq!(poke.status, 404, "{action}");
    }
    assert_eq!(
        app.get(&format!("/v1/webhooks/{id}"), &acme.live_key)
            .await
            .body["url"],
        moved.as_str()
    );

    // Delete: gone from the API.
    let gone = ada
        .post(
            &format!("{here}/delete"),
            &[("csrf", &csrf), ("mode", "live")],
        )
        .await;
    assert_eq!(gone.status, 303);
    assert_eq!(
        app.get(&format!("/v1/webhooks/{id}"), &acme.live_key)
            .await
            .status,
        404
    );

    // Each change is in the audit log, as the member's.
    let log = audit_of(&app, &id).await;
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "webhook.deleted",
            "webhook.secret_rotated",
            "webhook.updated",
            "webhook.updated",
            "webhook.created"
        ]
    );
    assert!(
        log.iter()
            .all(|e| e.actor == tonne_kernel::Actor::person("ada@acme.example"))
    );
    assert!(
        log.iter()
            .all(|e| e.after.fields().iter().all(|(_, v)| !v.contains(&secret))),
        "no secret in the log"
    );
}

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
    let visit = app
        .client
        .get(format!("{}/l/{mine}", app.base))
        .send()
        .await
        .unwrap();
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
