//! Property test over the accounts, catalogue, order, quote and estimate
//! endpoints: whatever is sent, the answer is never a 5xx, every error has the
//! contract's `Errors` shape, a refused request writes nothing (accounts,
//! estimates, orders), and the server keeps serving.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use reqwest::Method;
use serde_json::{Map, Value, json};
use tonne_test_support::TestDb;

use crate::support::{Tenant, TestApp, conforms_error};

#[derive(Debug, Clone)]
struct Fuzzed {
    method: Method,
    segments: Vec<String>,
    query: Vec<(String, String)>,
    key: u8,
    lune_account: Option<String>,
    content_type: Option<&'static str>,
    body: Body,
}

#[derive(Debug, Clone)]
enum Body {
    None,
    Json(Value),
    Bytes(Vec<u8>),
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "\\PC{0,24}".prop_map(Value::String),
        Just(json!("GBP")),
        Just(json!("live")),
        Just(json!("x".repeat(300))),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("name".to_owned()),
                    Just("currency".to_owned()),
                    Just("beneficiary".to_owned()),
                    Just("bundle_portfolio_id".to_owned()),
                    Just("sibling_id".to_owned()),
                    Just("mass".to_owned()),
                    Just("amount".to_owned()),
                    Just("unit".to_owned()),
                    Just("value".to_owned()),
                    Just("bundle_selection".to_owned()),
                    Just("percentage".to_owned()),
                    Just("bundle_id".to_owned()),
                    Just("consumption".to_owned()),
                    Just("country_code".to_owned()),
                    Just("route".to_owned()),
                    Just("source".to_owned()),
                    Just("code".to_owned()),
                    Just("locode".to_owned()),
                    Just("legs".to_owned()),
                    Just("shipment".to_owned()),
                    Just("method".to_owned()),
                    Just("merchant".to_owned()),
                    Just("category_code".to_owned()),
                    Just("estimate_id".to_owned()),
                    "[a-z_]{1,10}",
                ],
                inner,
                0..5,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("accounts".to_owned()),
        Just("client".to_owned()),
        Just("me".to_owned()),
        Just("orders".to_owned()),
        Just("by-mass".to_owned()),
        Just("by-value".to_owned()),
        Just("quote".to_owned()),
        Just("bundles".to_owned()),
        Just("projects".to_owned()),
        Just("by-slug".to_owned()),
        Just("estimates".to_owned()),
        Just("electricity".to_owned()),
        Just("flight".to_owned()),
        Just("shipping".to_owned()),
        Just("multi-leg".to_owned()),
        Just("transactions".to_owned()),
        Just("batch".to_owned()),
        Just("company".to_owned()),
        Just("individual".to_owned()),
        Just("passenger-transportation".to_owned()),
        Just("by-estimate".to_owned()),
        Just("OWN_LIVE".to_owned()),
        Just("OWN_TEST".to_owned()),
        Just("OTHER_LIVE".to_owned()),
        "[0-9a-f]{32}",
        "\\PC{0,40}",
    ]
}

fn fuzzed() -> impl Strategy<Value = Fuzzed> {
    let method = prop_oneof![
        Just(Method::GET),
        Just(Method::POST),
        Just(Method::PUT),
        Just(Method::DELETE),
        Just(Method::PATCH)
    ];
    let segments = prop::collection::vec(segment(), 0..4).prop_map(|mut s| {
        s.insert(0, "v1".to_owned());
        s
    });
    let query = prop::collection::vec(
        (
            prop_oneof![
                Just("limit".to_owned()),
                Just("after".to_owned()),
                Just("name".to_owned()),
                "[a-z]{1,6}"
            ],
            prop_oneof![
                "-?[0-9]{0,25}".boxed(),
                "\\PC{0,30}".boxed(),
                "[0-9a-f]{32}".boxed(),
            ],
        ),
        0..4,
    );
    let body = prop_oneof![
        Just(Body::None),
        json_value().prop_map(Body::Json),
        prop::collection::vec(any::<u8>(), 0..200).prop_map(Body::Bytes),
    ];
    let content_type = prop_oneof![
        Just(Some("application/json")),
        Just(None),
        Just(Some("text/plain")),
        Just(Some("application/json; charset=utf-8"))
    ];
    let lune = prop::option::of(prop_oneof![
        Just("OTHER_LIVE".to_owned()),
        Just("OWN_TEST".to_owned()),
        Just("OWN_LIVE".to_owned()),
        "\\PC{0,40}"
    ]);
    (method, segments, query, 0_u8..4, lune, content_type, body).prop_map(
        |(method, segments, query, key, lune_account, content_type, body)| Fuzzed {
            method,
            segments,
            query,
            key,
            lune_account,
            content_type,
            body,
        },
    )
}

