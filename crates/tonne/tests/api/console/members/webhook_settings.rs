//! A member adds, edits, rotates and deletes a webhook in the console; each
//! change is audited and another organisation can do none of it.

use serde_json::json;

use super::fixtures::shown_secret;
use crate::console::{PASSWORD, Visitor, ada_of_acme_and_bob_of_rival, audit_of};
use crate::support::TestApp;
use crate::webhooks::{Behaviour, Receiver};

/// The webhook id in the "Go to the webhook" link of the secret page.
fn webhook_link(html: &str) -> String {
    let at = html
        .find("/console/webhooks/")
        .expect("a link to the webhook")
        + "/console/webhooks/".len();
    html[at..at + 32].to_owned()
}

pub(super) async fn a_member_adds_edits_rotates_and_deletes_a_webhook_and_each_change_is_audited(
    app: TestApp,
) {
    let (acme, _rival, ada) = ada_of_acme_and_bob_of_rival(&app).await;
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
