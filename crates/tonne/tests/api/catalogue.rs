//! The catalogue and quotes, end to end.

use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{TestApp, assert_error, conforms, conforms_2024};
use tonne_test_support::on_both_backends;

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

async fn bundle_selections_and_portfolios_follow_the_2024_contract(app: TestApp) {
    app.demo_catalogue().await;
    let (a, b) = (app.tenant().await, app.tenant().await);
    assert_error(
        &app.send(app.request(Method::GET, "/v1/bundle-selections", None))
            .await,
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
    let doc = app
        .send(app.request(Method::GET, "/v1/openapi.json", None))
        .await;
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

    // The 2024 fields carry the catalogue's facts, null where it has none.
    let reserves = app
        .send(app.request(Method::GET, "/v1/projects/by-slug/18-reserves", None))
        .await;
    assert_eq!(reserves.status, 200, "{}", reserves.body);
    conforms("Project", &reserves.body);
    assert_eq!(reserves.body["crediting_start_date"], "2020-01-15");
    assert_eq!(reserves.body["crediting_end_date"], "2040-01-14");
    assert_eq!(reserves.body["verifying_body"], "SCS Global Services");
    assert_eq!(reserves.body["protocol"], json!(["ACR Standard"]));
    assert_eq!(
        reserves.body["registry_link"],
        "https://acr2.apx.com/mymodule/reg/prjView.asp?id1=586"
    );
    assert_eq!(reserves.body["country_code"], "USA");
    assert_eq!(reserves.body["impact_summary"], Value::Null);
    assert_eq!(reserves.body["bundles"][0]["name"], "Forest Protection");
    let delta = app
        .send(app.request(Method::GET, "/v1/projects/by-slug/delta-blue-carbon", None))
        .await;
    assert_eq!(delta.body["methodology"], "VM0033");
    assert_eq!(delta.body["avg_annual_emission_reductions"], "2366666.67");
    let mammoth = app
        .send(app.request(Method::GET, "/v1/projects/by-slug/climeworks-mammoth", None))
        .await;
    for unknown in [
        "methodology",
        "protocol",
        "crediting_start_date",
        "verifying_body",
    ] {
        assert_eq!(mammoth.body[unknown], Value::Null, "{unknown}");
    }
    let all = app.get("/v1/bundles?limit=100", &t.live_key).await;
    conforms("PaginatedBundles", &all.body);
    for b in all.body["data"].as_array().unwrap() {
        assert!(
            ["long_term", "short_term"].contains(&b["carbon_permanence"].as_str().unwrap()),
            "{b}"
        );
        assert!(
            ["traditional", "innovative"].contains(&b["approach"].as_str().unwrap()),
            "{b}"
        );
    }
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
    bundle_selections_and_portfolios_follow_the_2024_contract,
);