fn resolve(token: &str, a: &Tenant, b: &Tenant) -> String {
    match token {
        "OWN_LIVE" => a.live_account.clone(),
        "OWN_TEST" => a.test_account.clone(),
        "OTHER_LIVE" => b.live_account.clone(),
        other => other.to_owned(),
    }
}

async fn exercise(app: &TestApp, a: &Tenant, b: &Tenant, f: &Fuzzed) -> Result<(), TestCaseError> {
    let mut url = reqwest::Url::parse(&app.base).unwrap();
    {
        let mut path = url.path_segments_mut().unwrap();
        for s in &f.segments {
            path.push(&resolve(s, a, b));
        }
    }
    if !f.query.is_empty() {
        let mut pairs = url.query_pairs_mut();
        for (k, v) in &f.query {
            pairs.append_pair(k, v);
        }
    }
    let mut req = app.client.request(f.method.clone(), url.clone());
    match f.key {
        0 => req = req.bearer_auth(&a.live_key),
        1 => req = req.bearer_auth(&a.test_key),
        2 => req = req.bearer_auth("tonne_live_garbage"),
        _ => {}
    }
    if let Some(acting) = &f.lune_account
        && let Ok(value) = reqwest::header::HeaderValue::from_str(&resolve(acting, a, b))
    {
        req = req.header("Lune-Account", value);
    }
    if let Some(ct) = f.content_type {
        req = req.header("Content-Type", ct);
    }
    req = match &f.body {
        Body::None => req,
        Body::Json(v) => req.body(serde_json::to_vec(v).unwrap()),
        Body::Bytes(b) => req.body(b.clone()),
    };
    let before = (app.count_accounts(a).await, app.count_accounts(b).await);
    let rows_before = app.count_estimates_and_orders().await;
    let res = app.send(req).await;
    let after = (app.count_accounts(a).await, app.count_accounts(b).await);
    let rows_after = app.count_estimates_and_orders().await;
    let status = res.status.as_u16();
    prop_assert!(
        status < 500,
        "{} {url} answered {status}: {}",
        f.method,
        res.body
    );
    if status >= 400 {
        prop_assert!(
            res.body["errors"][0]["error_code"].is_string(),
            "{} {url} {status}: not an Errors body: {}",
            f.method,
            res.body
        );
        conforms_error(status, &res.body);
        prop_assert_eq!(
            before,
            after,
            "a refused request wrote something: {} {}",
            f.method,
            url
        );
        prop_assert_eq!(
            rows_before,
            rows_after,
            "a refused request stored an estimate or an order: {} {}",
            f.method,
            url
        );
    }
    prop_assert_eq!(
        before.1,
        after.1,
        "another organisation's accounts changed: {} {}",
        f.method,
        url
    );
    Ok(())
}

fn run(db: TestDb, cases: u32) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let app = rt.block_on(TestApp::spawn(db));
    let (a, b) = rt.block_on(async {
        app.demo_catalogue().await;
        (app.tenant().await, app.tenant().await)
    });
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&fuzzed(), |f| rt.block_on(exercise(&app, &a, &b, &f)));
    if let Err(e) = result {
        panic!("{e}");
    }
    let health = rt.block_on(app.send(app.request(Method::GET, "/health", None)));
    assert_eq!(health.status, 200, "the server keeps serving");
    drop(app);
}

