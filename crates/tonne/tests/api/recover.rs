//! `POST /v1/webhooks/{id}/recover` (Tonne's extension): re-sends, in order per
//! account, every event since a time; refuses a future time, a foreign webhook
//! and an account the webhook does not deliver for, moving nothing.

use std::time::Duration;

use serde_json::json;
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, assert_invalid_message_starting};
use crate::webhooks::{Behaviour, Receiver, verify_all, wait_for};

async fn recover_resends_every_event_since_a_time_in_order(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let other = app.tenant().await;
    let rx = Receiver::start(Behaviour::Status(200));
    let hook = crate::webhooks::post_webhook(&app, &t.live_key, &format!("{}/hook", rx.base)).await;
    assert_eq!(hook.status, 200, "{}", hook.body);
    let id = hook.body["id"].as_str().unwrap().to_owned();
    let before = time::OffsetDateTime::now_utc() - time::Duration::seconds(1);
    for _ in 0..2 {
        let o = app.order_tonnes(&t.live_key, "1").await;
        assert_eq!(o.status, 200, "{}", o.body);
    }
    wait_for("two events", Duration::from_secs(30), || {
        rx.events("/hook").len() >= 2
    })
    .await;
    let since = before
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let path = format!("/v1/webhooks/{id}/recover");

    // Refusals move nothing.
    let future = (time::OffsetDateTime::now_utc() + time::Duration::hours(1))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let res = app
        .post(&path, &t.live_key, &json!({ "since": future }))
        .await;
    assert_invalid_message_starting(&res, "since");
    let res = app
        .post(&path, &t.live_key, &json!({ "since": "yesterday" }))
        .await;
    assert_error(&res, 400, "validation_error");
    let res = app
        .post(
            &path,
            &t.live_key,
            &json!({ "since": since, "account_id": other.live_account }),
        )
        .await;
    assert_error(&res, 400, "validation_error");
    let res = app
        .post(&path, &other.live_key, &json!({ "since": since }))
        .await;
    assert_eq!(res.status, 404);
    let res = app
        .post(
            &path,
            &t.live_key,
            &json!({ "since": since, "surprise": 1 }),
        )
        .await;
    assert_error(&res, 400, "validation_error");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        rx.events("/hook").len(),
        2,
        "nothing was re-sent by a refusal"
    );

    let res = app
        .post(
            &path,
            &t.live_key,
            &json!({ "since": since, "account_id": t.live_account }),
        )
        .await;
    assert_eq!(res.status, 202, "{}", res.body);
    assert_eq!(res.body["accounts"], 1);
    assert_eq!(res.body["events"], 2);
    assert_eq!(res.body["webhook_id"], id.as_str());
    wait_for("the two events again", Duration::from_secs(30), || {
        rx.events("/hook").len() >= 4
    })
    .await;
    let sequences: Vec<u64> = rx.events("/hook").iter().map(|e| e.1).collect();
    assert_eq!(
        sequences,
        [1, 2, 1, 2],
        "re-sent in order, after the first delivery"
    );
    verify_all(&rx.received(), hook.body["secret"].as_str().unwrap());
    // Recovering from now on re-sends nothing.
    let now = time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let res = app.post(&path, &t.live_key, &json!({ "since": now })).await;
    assert_eq!(res.status, 202);
    assert_eq!(res.body["events"], 0);
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    recover_resends_every_event_since_a_time_in_order,
);
