//! A member's API keys (shown once, revoked) and a failing webhook replayed
//! after the fix, none of it visible to another organisation.

use std::time::Duration;

use super::fixtures::shown_secret;
use crate::console::{PASSWORD, Visitor, ada_of_acme_and_bob_of_rival};
use crate::support::{Tenant, TestApp};
use crate::webhooks::{Behaviour, Receiver, verify_all, wait_for};

/// The organisation's key whose secret that is, as the accounts service lists it.
async fn listed_key(
    app: &TestApp,
    tenant: &Tenant,
    secret: &str,
) -> Option<tonne_accounts::ApiKey> {
    app.services
        .accounts
        .list_keys(tenant.organisation_id.parse().unwrap())
        .await
        .unwrap()
        .into_iter()
        .find(|k| secret.starts_with(&k.display_prefix))
}

pub(super) async fn a_member_manages_keys_and_replays_a_failing_webhook_and_sees_nothing_of_another_organisation(
    app: TestApp,
) {
    app.demo_catalogue().await;
    let (acme, _rival, ada) = ada_of_acme_and_bob_of_rival(&app).await;
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
    let used = listed_key(&app, &acme, &secret)
        .await
        .and_then(|k| k.last_used_at);
    assert!(used.is_some(), "the key's use is recorded");
    assert!(
        listed.html.contains(":00 UTC</td>"),
        "Last used, to the hour"
    );
    let key_id = listed_key(&app, &acme, &secret)
        .await
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
    let hook =
        crate::webhooks::post_webhook(&app, &acme.live_key, &format!("{}/hook", rx.base)).await;
    let hook_id = hook.body["id"].as_str().unwrap().to_owned();
    let before = time::OffsetDateTime::now_utc() - time::Duration::minutes(1);
    let order = app.order_tonnes(&acme.live_key, "1").await;
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
