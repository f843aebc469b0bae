//! A member sends a webhook a test event and reads the receiver's answer.

use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, member};
use crate::support::TestApp;
use crate::webhooks::{Behaviour, Receiver, post_webhook, verify_all};

async fn a_member_sends_a_test_event_and_reads_the_receivers_answer(app: TestApp) {
    let acme = app.tenant().await;
    let rival = app.tenant().await;
    member(&app, "ada@acme.example", &acme.organisation_id).await;
    member(&app, "bob@rival.example", &rival.organisation_id).await;
    let rx = Receiver::start(Behaviour::Status(204));
    // a disabled webhook still gets its test event
    let made = post_webhook(&app, &acme.test_key, &format!("{}/hook", rx.base)).await;
    let id = made.body["id"].as_str().unwrap().to_owned();
    let secret = made.body["secret"].as_str().unwrap().to_owned();
    let off = app
        .put(
            &format!("/v1/webhooks/{id}"),
            &acme.test_key,
            &json!({ "url": format!("{}/hook", rx.base), "enabled": false }),
        )
        .await;
    assert_eq!(off.status, 200, "{}", off.body);

    let mut ada = Visitor::new(&app);
    ada.sign_in("ada@acme.example", PASSWORD).await;
    let here = format!("/console/webhooks/{id}");
    let page = ada.get(&format!("{here}?mode=test")).await;
    assert_eq!(page.status, 200);
    assert!(page.html.contains("Send test event"));
    assert!(
        page.html.contains(&acme.test_account),
        "the form offers the webhook's accounts"
    );
    let csrf = page.csrf();
    let test = format!("{here}/test");

    // Without the session's token: 403 and nothing sent.
    let forged = ada
        .post(&test, &[("mode", "test"), ("account", &acme.test_account)])
        .await;
    assert_eq!(forged.status, 403);
    // An account the webhook does not send events for (the live one): 400, nothing sent.
    let wrong = ada
        .post_test_mode(&test, &csrf, &acme.live_account, &[])
        .await;
    assert_eq!(wrong.status, 400);
    assert!(
        wrong
            .html
            .contains("For account: this webhook sends no events")
    );
    // Another organisation's member: 404, nothing sent.
    let mut bob = Visitor::new(&app);
    bob.sign_in("bob@rival.example", PASSWORD).await;
    let bob_csrf = bob.get("/console/").await.csrf();
    let poke = bob
        .post_test_mode(&test, &bob_csrf, &acme.test_account, &[])
        .await;
    assert_eq!(poke.status, 404);
    assert!(rx.received().is_empty(), "nothing was sent so far");

    // Sent: one signed request, the answer on the page.
    let sent = ada
        .post_test_mode(&test, &csrf, &acme.test_account, &[])
        .await;
    assert_eq!(sent.status, 200, "{}", sent.html);
    assert!(
        sent.html
            .contains("The receiver acknowledged the test event: HTTP 204"),
        "{}",
        sent.html
    );
    let got = rx.received();
    assert_eq!(got.len(), 1);
    verify_all(&got, &secret);
    let body: Value = serde_json::from_slice(&got[0].body).unwrap();
    let event = &body["events"][0];
    assert_eq!(event["event_type"], tonne_webhooks::TEST_EVENT_TYPE);
    assert_eq!(event["account_id"], acme.test_account.as_str());
    assert_eq!(event["data"]["webhook_id"], id.as_str());
    assert!(event["event_id"].as_str().unwrap().starts_with("test_"));
    assert!(sent.html.contains(event["event_id"].as_str().unwrap()));

    // A receiver that refuses it: the status and the first bytes of its answer.
    rx.set(Behaviour::Status(500));
    let refused = ada
        .post_test_mode(&test, &csrf, &acme.test_account, &[])
        .await;
    assert_eq!(refused.status, 200);
    assert!(
        refused
            .html
            .contains("The receiver did not acknowledge the test event: HTTP 500")
    );
    assert!(refused.html.contains("receiver answered 500"));

    // Test events are not deliveries: the log and the webhook's state are unchanged.
    let now = app.get(&format!("/v1/webhooks/{id}"), &acme.test_key).await;
    assert_eq!(now.body["enabled"], false);
    assert!(
        app.services
            .webhooks
            .attempts(
                tonne_webhooks::Owner {
                    organisation_id: acme.organisation_id.parse().unwrap(),
                    mode: tonne_kernel::AccountMode::Test,
                },
                &id,
                tonne_kernel::PageRequest::first(),
            )
            .await
            .unwrap()
            .items
            .is_empty()
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_member_sends_a_test_event_and_reads_the_receivers_answer,
);
