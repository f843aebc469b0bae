//! Stored estimates: read, recomputed in place, private; ordered once and then
//! frozen; one estimate per idempotency key under concurrency.

use std::sync::Arc;

use serde_json::{Value, json};

use super::fixtures::{explained, tonnes};
use crate::support::{TestApp, assert_error, assert_error_2024, conforms};

pub(super) async fn stored_estimates_are_read_recomputed_in_place_and_private(app: TestApp) {
    app.demo_catalogue().await;
    let (t, other) = (app.tenant().await, app.tenant().await);
    let body = json!({"value": {"value": "50", "currency": "GBP"}, "merchant": {"country_code": "GBR", "category_code": "5812"}});
    let created = app
        .post("/v1/estimates/transactions", &t.live_key, &body)
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/estimates/transactions/{id}");
    let read = app.get(&path, &t.live_key).await;
    assert_eq!(read.status, 200);
    conforms("TransactionEmissionEstimate", &read.body);
    assert_eq!(
        (&read.body["mass"], &read.body["request"]),
        (&created.body["mass"], &body)
    );
    // the explanation is stored with the estimate: a read answers the same one
    assert_eq!(read.body["explanation"], created.body["explanation"]);
    explained(&path, &read.body);

    let mut bigger = body.clone();
    bigger["value"]["value"] = json!("100");
    let put = app.put(&path, &t.live_key, &bigger).await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.body["id"], id.as_str());
    assert!(tonnes(&put.body["mass"]) > tonnes(&created.body["mass"]));
    assert_eq!(app.get(&path, &t.live_key).await.body["request"], bigger);

    // another account, another kind's path, an unknown id: 404 estimate_not_found
    assert_error(
        &app.get(&path, &other.live_key).await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.put(&path, &other.live_key, &body).await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.get(&format!("/v1/estimates/company/{id}"), &t.live_key)
            .await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.get(
            "/v1/estimates/shipping/0123456789abcdef0123456789abcdef",
            &t.live_key,
        )
        .await,
        404,
        "estimate_not_found",
    );
    // a bad PUT changes nothing
    let mut bad = body.clone();
    bad["merchant"]["country_code"] = json!("ZZZ");
    assert_error(
        &app.put(&path, &t.live_key, &bad).await,
        400,
        "validation_error",
    );
    assert_eq!(app.get(&path, &t.live_key).await.body["request"], bigger);
    // without a catalogue price the quote is an Errors object, and the estimate still answers
    let flight = app.post("/v1/estimates/flight", &t.test_key, &json!({"route": {"amount": "800", "unit": "km"}, "bundle_selection": [{"bundle_id": "0123456789abcdef0123456789abcdef"}]})).await;
    assert_eq!(flight.status, 200, "{}", flight.body);
    conforms("FlightEmissionEstimate", &flight.body);
    assert_eq!(
        flight.body["quote"]["errors"][0]["error_code"],
        "bundle_id_invalid"
    );
}

pub(super) async fn an_estimate_is_ordered_once_and_then_frozen(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let shipping = json!({"shipment": {"mass": {"amount": "3", "unit": "t"}}, "route": {"amount": "1000", "unit": "km"}, "method": "truck_generic_hgv"});
    let e = app
        .post("/v1/estimates/shipping", &t.live_key, &shipping)
        .await;
    let id = e.body["id"].as_str().unwrap().to_owned();
    let order = app
        .post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id, "idempotency_key": "est-1", "quantity_trunc": "kg"}),
        )
        .await;
    assert_eq!(order.status, 200, "{}", order.body);
    conforms("OrderByEstimate", &order.body);
    assert_eq!(order.body["estimate_id"], id.as_str());
    assert_eq!(order.body["requested_quantity"], e.body["mass"]["amount"]);
    assert_eq!(order.body["type"], "quantity");

    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id}),
        )
        .await,
        409,
        "estimate_order_already_placed",
    );
    assert_error(
        &app.put(
            &format!("/v1/estimates/shipping/{id}"),
            &t.live_key,
            &shipping,
        )
        .await,
        409,
        "estimate_order_already_placed",
    );
    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": id, "idempotency_key": "est-1"}),
        )
        .await,
        409,
        "order_idempotency_already_exists",
    );
    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &t.live_key,
            &json!({"estimate_id": "0123456789abcdef0123456789abcdef"}),
        )
        .await,
        400,
        "estimate_not_found",
    );
    let other = app.tenant().await;
    assert_error(
        &app.post(
            "/v1/orders/by-estimate",
            &other.live_key,
            &json!({"estimate_id": id}),
        )
        .await,
        400,
        "estimate_not_found",
    );

    // ten concurrent orders of one estimate: exactly one is placed
    let fresh = app
        .post(
            "/v1/estimates/electricity",
            &t.live_key,
            &json!({"consumption": {"amount": "5", "unit": "MWh"}}),
        )
        .await;
    let fresh = fresh.body["id"].as_str().unwrap().to_owned();
    let app = Arc::new(app);
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (app, key, fresh) = (app.clone(), t.live_key.clone(), fresh.clone());
        tasks.push(tokio::spawn(async move {
            app.post(
                "/v1/orders/by-estimate",
                &key,
                &json!({"estimate_id": fresh}),
            )
            .await
            .status
            .as_u16()
        }));
    }
    let mut statuses = crate::support::results_of(tasks).await;
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
}

pub(super) async fn one_idempotency_key_under_concurrency_makes_one_estimate(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let app = Arc::new(app);
    let mut tasks = Vec::new();
    for i in 0..10 {
        let (app, key) = (app.clone(), t.live_key.clone());
        tasks.push(tokio::spawn(async move {
            let res = app
                .post(
                    "/v1/estimates/transactions",
                    &key,
                    &json!({"value": {"value": format!("{}", 10 + i), "currency": "GBP"},
                        "merchant": {"country_code": "GBR", "category_code": "5812"},
                        "idempotency_key": "once"}),
                )
                .await;
            if res.status == 409 {
                assert_error_2024(&res, 409, "estimate_idempotency_already_exists");
            }
            (res.status.as_u16(), res.body["id"].clone())
        }));
    }
    let mut statuses = Vec::new();
    let mut winner = Value::Null;
    for task in tasks {
        let (status, id) = task.await.unwrap();
        if status == 200 {
            winner = id;
        }
        statuses.push(status);
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    let found = app
        .get(
            "/v1/estimates/transactions/by-idempotency-key/once",
            &t.live_key,
        )
        .await;
    assert_eq!(found.body["id"], winner);
}
