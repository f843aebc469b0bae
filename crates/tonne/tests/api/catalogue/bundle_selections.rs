//! Bundle selections and portfolios (the 2024 contract): the catalogue's
//! default, a followed portfolio, an account's own selection, and refusals.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms_2024};

fn sum_percent(selection: &Value) -> rust_decimal::Decimal {
    selection
        .as_array()
        .unwrap()
        .iter()
        .map(|e| match &e["percentage"] {
            Value::Number(n) => rust_decimal::Decimal::from(n.as_i64().unwrap()),
            Value::String(s) => s.parse().unwrap(),
            other => panic!("percentage {other}"),
        })
        .sum()
}

fn bundle_ids_of(selection: &Value) -> Vec<String> {
    let mut ids: Vec<String> = selection
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["bundle_id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

pub(super) async fn bundle_selections_and_portfolios_follow_the_2024_contract(app: TestApp) {
    app.demo_catalogue().await;
    let (a, b) = (app.tenant().await, app.tenant().await);
    assert_error(
        &app.get_without_key("/v1/bundle-selections").await,
        401,
        "unauthorised",
    );

    // Without a choice of its own, an account shows the catalogue's default.
    let default = app.get("/v1/bundle-selections", &a.live_key).await;
    assert_eq!(default.status, 200, "{}", default.body);
    conforms_2024("BundleSelection", &default.body);
    assert_eq!(default.body.as_array().unwrap().len(), 5);
    assert_eq!(sum_percent(&default.body), rust_decimal::Decimal::from(100));
    assert!(
        default.body[0]["percentage"].is_i64(),
        "whole percentages are integers"
    );

    let portfolios = app.get("/v1/bundle-portfolios", &a.live_key).await;
    assert_eq!(portfolios.status, 200, "{}", portfolios.body);
    let list = portfolios.body.as_array().unwrap();
    assert_eq!(list.len(), 3);
    for p in list {
        conforms_2024("BundlePortfolio", p);
        assert_eq!(
            sum_percent(&p["bundle_selection"]),
            rust_decimal::Decimal::from(100)
        );
    }
    let durable = list
        .iter()
        .find(|p| p["identifier"] == "durable-removals")
        .unwrap()
        .clone();
    let durable_id = durable["id"].as_str().unwrap();

    // Following a portfolio: its selection becomes the account's default,
    // the account names it, and a quote without bundles is split by it.
    let put = app
        .put(
            "/v1/bundle-portfolios",
            &a.live_key,
            &json!({"bundle_portfolio_id": durable_id}),
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    conforms_2024("BundlePortfolio", &put.body);
    assert_eq!(put.body, durable);
    let me = app.get("/v1/accounts/me", &a.live_key).await;
    assert_eq!(me.body["bundle_portfolio_id"], durable_id);
    let now = app.get("/v1/bundle-selections", &a.live_key).await;
    assert_eq!(now.body, durable["bundle_selection"]);
    let quote = app
        .post(
            "/v1/orders/by-mass/quote",
            &a.live_key,
            &json!({"mass": {"amount": "10", "unit": "t"}}),
        )
        .await;
    assert_eq!(quote.status, 200, "{}", quote.body);
    assert_eq!(
        bundle_ids_of(&quote.body["bundles"]),
        bundle_ids_of(&durable["bundle_selection"])
    );
    // Nobody else's default moved: not the test sibling, not another organisation.
    for key in [&a.test_key, &b.live_key] {
        let other = app.get("/v1/bundle-selections", key).await;
        assert_eq!(other.body, default.body);
    }
    let b_me = app.get("/v1/accounts/me", &b.live_key).await;
    assert_eq!(b_me.body["bundle_portfolio_id"], Value::Null);

    // An own selection replaces the portfolio.
    let ids = bundle_ids_of(&default.body);
    let own = app
        .put(
            "/v1/bundle-selections",
            &a.live_key,
            &json!([
                {"bundle_id": ids[0], "percentage": "33.33"},
                {"bundle_id": ids[1], "percentage": "66.67"},
            ]),
        )
        .await;
    assert_eq!(own.status, 200, "{}", own.body);
    conforms_2024("BundleSelection", &own.body);
    assert_eq!(own.body[0]["percentage"], "33.33");
    assert_eq!(
        app.get("/v1/bundle-selections", &a.live_key).await.body,
        own.body
    );
    let me = app.get("/v1/accounts/me", &a.live_key).await;
    assert_eq!(me.body["bundle_portfolio_id"], Value::Null);
    let equal = app
        .put(
            "/v1/bundle-selections",
            &a.live_key,
            &json!([{"bundle_id": ids[0]}, {"bundle_id": ids[1]}, {"bundle_id": ids[2]}]),
        )
        .await;
    assert_eq!(equal.status, 200, "{}", equal.body);
    assert_eq!(
        equal
            .body
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["percentage"].as_str().unwrap())
            .collect::<Vec<_>>(),
        vec!["33.34", "33.33", "33.33"]
    );

    // Bad input: the contract's 4xx, and nothing written.
    let nowhere = "0".repeat(32);
    for (body, status, code) in [
        (json!([]), 400, "bundle_selection_ratios_invalid"),
        (
            json!([{"bundle_id": ids[0], "percentage": 40}, {"bundle_id": ids[1], "percentage": 50}]),
            400,
            "bundle_selection_ratios_invalid",
        ),
        (
            json!([{"bundle_id": ids[0], "percentage": "100.001"}]),
            400,
            "bundle_selection_ratios_invalid_format",
        ),
        (
            json!([{"bundle_id": ids[0], "percentage": 60}, {"bundle_id": ids[1]}]),
            400,
            "bundle_selection_ratios_invalid_format",
        ),
        (
            json!([{"bundle_id": nowhere, "percentage": 100}]),
            400,
            "bundle_id_invalid",
        ),
        (
            json!([{"bundle_id": ids[0], "percentage": 50}, {"bundle_id": ids[0], "percentage": 50}]),
            400,
            "bundle_id_invalid",
        ),
        (
            json!([{"bundle_id": ids[0], "percentage": null}]),
            400,
            "validation_error",
        ),
        (
            json!([{"bundle_id": ids[0], "percentage": 100, "share": 1}]),
            400,
            "validation_error",
        ),
        (json!({"bundle_id": ids[0]}), 400, "validation_error"),
        (Value::Null, 400, "validation_error"),
    ] {
        let res = app.put("/v1/bundle-selections", &a.live_key, &body).await;
        assert_error(&res, status, code);
    }
    for body in [
        json!({"bundle_portfolio_id": "nope"}),
        json!({"bundle_portfolio_id": nowhere}),
        json!({"bundle_portfolio_id": null}),
        json!({}),
        json!({"bundle_portfolio_id": durable_id, "extra": true}),
    ] {
        let res = app.put("/v1/bundle-portfolios", &a.live_key, &body).await;
        assert_error(&res, 400, "validation_error");
    }
    let plain = app
        .send(
            app.request(Method::PUT, "/v1/bundle-selections", Some(&a.live_key))
                .body("[]"),
        )
        .await;
    assert_error(&plain, 415, "unsupported_media_type");
    assert_eq!(
        app.get("/v1/bundle-selections", &a.live_key).await.body,
        equal.body,
        "no refused request changed the selection"
    );
    let me = app.get("/v1/accounts/me", &a.live_key).await;
    assert_eq!(me.body["bundle_portfolio_id"], Value::Null);

    // The OpenAPI document lists the routes under the contract's operation ids.
    let doc = app.get_without_key("/v1/openapi.json").await;
    for (path, method, operation) in [
        ("/v1/bundle-selections", "get", "getBundleSelection"),
        ("/v1/bundle-selections", "put", "updateBundleSelection"),
        ("/v1/bundle-portfolios", "get", "listAllBundlePortfolios"),
        ("/v1/bundle-portfolios", "put", "updateBundlePortfolio"),
    ] {
        assert_eq!(
            doc.body["paths"][path][method]["operationId"], operation,
            "{method} {path}"
        );
    }
    assert!(doc.body["components"]["schemas"]["BundlePortfolio"].is_object());
}