#[test]
fn no_input_makes_the_accounts_api_fail_or_write_on_sqlite() {
    run(TestDb::sqlite(), 300);
}

#[test]
fn no_input_makes_the_accounts_api_fail_or_write_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        run(db, 150);
    }
}

/// Valid estimate requests, one per route, that the mutations start from.
fn seeds() -> Vec<(&'static str, Value)> {
    let money = |v: &str| json!({"value": v, "currency": "GBP"});
    vec![
        (
            "/v1/estimates/electricity",
            json!({"consumption": {"amount": "1000", "unit": "kWh"}, "country_code": "GBR"}),
        ),
        (
            "/v1/estimates/flight",
            json!({"route": {"source": {"code": "LHR"}, "destination": {"code": "JFK"}}, "cabin_class": "business", "passengers": 2}),
        ),
        (
            "/v1/estimates/passenger-transportation",
            json!({"passengers": 2, "legs": [
            {"route": {"amount": "100", "unit": "km"}, "vehicle_type": "car_mini"},
            {"route": {"source": {"lat": 48.8, "lon": 2.3}, "destination": {"lat": 45.7, "lon": 4.8}}, "rail_type": "national_rail"},
            {"route": {"amount": "900", "unit": "mi"}, "cabin_class": "first"}]}),
        ),
        (
            "/v1/estimates/shipping",
            json!({"shipment": {"containers": "2", "cargo_type": "heavyweight"},
            "route": {"source": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}},
            "method": {"vessel_type": "container_ship", "refrigerated": true, "trade_lane": "aggregated_transsuez"}}),
        ),
        (
            "/v1/estimates/shipping/multi-leg",
            json!({"shipment": {"mass": {"amount": "5", "unit": "t"}}, "legs": [
            {"route": {"amount": "50", "unit": "km"}, "method": "truck_rigid_12t"},
            {"route": {"source": {"code": "FRA"}, "destination": {"code": "ORD"}}, "method": "cargo_plane"},
            {"route": {"source": {"locode": "USNYC"}, "destination": {"lat": 51.9, "lon": 4.4}}, "method": {"vessel_type": "sea_bulk_carrier_large", "fuel": "MGO", "load": "heavy"}}]}),
        ),
        (
            "/v1/estimates/transactions",
            json!({"value": money("12.50"), "merchant": {"country_code": "GBR", "category_code": "5411"}, "diet": "vegan"}),
        ),
        (
            "/v1/estimates/transactions/batch",
            json!([
            {"value": money("1"), "merchant": {"country_code": "USA", "fuzzy_search_term": "coffee"}},
            {"value": money("2"), "merchant": {"country_code": "FRA", "category_code": "6011"}}]),
        ),
        (
            "/v1/estimates/company",
            json!({"employees": 5, "remote_employees_percentage": 50,
            "office_area": {"amount": "100", "unit": "square_feet"}, "country_code": "DEU",
            "electricity_consumption": 0, "green_electricity_used": false, "gas_consumption": 0,
            "company_cars": 1, "average_car_distance_travelled": {"amount": "1000", "unit": "km"},
            "employees_using_public_transport": 2, "short_flights": 1, "medium_flights": 1, "long_flights": 1,
            "first_or_business_class_percentage": 0, "food_and_drinks_expenses": money("100"),
            "vegetarian_and_vegan_percentage": 100, "electronic_device_expenses": money("100"),
            "garbage": 10, "recycled_garbage_percentage": 0, "months": 3,
            "tech": {"cloud": {"cost": money("10"), "provider": "gcp"}}}),
        ),
        (
            "/v1/estimates/individual",
            json!({"country_code": "SWE", "car_use": true, "car_fuel_type": "electric",
            "average_car_distance_travelled": {"amount": "100", "unit": "nm"},
            "short_flights": 0, "medium_flights": 0, "long_flights": 3, "days_per_week_using_public_transport": 7,
            "diet": "fish_eater", "monthly_grocery_expenses": money("1"), "monthly_restaurant_expenses": money("1"),
            "monthly_clothing_expenses": money("1"), "monthly_furniture_appliances_expenses": money("1"),
            "monthly_other_expenses": money("1"), "electricity_consumption": 1, "green_electricity_used": true,
            "gas_consumption": 1}),
        ),
    ]
}

