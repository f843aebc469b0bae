//! Requests as current clients send them, accepted with their meaning.

use serde_json::{Value, json};

use super::fixtures::{patch, sea};
use crate::support::{TestApp, assert_error, assert_error_2024, conforms, conforms_2024};

pub(super) async fn current_clients_requests_are_accepted_with_their_meaning(app: TestApp) {
    app.demo_catalogue().await;
    let (t, other) = (app.tenant().await, app.tenant().await);
    let merchant = |m: Value| json!({"value": {"value": "20", "currency": "GBP"}, "merchant": m});
    // `search_term` (2024) matches as `fuzzy_search_term` (2023) does
    let new = app
        .post(
            "/v1/estimates/transactions",
            &t.live_key,
            &merchant(json!({"country_code": "GBR", "search_term": "bananas", "category": "Groceries", "name": "Corner shop"})),
        )
        .await;
    assert_eq!(new.status, 200, "{}", new.body);
    conforms_2024("TransactionEmissionEstimate", &new.body);
    let old = app
        .post(
            "/v1/estimates/transactions",
            &t.live_key,
            &merchant(json!({"country_code": "GBR", "fuzzy_search_term": "bananas"})),
        )
        .await;
    assert_eq!(old.status, 200, "{}", old.body);
    assert_eq!(new.body["mass"], old.body["mass"]);
    assert_eq!(new.body["search_term_match"], old.body["search_term_match"]);
    for (m, field) in [
        (
            json!({"country_code": "GBR", "search_term": "bananas", "fuzzy_search_term": "bananas"}),
            "merchant",
        ),
        (
            json!({"country_code": "GBR", "search_term": ""}),
            "merchant.search_term",
        ),
        (
            json!({"country_code": "GBR", "search_term": "bananas", "category_code": "5812"}),
            "merchant",
        ),
    ] {
        let res = app
            .post("/v1/estimates/transactions", &t.live_key, &merchant(m))
            .await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.starts_with(field), "{message} should name {field}");
    }

    // `metadata` and `idempotency_key`: stored and answered, on every kind
    let electricity = json!({"consumption": {"amount": "1000", "unit": "kWh"}, "country_code": "GBR",
        "metadata": {"order": "A-17", "team": "ops"}, "idempotency_key": "elec-1"});
    let created = app
        .post("/v1/estimates/electricity", &t.live_key, &electricity)
        .await;
    assert_eq!(created.status, 200, "{}", created.body);
    conforms("ElectricityEmissionEstimate", &created.body);
    assert_eq!(
        created.body["metadata"],
        json!({"order": "A-17", "team": "ops"})
    );
    assert_eq!(created.body["idempotency_key"], "elec-1");
    assert_eq!(created.body["request"], electricity);
    let id = created.body["id"].as_str().unwrap().to_owned();
    let read = app
        .get(&format!("/v1/estimates/electricity/{id}"), &t.live_key)
        .await;
    assert_eq!(read.body["metadata"], created.body["metadata"]);
    assert_eq!(read.body["idempotency_key"], "elec-1");
    // a repeat of the key, on any kind, is 409 and stores nothing
    let repeat = app
        .post(
            "/v1/estimates/transactions",
            &t.live_key,
            &json!({"value": {"value": "20", "currency": "GBP"},
                "merchant": {"country_code": "GBR", "category_code": "5812"}, "idempotency_key": "elec-1"}),
        )
        .await;
    assert_error_2024(&repeat, 409, "estimate_idempotency_already_exists");
    // another account (another organisation, or the same one's test mode) has its own keys
    for key in [&other.live_key, &t.test_key] {
        let res = app
            .post("/v1/estimates/electricity", key, &electricity)
            .await;
        assert_eq!(res.status, 200, "{}", res.body);
    }

    // a transaction estimate is found by its key, on its account only
    let tx = json!({"value": {"value": "35", "currency": "GBP"},
        "merchant": {"country_code": "GBR", "category_code": "5812"},
        "idempotency_key": "tx 2024 #1", "is_transaction": true,
        "transaction_processed_at": "2024-07-17T14:30:00Z", "region_fallback": "never",
        "metadata": {"user_id": "u-38925d"}});
    let tx_created = app
        .post("/v1/estimates/transactions", &t.live_key, &tx)
        .await;
    assert_eq!(tx_created.status, 200, "{}", tx_created.body);
    conforms_2024("TransactionEmissionEstimate", &tx_created.body);
    let by_key = "/v1/estimates/transactions/by-idempotency-key/tx%202024%20%231";
    let found = app.get(by_key, &t.live_key).await;
    assert_eq!(found.status, 200, "{}", found.body);
    conforms_2024("TransactionEmissionEstimate", &found.body);
    assert_eq!(found.body["id"], tx_created.body["id"]);
    assert_eq!(found.body["request"], tx);
    assert_error(
        &app.get(by_key, &other.live_key).await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &app.get(by_key, &t.test_key).await,
        404,
        "estimate_not_found",
    );
    // the key of an electricity estimate names no transaction estimate
    assert_error(
        &app.get(
            "/v1/estimates/transactions/by-idempotency-key/elec-1",
            &t.live_key,
        )
        .await,
        404,
        "estimate_not_found",
    );

    // shipping annotations
    let shipping = json!({"shipment": {"containers": "2"}, "route": sea(),
        "method": {"vessel_type": "container_ship"}, "is_shipment": true,
        "shipped_at": "2024-12-01T12:30:30.000Z"});
    let res = app
        .post("/v1/estimates/shipping", &t.live_key, &shipping)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms_2024("SingleShippingEmissionEstimate", &res.body);
    assert_eq!(res.body["request"], shipping);
    let shipping_id = res.body["id"].as_str().unwrap().to_owned();

    // PATCH …/annotations: absent fields unchanged, nothing recomputed
    let annotations = format!("/v1/estimates/shipping/{shipping_id}/annotations");
    let patched = patch(
        &app,
        &annotations,
        &t.live_key,
        &json!({"metadata": {"po": "7"}, "idempotency_key": "ship-1"}),
    )
    .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    conforms_2024("SingleShippingEmissionEstimate", &patched.body);
    assert_eq!(patched.body["mass"], res.body["mass"]);
    assert_eq!(patched.body["metadata"], json!({"po": "7"}));
    assert_eq!(patched.body["idempotency_key"], "ship-1");
    let read = app
        .get(
            &format!("/v1/estimates/shipping/{shipping_id}"),
            &t.live_key,
        )
        .await;
    assert_eq!(read.body["metadata"], json!({"po": "7"}));
    // bad bodies are 400 and change nothing; another key's owner is 409
    for bad in [
        json!({}),
        json!({"is_shipment": null}),
        json!({"shipped_at": "soon"}),
        json!({"metadata": {"": "x"}}),
        json!({"idempotency_key": ""}),
        json!({"is_transaction": true}),
    ] {
        let res = patch(&app, &annotations, &t.live_key, &bad).await;
        assert_error(&res, 400, "validation_error");
    }
    assert_error_2024(
        &patch(
            &app,
            &annotations,
            &t.live_key,
            &json!({"idempotency_key": "elec-1"}),
        )
        .await,
        409,
        "estimate_idempotency_already_exists",
    );
    let read = app
        .get(
            &format!("/v1/estimates/shipping/{shipping_id}"),
            &t.live_key,
        )
        .await;
    assert_eq!(
        (&read.body["metadata"], &read.body["idempotency_key"]),
        (&json!({"po": "7"}), &json!("ship-1"))
    );
    // another account's estimate, another kind's route: 404
    assert_error(
        &patch(
            &app,
            &annotations,
            &other.live_key,
            &json!({"is_shipment": false}),
        )
        .await,
        404,
        "estimate_not_found",
    );
    assert_error(
        &patch(
            &app,
            &format!("/v1/estimates/shipping/multi-leg/{shipping_id}/annotations"),
            &t.live_key,
            &json!({"is_shipment": false}),
        )
        .await,
        404,
        "estimate_not_found",
    );
    let tx_id = tx_created.body["id"].as_str().unwrap();
    let tx_patched = patch(
        &app,
        &format!("/v1/estimates/transactions/{tx_id}/annotations"),
        &t.live_key,
        &json!({"is_transaction": false, "transaction_processed_at": "2024-07-18T09:00:00+02:00"}),
    )
    .await;
    assert_eq!(tx_patched.status, 200, "{}", tx_patched.body);
    conforms_2024("TransactionEmissionEstimate", &tx_patched.body);
    assert_eq!(tx_patched.body["idempotency_key"], "tx 2024 #1");
    assert_eq!(tx_patched.body["metadata"], json!({"user_id": "u-38925d"}));

    // bad values: 400 naming the field, nothing stored
    let long_key = "k".repeat(101);
    for (path, body, field) in [
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "idempotency_key": long_key}),
            "idempotency_key",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "idempotency_key": null}),
            "idempotency_key",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "metadata": {"n": 1}}),
            "metadata",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "metadata": null}),
            "metadata",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "metadata": {"": "x"}}),
            "metadata",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"containers": "2"}, "route": sea(),
                "method": {"vessel_type": "container_ship"}, "shipped_at": "yesterday"}),
            "shipped_at",
        ),
        (
            "/v1/estimates/transactions",
            json!({"value": {"value": "1", "currency": "GBP"},
                "merchant": {"country_code": "GBR", "category_code": "5812"},
                "transaction_processed_at": "2024-07-17"}),
            "transaction_processed_at",
        ),
        (
            "/v1/estimates/transactions",
            json!({"value": {"value": "1", "currency": "GBP"},
                "merchant": {"country_code": "GBR", "category_code": "5812"},
                "region_fallback": "sometimes"}),
            "region_fallback",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "colour": "green"}),
            "colour",
        ),
    ] {
        let res = app.post(path, &t.live_key, &body).await;
        assert_error(&res, 400, "validation_error");
        let message = res.body["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(field), "{message} should name {field}");
    }
}
