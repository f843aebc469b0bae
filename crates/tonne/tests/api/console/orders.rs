//! The operator fulfils a live order step by step; the member's webhook receiver gets every event, signed; the audit log has every step.

use std::time::Duration;

use tonne_kernel::Actor;
use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, audit_of, operator};
use crate::support::TestApp;
use crate::webhooks::{Behaviour, Receiver, verify_all, wait_for};

async fn an_operator_fulfils_a_live_order_and_the_members_webhook_gets_every_event(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let hook = crate::webhooks::post_webhook(&app, &t.live_key, &format!("{}/hook", rx.base)).await;
    assert_eq!(hook.status, 200, "{}", hook.body);
    let order = app.order_tonnes(&t.live_key, "3").await;
    assert_eq!(order.status, 200, "{}", order.body);
    let id = order.body["id"].as_str().unwrap().to_owned();

    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let queue = v.get("/console/orders").await;
    assert_eq!(queue.status, 200);
    assert!(queue.html.contains(&format!("/console/orders/{id}")));
    let mine = v
        .get(&format!(
            "/console/orders?organisation={}&status=received",
            t.organisation_id
        ))
        .await;
    assert!(mine.html.contains(&id));
    let other = v.get("/console/orders?status=paid").await;
    assert!(!other.html.contains(&id));
    let bad = v.get("/console/orders?status=complete").await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("choose one of the listed statuses"));

    let page = v.get(&format!("/console/orders/{id}")).await;
    assert_eq!(page.status, 200);
    let csrf = page.csrf();
    let advance = format!("/console/orders/{id}/advance");
    // Without the session's token nothing changes.
    assert_eq!(v.post(&advance, &[("to", "paid")]).await.status, 403);
    assert_eq!(
        v.post(&advance, &[("csrf", "x"), ("to", "paid")])
            .await
            .status,
        403
    );
    let order_path = format!("/v1/orders/{id}");
    let status = || async { app.get(&order_path, &t.live_key).await.body["status"].clone() };
    assert_eq!(status().await, "received");

    for (to, serial) in [
        ("paid", ""),
        ("paid", ""),
        ("retiring", "VCS-9001"),
        ("complete", ""),
    ] {
        let done = v
            .post(&advance, &[("csrf", &csrf), ("to", to), ("serial", serial)])
            .await;
        assert_eq!(done.status, 303, "{to}: {}", done.html);
    }
    let complete = app.get(&format!("/v1/orders/{id}"), &t.live_key).await;
    assert_eq!(complete.body["status"], "complete");
    assert!(
        complete.body["projects"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
    );
    // An action the state machine refuses changes nothing and says why.
    let late = v
        .post(&advance, &[("csrf", &csrf), ("to", "cancelled")])
        .await;
    assert_eq!(late.status, 409);
    assert!(
        late.html
            .contains("Nothing was changed: an order cannot go from complete to cancelled.")
    );
    assert_eq!(status().await, "complete");
    let certificate = app.text(&format!("/certificates/{id}")).await;
    assert!(
        certificate.contains("VCS-9001-1"),
        "the certificate shows the serials"
    );

    // The double "paid" submit acted once: received → placed → paid → retiring → complete.
    // (every webhook also receives the allocation events: counted apart)
    let order_kinds = |rx: &Receiver| -> Vec<String> {
        rx.events("/hook")
            .iter()
            .map(|e| e.3["event_type"].as_str().unwrap().to_owned())
            .filter(|t| t.starts_with("order."))
            .collect()
    };
    wait_for("five order events", Duration::from_secs(30), || {
        order_kinds(&rx).len() >= 5
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let kinds = order_kinds(&rx);
    assert_eq!(
        kinds,
        [
            "order.received",
            "order.placed",
            "order.paid",
            "order.retiring",
            "order.completed"
        ],
        "each step's event, once"
    );
    verify_all(&rx.received(), hook.body["secret"].as_str().unwrap());

    // Each step is in the audit log, by the operator, in the organisation, with
    // the status before and after; the refused cancellation is not.
    let log = audit_of(&app, &id).await;
    let steps: Vec<(&str, Option<&str>, Option<&str>)> = log
        .iter()
        .map(|e| {
            assert_eq!(e.actor, Actor::person("op@example.org"));
            assert_eq!(e.organisation, t.organisation_id.parse().ok());
            (
                e.action.as_str(),
                e.before.get("status"),
                e.after.get("status"),
            )
        })
        .collect();
    assert_eq!(
        steps,
        [
            ("order.complete", Some("retiring"), Some("complete")),
            ("order.retiring", Some("paid"), Some("retiring")),
            ("order.paid", Some("placed"), Some("paid")),
            ("order.placed", Some("received"), Some("placed")),
        ]
    );
    let page = v.get(&format!("/console/audit?object={id}")).await;
    assert_eq!(page.status, 200);
    for shown in [
        "order.complete",
        "order.placed",
        "op@example.org",
        "VCS-9001-1",
    ] {
        assert!(page.html.contains(shown), "the audit page shows {shown}");
    }
    assert!(!page.html.contains("order.cancelled"));
    let by_action = v.get("/console/audit?action=order.ret").await;
    assert!(by_action.html.contains("order.retiring"));
    assert!(!by_action.html.contains("order.placed"));
    // Registry records per project, after the fact: a serial and the record's
    // address; a bad address changes nothing.
    let page = v.get(&format!("/console/orders/{id}")).await;
    let at = page
        .html
        .find("name=\"serial_")
        .expect("a serial field per project")
        + 13;
    let project = page.html[at..at + 32].to_owned();
    let records = format!("/console/orders/{id}/records");
    let (serial, record) = (format!("serial_{project}"), format!("record_{project}"));
    let refused = v
        .post(
            &records,
            &[
                ("csrf", &csrf),
                (serial.as_str(), "VCS-9001-A"),
                (record.as_str(), "javascript:alert(1)"),
            ],
        )
        .await;
    assert_eq!(refused.status, 400);
    assert!(refused.html.contains("an http(s) address"));
    let saved = v
        .post(
            &records,
            &[
                ("csrf", &csrf),
                (serial.as_str(), "VCS-9001-A"),
                (record.as_str(), "https://registry.example/retirements/9001"),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.html);
    let certificate = app.text(&format!("/certificates/{id}")).await;
    assert!(certificate.contains("VCS-9001-A"));
    assert!(certificate.contains("https://registry.example/retirements/9001"));
    let recorded = v
        .get(&format!(
            "/console/audit?object={id}&action=order.retirement"
        ))
        .await;
    assert!(
        recorded.html.contains("order.retirement_recorded") && recorded.html.contains("VCS-9001-A")
    );
    let bad = v.get("/console/audit?organisation=acme").await;
    assert_eq!(bad.status, 400);
    assert!(bad.html.contains("Organisation: not an organisation id"));
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_operator_fulfils_a_live_order_and_the_members_webhook_gets_every_event,
);
