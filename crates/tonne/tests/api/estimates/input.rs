//! Batches answered entry by entry, and bad input refused with the contract's
//! codes.

use serde_json::{Value, json};

use super::fixtures::grams;
use crate::support::{TestApp, assert_error, conforms};

pub(super) async fn a_batch_answers_every_entry_in_order(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let good = |v: usize| json!({"value": {"value": format!("{v}"), "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "5411"}});
    let mut entries: Vec<Value> = (1..=97).map(good).collect();
    entries.insert(10, json!({"value": {"value": "10", "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "6011"}}));
    entries.insert(20, json!({"value": {"value": "10", "currency": "JPY"}, "merchant": {"country_code": "USA", "category_code": "5411"}}));
    entries.insert(30, json!({"value": {"value": "10", "currency": "USD"}, "merchant": {"country_code": "USA", "category_code": "0001"}}));
    assert_eq!(entries.len(), 100);
    let res = app
        .post(
            "/v1/estimates/transactions/batch",
            &t.live_key,
            &Value::Array(entries),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("BatchTransactionEmissionEstimate", &res.body);
    let out = res.body.as_array().unwrap();
    assert_eq!(out.len(), 100);
    assert_eq!(out[10], json!({}));
    assert_eq!(out[20]["errors"][0]["error_code"], "validation_error");
    assert!(
        out[20]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("[20].value.currency"),
        "{}",
        out[20]
    );
    assert_eq!(out[30]["errors"][0]["error_code"], "validation_error");
    // in order: entry 0 spent 1 USD, entry 1 spent 2 USD
    assert_eq!(out[0]["request"]["value"]["value"], "1");
    assert_eq!(out[1]["request"]["value"]["value"], "2");
    assert!(grams(&out[1]["mass"]) > grams(&out[0]["mass"]));
    // each stored estimate reads back
    let id = out[99]["id"].as_str().unwrap();
    assert_eq!(
        app.get(&format!("/v1/estimates/transactions/{id}"), &t.live_key)
            .await
            .status,
        200
    );
    // bounds: 1 to 100 entries
    let too_many = Value::Array((1..=101).map(good).collect());
    assert_error(
        &app.post("/v1/estimates/transactions/batch", &t.live_key, &too_many)
            .await,
        400,
        "validation_error",
    );
    assert_error(
        &app.post("/v1/estimates/transactions/batch", &t.live_key, &json!([]))
            .await,
        400,
        "validation_error",
    );
    assert_error(
        &app.post(
            "/v1/estimates/transactions/batch",
            &t.live_key,
            &json!({"value": 1}),
        )
        .await,
        400,
        "validation_error",
    );
}

pub(super) async fn bad_input_gets_the_contracts_codes(app: TestApp) {
    let t = app.tenant().await;
    let key = &t.live_key;
    let cases = [
        (
            "/v1/estimates/flight",
            json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "QQQ"}}}),
            "airport_invalid",
        ),
        (
            "/v1/estimates/flight",
            json!({"route": {"source": {"code": "lhr"}, "destination": {"code": "JFK"}}}),
            "validation_error",
        ),
        (
            "/v1/estimates/flight",
            json!({"route": {"amount": "-5", "unit": "km"}}),
            "validation_error",
        ),
        (
            "/v1/estimates/flight",
            json!({"route": {"amount": "5", "unit": "km"}, "passengers": -1}),
            "validation_error",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "1", "unit": "t"}}, "route": {"source": {"locode": "ZZZZZ"}, "destination": {"locode": "NLRTM"}}, "method": {"vessel_type": "container_ship"}}),
            "port_not_found",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "1", "unit": "t"}}, "route": {"source": {"street_line1": "1 Main St", "postcode": "1000", "city": "X", "country_code": "GBR"}, "destination": {"locode": "NLRTM"}}, "method": "diesel_truck"}),
            "address_not_found",
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"mass": {"amount": "1", "unit": "t"}}, "route": {"amount": "10", "unit": "km"}, "method": "teleporter"}),
            "validation_error",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "TWh"}}),
            "validation_error",
        ),
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1", "unit": "kWh"}, "country_code": "XYZ"}),
            "validation_error",
        ),
        (
            "/v1/estimates/transactions",
            json!({"value": {"value": "1", "currency": "GBP"}, "merchant": {"country_code": "GBR", "category_code": "5411", "fuzzy_search_term": "x"}}),
            "validation_error",
        ),
        (
            "/v1/estimates/passenger-transportation",
            json!({"legs": []}),
            "validation_error",
        ),
        (
            "/v1/estimates/company",
            json!({"employees": 1}),
            "validation_error",
        ),
        (
            "/v1/estimates/individual",
            json!({"country_code": "FRA"}),
            "validation_error",
        ),
    ];
    for (path, body, code) in cases {
        assert_error(&app.post(path, key, &body).await, 400, code);
    }
    // money movement: 204, nothing stored
    let res = app.post("/v1/estimates/transactions", key, &json!({"value": {"value": "1", "currency": "GBP"}, "merchant": {"country_code": "GBR", "category_code": "4829"}})).await;
    assert_eq!(res.status, 204);
    assert_error(
        &app.get(
            "/v1/estimates/electricity/0123456789abcdef0123456789abcdef",
            "nope",
        )
        .await,
        401,
        "unauthorised",
    );
}
