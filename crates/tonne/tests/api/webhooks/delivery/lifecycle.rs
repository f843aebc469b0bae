//! A webhook's life: its secret rotated, disabled by 410 or an exhausted
//! retry schedule, re-enabled to resume in order, and deleted.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::webhooks::{
    Behaviour, Receiver, assert_in_order, create_webhook, distinct_order_events, order,
    order_counts, rotate_secret, test_app, verify_all, wait_for,
};

pub(super) async fn rotation_deletion_and_gone(db: tonne_test_support::TestDb) {
    let app = test_app(db, |_| {}).await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/r", rx.base), None).await;
    let id = w["id"].as_str().unwrap().to_owned();
    let old = w["secret"].as_str().unwrap().to_owned();
    // deliveries flowing during the rotation
    for _ in 0..4 {
        order(&app, &t.test_key, None).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let rotated = rotate_secret(&app, &t.test_key, &id).await;
    let new = rotated.body["secret"].as_str().unwrap().to_owned();
    let rotated_at = Instant::now();
    for _ in 0..4 {
        order(&app, &t.test_key, None).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    wait_for("40 order events", Duration::from_secs(60), || {
        distinct_order_events(&rx.events("/r")) == 40
    })
    .await;
    let now = time::OffsetDateTime::now_utc();
    let tol = time::Duration::minutes(5);
    let mut with_new = 0;
    for r in rx.received() {
        let by_old = tonne_webhooks::verify(&old, &r.signature, &r.body, now, tol).is_ok();
        let by_new = tonne_webhooks::verify(&new, &r.signature, &r.body, now, tol).is_ok();
        assert!(by_old || by_new, "a request signed by neither secret");
        // a request signed before the rotation may still be in flight for a moment;
        // after that, only the new secret signs
        if r.at > rotated_at + Duration::from_millis(500) {
            assert!(
                by_new && !by_old,
                "signed with the old secret after the rotation"
            );
        }
        with_new += usize::from(by_new);
    }
    assert!(with_new > 0);
    assert_in_order(&rx.events("/r"));

    // 410 disables the webhook at once
    rx.set(Behaviour::Status(410));
    order(&app, &t.test_key, None).await;
    wait_for(
        "the webhook disabled by 410",
        Duration::from_secs(30),
        || {
            futures_like_block(app.get(&format!("/v1/webhooks/{id}"), &t.test_key))["enabled"]
                == false
        },
    )
    .await;
    let attempts = app
        .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
        .await;
    let last = &attempts.body["data"][0];
    assert_eq!(
        (last["outcome"].clone(), last["status_code"].clone()),
        (json!("disabled"), json!(410))
    );

    // re-enabled: everything since the last acknowledged event arrives, in order
    rx.set(Behaviour::Status(200));
    let put = app
        .put(
            &format!("/v1/webhooks/{id}"),
            &t.test_key,
            &json!({"url": format!("{}/r", rx.base), "enabled": true}),
        )
        .await;
    assert_eq!(put.body["enabled"], true);
    wait_for("45 order events", Duration::from_secs(60), || {
        distinct_order_events(&rx.events("/r")) == 45
    })
    .await;
    assert_in_order(&rx.events("/r"));

    // delete stops deliveries at once
    assert_eq!(
        app.delete(&format!("/v1/webhooks/{id}"), &t.test_key)
            .await
            .status,
        200
    );
    let before = rx.received().len();
    order(&app, &t.test_key, None).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(rx.received().len(), before, "a request after DELETE");
}

/// Blocks on a request from inside a sync closure (wait_for's predicate).
fn futures_like_block(fut: impl std::future::Future<Output = crate::support::Reply>) -> Value {
    tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(fut)).body
}

pub(super) async fn exhausted_schedule_disables_then_re_enabling_resumes(
    db: tonne_test_support::TestDb,
) {
    let app = test_app(db, |o| {
        if let Some(d) = o.dispatcher.as_mut() {
            d.schedule = tonne_webhooks::RetrySchedule::parse("1,1").unwrap();
        }
    })
    .await;
    app.demo_catalogue().await;
    let rx = Receiver::start(Behaviour::Status(500));
    let t = app.tenant().await;
    let w = create_webhook(&app, &t.test_key, &format!("{}/x", rx.base), None).await;
    let id = w["id"].as_str().unwrap().to_owned();
    order(&app, &t.test_key, None).await;
    wait_for("disabled after 3 attempts", Duration::from_secs(30), || {
        futures_like_block(app.get(&format!("/v1/webhooks/{id}"), &t.test_key))["enabled"] == false
    })
    .await;
    let attempts = app
        .get(&format!("/v1/webhooks/{id}/attempts"), &t.test_key)
        .await
        .body;
    let outcomes: Vec<&str> = attempts["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, vec!["disabled", "failed", "failed"]);
    // while disabled, more events happen; nothing is sent
    order(&app, &t.test_key, None).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let sent_while_disabled = rx.received().len();
    assert_eq!(sent_while_disabled, 3);
    rx.set(Behaviour::Status(200));
    app.put(
        &format!("/v1/webhooks/{id}"),
        &t.test_key,
        &json!({"url": format!("{}/x", rx.base), "enabled": true}),
    )
    .await;
    wait_for(
        "all 10 events after re-enabling",
        Duration::from_secs(60),
        || distinct_order_events(&rx.events("/x")) == 10,
    )
    .await;
    assert_in_order(&rx.events("/x"));
    let counts = order_counts(&rx.events("/x"));
    assert_eq!(counts.get(&t.test_account), Some(&10));
    verify_all(&rx.received(), w["secret"].as_str().unwrap());
}
