//! Quotes by mass and by value: the contract's shape, sums that add up,
//! refusals with the contract's codes, and nothing stored.

use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};

pub(super) async fn quotes_by_mass_and_value_follow_the_contract_and_add_up(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let ids = app.bundle_ids(&t.test_key).await;
    let res = app
        .post(
            "/v1/orders/by-mass/quote",
            &t.test_key,
            &json!({"mass": {"amount": "10", "unit": "t"}, "bundle_selection": [
                {"bundle_id": ids[0], "percentage": "33.33"}, {"bundle_id": ids[1], "percentage": 67}
            ]}),
        )
        .await;
    // 33.33 + 67 ≠ 100: refused
    assert_error(&res, 400, "bundle_selection_ratios_invalid");

    let res = app
        .post(
            "/v1/orders/by-mass/quote",
            &t.test_key,
            &json!({"mass": {"amount": "10", "unit": "t"}, "bundle_selection": [
                {"bundle_id": ids[0], "percentage": "33.33"}, {"bundle_id": ids[1], "percentage": "66.67"}
            ]}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    conforms("OrderQuoteByQuantity", &res.body);
    let lines = res.body["bundles"].as_array().unwrap();
    assert_eq!(lines[0]["quantity"], "3.333");
    assert_eq!(lines[1]["quantity"], "6.667");
    let cents = |v: &Value| -> i64 { v.as_str().unwrap().replace('.', "").parse().unwrap() };
    let sum: i64 = lines.iter().map(|l| cents(&l["offset_cost"])).sum();
    assert_eq!(sum, cents(&res.body["estimated_offset_cost"]));
    assert_eq!(
        cents(&res.body["estimated_offset_cost"]) + cents(&res.body["estimated_commission"]),
        cents(&res.body["estimated_total_cost"])
    );
    assert_eq!(res.body["requested_quantity"], "10");

    // The default selection, and by value.
    let default = app
        .post(
            "/v1/orders/by-mass/quote",
            &t.test_key,
            &json!({"mass": {"amount": "2500", "unit": "kg"}}),
        )
        .await;
    assert_eq!(default.status, 200, "{}", default.body);
    assert_eq!(default.body["estimated_quantity"], "2.5");
    let by_value = app
        .post(
            "/v1/orders/by-value/quote",
            &t.test_key,
            &json!({"value": "100.00", "quantity_trunc": "kg"}),
        )
        .await;
    assert_eq!(by_value.status, 200, "{}", by_value.body);
    conforms("OrderQuoteByValue", &by_value.body);
    assert!(cents(&by_value.body["estimated_total_cost"]) <= 10_000);
    assert_eq!(by_value.body["requested_value"], "100.00");

    // Explicit masses per bundle.
    let masses = app
        .post("/v1/orders/by-mass/quote", &t.test_key, &json!({"bundle_masses": [{"bundle_id": ids[2], "mass": {"amount": "1.5", "unit": "t"}}]}))
        .await;
    assert_eq!(masses.status, 200, "{}", masses.body);
    assert_eq!(masses.body["estimated_quantity"], "1.5");
}

pub(super) async fn bad_quotes_are_refused_with_the_contract_codes_and_store_nothing(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let ids = app.bundle_ids(&t.live_key).await;
    let before = app.get("/v1/bundles?limit=100", &t.live_key).await.body;
    let mass = |amount: &str, unit: &str| json!({"mass": {"amount": amount, "unit": unit}});
    let many: Vec<Value> = (0..10_000).map(|_| json!({"bundle_id": ids[0]})).collect();
    let cases: Vec<(Value, &str)> = vec![
        (mass("0", "t"), "order_quantity_invalid"),
        (mass("-1", "t"), "order_quantity_invalid"),
        (mass("abc", "t"), "order_quantity_invalid"),
        (
            mass("1.00000000000000000001", "t"),
            "order_quantity_invalid",
        ),
        (mass("1", "lb"), "validation_error"),
        (
            json!({"mass": {"amount": 5, "unit": "t"}}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "estimate_id": "x"}),
            "validation_error",
        ),
        (json!({}), "validation_error"),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": null}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "quantity_trunc": null}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": [{"bundle_id": ids[0], "percentage": 50}, {"bundle_id": ids[1], "percentage": "49.99"}]}),
            "bundle_selection_ratios_invalid",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": [{"bundle_id": ids[0], "percentage": 50}, {"bundle_id": ids[1]}]}),
            "bundle_selection_ratios_invalid_format",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": [{"bundle_id": ids[0], "percentage": "50.001"}]}),
            "bundle_selection_ratios_invalid_format",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": [{"bundle_id": ids[0]}, {"bundle_id": ids[0]}]}),
            "bundle_id_invalid",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": [{"bundle_id": "00000000000000000000000000000000"}]}),
            "bundle_id_invalid",
        ),
        (
            json!({"mass": {"amount": "1", "unit": "t"}, "bundle_selection": many}),
            "validation_error",
        ),
        (
            json!({"mass": {"amount": "0.4", "unit": "t"}, "quantity_trunc": "t"}),
            "order_quantity_invalid",
        ),
    ];
    for (body, code) in cases {
        let res = app
            .post("/v1/orders/by-mass/quote", &t.live_key, &body)
            .await;
        assert_error(&res, 400, code);
    }
    for (value, code) in [
        ("0", "order_quantity_invalid"),
        ("12.345", "order_quantity_invalid"),
        ("0.01", "order_quantity_invalid"),
    ] {
        let res = app
            .post(
                "/v1/orders/by-value/quote",
                &t.live_key,
                &json!({"value": value, "quantity_trunc": "t"}),
            )
            .await;
        assert_error(&res, 400, code);
    }
    // A valid quote changes nothing either.
    let ok = app
        .post(
            "/v1/orders/by-mass/quote",
            &t.live_key,
            &mass("1000000", "t"),
        )
        .await;
    assert_eq!(ok.status, 200);
    assert!(
        ok.body["bundles"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["insufficient_available_quantity"] == true)
    );
    let after = app.get("/v1/bundles?limit=100", &t.live_key).await.body;
    assert_eq!(before, after, "quotes store nothing: inventory unchanged");
}
