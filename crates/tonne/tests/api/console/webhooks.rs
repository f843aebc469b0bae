//! The operator's webhooks across the installation: health, skip, re-enable, replay.

use std::time::Duration;

use tonne_test_support::on_both_backends;

use super::{PASSWORD, Visitor, eventually, member, operator};
use crate::support::TestApp;
use crate::webhooks::{Behaviour, Receiver, verify_all, wait_for};

async fn an_operator_sees_every_webhooks_health_and_skips_re_enables_and_replays(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let rx = Receiver::start(Behaviour::Status(410));
    let hook = crate::webhooks::post_webhook(&app, &t.live_key, &format!("{}/gone", rx.base)).await;
    let id = hook.body["id"].as_str().unwrap().to_owned();
    let order = || async {
        let o = app.order_tonnes(&t.live_key, "1").await;
        assert_eq!(o.status, 200, "{}", o.body);
    };
    order().await;
    let webhook_path = format!("/v1/webhooks/{id}");
    eventually("the webhook disabled by 410", || async {
        app.get(&webhook_path, &t.live_key).await.body["enabled"] == false
    })
    .await;
    order().await; // waits: the webhook is disabled

    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let list = v.get("/console/webhooks").await;
    assert_eq!(list.status, 200);
    assert!(list.html.contains(&format!("/console/webhooks/{id}")));
    assert!(list.html.contains("disabled") && list.html.contains(&t.organisation_id));
    let here = format!("/console/webhooks/{id}");
    let page = v.get(&here).await;
    assert_eq!(page.status, 200);
    for shown in [
        "Re-enable webhook",
        "HTTP 410",
        "Skip undelivered events",
        "Replay events",
    ] {
        assert!(page.html.contains(shown), "the page shows {shown}");
    }
    assert!(!page.html.contains("Oldest undelivered event</dt><dd>none"));
    let csrf = page.csrf();

    // Skip the backlog: everything undelivered is passed over, and said so.
    assert_eq!(v.post(&format!("{here}/skip"), &[]).await.status, 403);
    let skipped = v.post(&format!("{here}/skip"), &[("csrf", &csrf)]).await;
    assert_eq!(skipped.status, 303);
    let location = skipped.location.clone().unwrap();
    assert!(location.contains("skipped="), "{location}");
    let after_skip = v.get(&location).await;
    assert!(after_skip.html.contains("undelivered events were skipped."));
    assert!(
        after_skip
            .html
            .contains("Oldest undelivered event</dt><dd>none")
    );

    // Re-enable, with a receiver that answers: new events arrive.
    rx.set(Behaviour::Status(200));
    let enabled = v.post(&format!("{here}/enable"), &[("csrf", &csrf)]).await;
    assert_eq!(enabled.status, 303);
    assert_eq!(
        app.get(&webhook_path, &t.live_key).await.body["enabled"],
        true
    );
    order().await;
    wait_for(
        "a delivery after re-enabling",
        Duration::from_secs(30),
        || !rx.events("/gone").is_empty(),
    )
    .await;
    eventually("the list to show it healthy", || async {
        v.get("/console/webhooks").await.html.contains("healthy")
    })
    .await;

    // Replay from an hour ago: the skipped events are sent again, in order.
    let delivered = rx.events("/gone").len();
    let since = (time::OffsetDateTime::now_utc() - time::Duration::hours(1))
        .format(&time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]"
        ))
        .unwrap();
    let replay = v
        .post(
            &format!("{here}/recover"),
            &[("csrf", &csrf), ("since", &since)],
        )
        .await;
    assert_eq!(replay.status, 303);
    assert!(replay.location.as_deref().unwrap().contains("recovered="));
    wait_for("the replayed events", Duration::from_secs(30), || {
        rx.events("/gone").len() > delivered
    })
    .await;
    verify_all(&rx.received(), hook.body["secret"].as_str().unwrap());

    let log = v.get(&format!("/console/audit?object={id}")).await;
    for action in [
        "webhook.backlog_skipped",
        "webhook.enabled",
        "webhook.replayed",
    ] {
        assert!(log.html.contains(action), "the audit log shows {action}");
    }

    // Members cannot skip or re-enable, even their own organisation's webhook.
    member(&app, "ada@example.org", &t.organisation_id).await;
    let mut m = Visitor::new(&app);
    m.sign_in("ada@example.org", PASSWORD).await;
    let member_csrf = m.get("/console/").await.csrf();
    for action in ["skip", "enable"] {
        let poke = m
            .post(&format!("{here}/{action}"), &[("csrf", &member_csrf)])
            .await;
        assert_eq!(poke.status, 404, "{action}");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    an_operator_sees_every_webhooks_health_and_skips_re_enables_and_replays,
);
