//! The client 3.9.2 calls that describe what others receive: `webhookRequest`
//! (`POST /v1/WebhookRequest`, a conformance check of a receiver's body) and
//! Lune Pay's `getPaymentByTemporaryId` (Tonne issues no temporary ids: a
//! JSON 404, never the router's).

use reqwest::Method;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{TestApp, assert_error, assert_invalid_message_starting};

fn valid_body() -> Value {
    json!({"events": [
        {"api_version": "v1", "account_id": "a1", "event_id": "e1", "event_type": "order.retiring",
         "sequence": "00000000000000000004", "data": {"order": {"id": "o1", "status": "retiring"}}},
        {"api_version": "v1", "account_id": "a1", "event_id": "e2", "event_type": "allocation.new",
         "sequence": "00000000000000000005",
         "data": {"allocation": {"id": "al1", "order_id": "o1", "project_id": "p1",
                  "quantity": "0.25", "status": "new", "created_at": "2026-11-27T01:20:00Z"}}}
    ]})
}

async fn a_webhook_request_body_is_checked_with_or_without_a_key(app: TestApp) {
    let t = app.tenant().await;
    let post = |key: Option<String>, body: Value| {
        let req = app
            .request(Method::POST, "/v1/WebhookRequest", key.as_deref())
            .json(&body);
        app.send(req)
    };
    for key in [None, Some(t.test_key.clone())] {
        let res = post(key.clone(), valid_body()).await;
        assert_eq!(res.status, 200, "{}", res.body);
        assert_eq!(res.body, json!({}));
        let mut bad = valid_body();
        bad["events"][1]["data"]["allocation"]["status"] = json!("allocated");
        let res = post(key.clone(), bad).await;
        assert_error(&res, 400, "validation_error");
        assert!(
            res.body["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("events[1].data.allocation.status: "),
            "{}",
            res.body
        );
        let res = post(key, json!({"events": [{"event_type": "order.paid"}]})).await;
        assert_error(&res, 400, "validation_error");
    }
    // not JSON: 400 (the contract lists no 415 for it); the route takes POST only
    let res = app
        .send(
            app.request(Method::POST, "/v1/WebhookRequest", None)
                .header("Content-Type", "text/plain")
                .body("events"),
        )
        .await;
    assert_error(&res, 400, "validation_error");
    let res = app.get_without_key("/v1/WebhookRequest").await;
    assert_eq!(res.status, 405);
}

async fn a_payment_by_temporary_id_is_a_json_not_found(app: TestApp) {
    let t = app.tenant().await;
    let path = "/v1/payments/by-temporary-id/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d";
    for key in [None, Some(t.live_key.as_str()), Some(t.test_key.as_str())] {
        let res = app.send(app.request(Method::GET, path, key)).await;
        assert_error(&res, 404, "not_found");
        assert!(
            res.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains("temporary id"),
            "the route's own answer, not the router's: {}",
            res.body
        );
        let res = app
            .send(app.request(Method::GET, "/v1/payments/by-temporary-id/nope", key))
            .await;
        assert_invalid_message_starting(&res, "temporary_id");
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_webhook_request_body_is_checked_with_or_without_a_key,
    a_payment_by_temporary_id_is_a_json_not_found,
);