/// Replaces the `n`-th value (depth first, containers included) with `with`,
/// or removes it from its object when `with` is `None`.
fn mutate(value: &mut Value, n: &mut usize, with: &Option<Value>) -> bool {
    if *n == 0 {
        if let Some(v) = with {
            *value = v.clone();
        }
        return with.is_some();
    }
    *n -= 1;
    match value {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                if *n == 0 && with.is_none() {
                    map.remove(&k);
                    return true;
                }
                if mutate(map.get_mut(&k).unwrap(), n, with) {
                    return true;
                }
            }
            false
        }
        Value::Array(items) => items.iter_mut().any(|v| mutate(v, n, with)),
        _ => false,
    }
}

/// Mutated estimate requests (and orders of whatever was estimated): never a
/// 5xx, always an `Errors` body when refused, and a refused request stores nothing.
fn run_estimates(db: TestDb, cases: u32) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let app = rt.block_on(TestApp::spawn(db));
    let t = rt.block_on(async {
        app.demo_catalogue().await;
        app.tenant().await
    });
    let seeds = seeds();
    let strategy = (
        0..seeds.len(),
        prop::collection::vec((0_usize..60, prop::option::of(json_value())), 1..4),
        any::<bool>(),
    );
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&strategy, |(i, mutations, use_put)| {
        rt.block_on(async {
            let (path, seed) = &seeds[i];
            let mut body = seed.clone();
            for (at, with) in &mutations {
                let mut n = *at;
                mutate(&mut body, &mut n, with);
            }
            let before = app.count_estimates_and_orders().await;
            let updatable = [
                "electricity",
                "shipping",
                "multi-leg",
                "transactions",
                "company",
            ]
            .iter()
            .any(|k| path.ends_with(k));
            let res = if use_put && updatable {
                // update an estimate made from the seed
                let made = app.post(path, &t.live_key, seed).await;
                let id = made.body["id"].as_str().unwrap_or("0").to_owned();
                let before = app.count_estimates_and_orders().await;
                let res = app.put(&format!("{path}/{id}"), &t.live_key, &body).await;
                let status = res.status.as_u16();
                prop_assert!(
                    status < 500,
                    "PUT {path} {body} answered {status}: {}",
                    res.body
                );
                if status >= 400 {
                    prop_assert_eq!(before, app.count_estimates_and_orders().await);
                }
                res
            } else {
                app.post(path, &t.live_key, &body).await
            };
            let status = res.status.as_u16();
            prop_assert!(
                status < 500,
                "{path} {body} answered {status}: {}",
                res.body
            );
            if status >= 400 {
                conforms_error(status, &res.body);
                if !(use_put && updatable) {
                    prop_assert_eq!(
                        before,
                        app.count_estimates_and_orders().await,
                        "refused {} {} stored something",
                        path,
                        body
                    );
                }
            } else if status == 200 && !path.ends_with("batch") {
                // whatever was estimated can be ordered (or is refused cleanly)
                let order = app
                    .post(
                        "/v1/orders/by-estimate",
                        &t.live_key,
                        &json!({"estimate_id": res.body["id"]}),
                    )
                    .await;
                prop_assert!(
                    order.status.as_u16() < 500,
                    "order of {}: {}",
                    res.body,
                    order.body
                );
            }
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn mutated_estimate_requests_never_fail_or_write_when_refused_on_sqlite() {
    run_estimates(TestDb::sqlite(), 250);
}

#[test]
fn mutated_estimate_requests_never_fail_or_write_when_refused_on_postgres() {
    if let Some(db) = TestDb::postgres() {
        run_estimates(db, 100);
    }
}
