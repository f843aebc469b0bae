//! Orders by mass and by value created, read and listed; bad orders refused
//! with nothing written.

use serde_json::json;

use super::fixtures::mass;
use crate::support::{TestApp, assert_error, conforms};

pub(super) async fn orders_by_mass_and_value_are_created_read_and_listed(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let mut body = mass("2");
    body["idempotency_key"] = json!("order-1");
    body["metadata"] = json!({"customer": "c-42"});
    let created = app.post("/v1/orders/by-mass", &t.live_key, &body).await;
    assert_eq!(created.status, 200, "{}", created.body);
    conforms("OrderByQuantity", &created.body);
    assert_eq!(created.body["status"], "received");
    assert_eq!(created.body["type"], "quantity");
    assert_eq!(created.body["quantity"], "2");
    assert_eq!(created.body["metadata"]["customer"], "c-42");
    // 2024 fields: an API order is paid like an invoice (the operator confirms
    // it); no public certificate before completion.
    assert_eq!(created.body["payment_method"], "invoice");
    assert!(created.body["public_certificate_url"].is_null());
    assert!(created.body["certificate"].is_null());
    let id = created.body["id"].as_str().unwrap().to_owned();

    let by_value = app
        .post(
            "/v1/orders/by-value",
            &t.live_key,
            &json!({"value": "25.00"}),
        )
        .await;
    assert_eq!(by_value.status, 200, "{}", by_value.body);
    conforms("OrderByValue", &by_value.body);
    assert_eq!(by_value.body["requested_value"], "25.00");

    // A key of the order's organisation and mode reads it; without one it is
    // 404, as for an unknown id (the security suite tries the other keys).
    let read = app.get(&format!("/v1/orders/{id}"), &t.live_key).await;
    assert_eq!(read.status, 200);
    conforms("Order", &read.body);
    assert_eq!(read.body["id"], id.as_str());
    assert_error(
        &app.get_without_key(&format!("/v1/orders/{id}")).await,
        404,
        "not_found",
    );
    assert_error(
        &app.get_without_key("/v1/orders/00000000000000000000000000000000")
            .await,
        404,
        "not_found",
    );

    // By idempotency key: scoped to the caller's account; 404 without credentials.
    let by_key = app
        .get("/v1/orders/by-idempotency-key/order-1", &t.live_key)
        .await;
    assert_eq!(by_key.body["id"], id.as_str());
    assert_error(
        &app.get_without_key("/v1/orders/by-idempotency-key/order-1")
            .await,
        404,
        "not_found",
    );
    assert_error(
        &app.get("/v1/orders/by-idempotency-key/order-1", &t.test_key)
            .await,
        404,
        "not_found",
    );

    let listed = app.get("/v1/orders", &t.live_key).await;
    conforms("PaginatedOrders", &listed.body);
    let ids: Vec<&str> = listed.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![by_value.body["id"].as_str().unwrap(), id.as_str()],
        "most recent first"
    );
    assert!(
        app.get("/v1/orders", &t.test_key).await.body["data"]
            .as_array()
            .unwrap()
            .is_empty(),
        "modes are separate"
    );
    assert_error(
        &app.get(
            "/v1/orders?after=0vE213P96LbXNap56NAqVoM7knOedQg4",
            &t.live_key,
        )
        .await,
        400,
        "validation_error",
    );
}

pub(super) async fn bad_orders_are_refused_and_write_nothing(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let before = app.get("/v1/bundles?limit=100", &t.live_key).await.body;
    for (body, code) in [
        (mass("0"), "order_quantity_invalid"),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "estimate_id": "x"}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "idempotency_key": ""}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "idempotency_key": null}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "metadata": {"k": 1}}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": [{"bundle_id": "00000000000000000000000000000000"}]}),
            "bundle_id_invalid",
        ),
    ] {
        assert_error(
            &app.post("/v1/orders/by-mass", &t.live_key, &body).await,
            400,
            code,
        );
    }
    assert_error(
        &app.post(
            "/v1/orders/by-value",
            &t.live_key,
            &json!({"value": "0.001"}),
        )
        .await,
        400,
        "order_quantity_invalid",
    );
    assert_eq!(
        app.get("/v1/bundles?limit=100", &t.live_key).await.body,
        before
    );
    assert!(
        app.get("/v1/orders", &t.live_key).await.body["data"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}
