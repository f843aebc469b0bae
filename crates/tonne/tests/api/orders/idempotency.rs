//! One order per idempotency key: a repeated key is 409, and fifty
//! concurrent requests with one key create exactly one order.

use std::sync::Arc;

use serde_json::json;

use super::fixtures::mass;
use crate::support::{TestApp, assert_error};

pub(super) async fn a_repeated_idempotency_key_is_409_and_creates_nothing(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let mut body = mass("1");
    body["idempotency_key"] = json!("same");
    assert_eq!(
        app.post("/v1/orders/by-mass", &t.live_key, &body)
            .await
            .status,
        200
    );
    let before = app.get("/v1/bundles?limit=100", &t.live_key).await.body;
    assert_error(
        &app.post("/v1/orders/by-mass", &t.live_key, &body).await,
        409,
        "order_idempotency_already_exists",
    );
    assert_eq!(
        app.get("/v1/bundles?limit=100", &t.live_key).await.body,
        before,
        "inventory untouched"
    );
    assert_eq!(
        app.get("/v1/orders", &t.live_key).await.body["data"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Another account may use the same key.
    let other = app.tenant().await;
    assert_eq!(
        app.post("/v1/orders/by-mass", &other.live_key, &body)
            .await
            .status,
        200
    );
}

pub(super) async fn fifty_concurrent_requests_with_one_key_create_exactly_one_order(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let app = Arc::new(app);
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let app = Arc::clone(&app);
        let key = t.live_key.clone();
        tasks.push(tokio::spawn(async move {
            let mut body = mass("1");
            body["idempotency_key"] = json!("race");
            app.post("/v1/orders/by-mass", &key, &body)
                .await
                .status
                .as_u16()
        }));
    }
    let statuses = crate::support::results_of(tasks).await;
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 409).count(),
        49,
        "{statuses:?}"
    );
    assert_eq!(
        app.get("/v1/orders?limit=100", &t.live_key).await.body["data"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}
