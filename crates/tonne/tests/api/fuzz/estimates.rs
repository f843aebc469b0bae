//! Valid estimate requests, mutated: never a 5xx, an `Errors` body when
//! refused, nothing stored by a refusal.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};
use tonne_test_support::TestDb;

use super::json_values::json_value;
use crate::support::{TestApp, conforms_error};

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
pub(super) fn run_estimates(db: TestDb, cases: u32) {
    let rt = super::runtime();
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
