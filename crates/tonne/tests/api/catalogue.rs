//! The catalogue and quotes, end to end.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms};
use tonne_test_support::on_both_backends;

async fn the_catalogue_is_listed_and_readable_with_and_without_a_key(app: TestApp) {
    app.demo_catalogue().await;
    let t = app.tenant().await;
    let first = app.get("/v1/bundles?limit=3", &t.live_key).await;
    assert_eq!(first.status, 200, "{}", first.body);
    conforms("PaginatedBundles", &first.body);
    assert_eq!(first.body["has_more"], true);
    let rest = app
        .get(
            &format!(
                "/v1/bundles?limit=100&after={}",
                first.body["next_cursor"].as_str().unwrap()
            ),
            &t.live_key,
        )
        .await;
    assert_eq!(
        first.body["data"].as_array().unwrap().len() + rest.body["data"].as_array().unwrap().len(),
        7
    );
    assert_eq!(
        first.body["data"][0]["currency"], "GBP",
        "the account's currency"
    );

    let projects = app.get("/v1/projects?limit=100", &t.live_key).await;
    conforms("PaginatedProjects", &projects.body);
    assert_eq!(projects.body["data"].as_array().unwrap().len(), 12);

    // Single items are public: no key, no 401.
    let id = first.body["data"][0]["id"].as_str().unwrap().to_owned();
    let bundle = app
        .send(app.request(Method::GET, &format!("/v1/bundles/{id}"), None))
        .await;
    assert_eq!(bundle.status, 200);
    conforms("Bundle", &bundle.body);
    assert!(!bundle.body["projects"].as_array().unwrap().is_empty());
    let in_eur = app
        .send(app.request(Method::GET, &format!("/v1/bundles/{id}?currency=EUR"), None))
        .await;
    assert_eq!(in_eur.body["currency"], "EUR");
    let project = app
        .send(app.request(Method::GET, "/v1/projects/by-slug/exomad-green", None))
        .await;
    assert_eq!(project.status, 200);
    conforms("Project", &project.body);
    assert_eq!(project.body["registry_name"], "Puro.earth");
    assert_eq!(project.body["bundles"][0]["name"], "Biochar");
    let by_id = app
        .send(app.request(
            Method::GET,
            &format!("/v1/projects/{}", project.body["id"].as_str().unwrap()),
            None,
        ))
        .await;
    assert_eq!(by_id.body["slug"], "exomad-green");
    // An invalid key on a public route is ignored, not a 401.
    let with_bad_key = app
        .get(&format!("/v1/bundles/{id}"), "tonne_live_nope")
        .await;
    assert_eq!(with_bad_key.status, 200);

    for path in [
        "/v1/bundles/nope",
        "/v1/projects/00000000000000000000000000000000",
        "/v1/projects/by-slug/nope",
    ] {
        assert_error(
            &app.send(app.request(Method::GET, path, None)).await,
            404,
            "not_found",
        );
    }
    assert_error(
        &app.send(app.request(Method::GET, "/v1/bundles", None))
            .await,
        401,
        "unauthorised",
    );
    assert_error(
        &app.get("/v1/bundles?recently_disabled=maybe", &t.live_key)
            .await,
        400,
        "validation_error",
    );
}

async fn quotes_by_mass_and_value_follow_the_contract_and_add_up(app: TestApp) {
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

async fn bad_quotes_are_refused_with_the_contract_codes_and_store_nothing(app: TestApp) {
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

on_both_backends!(
    with crate::support::TestApp::spawn;
    the_catalogue_is_listed_and_readable_with_and_without_a_key,
    quotes_by_mass_and_value_follow_the_contract_and_add_up,
    bad_quotes_are_refused_with_the_contract_codes_and_store_nothing,
);
