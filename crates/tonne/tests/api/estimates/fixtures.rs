//! Shared helpers of the estimate tests: requests, masses, sample bodies and
//! the check of an answer's explanation.

use serde_json::{Value, json};

use crate::support::{Reply, TestApp};

/// `PATCH` with a JSON body.
pub(super) async fn patch(app: &TestApp, path: &str, key: &str, body: &Value) -> Reply {
    app.send(
        app.request(reqwest::Method::PATCH, path, Some(key))
            .json(body),
    )
    .await
}

pub(super) fn tonnes(v: &Value) -> f64 {
    v["amount"].as_str().unwrap().parse::<f64>().unwrap()
}

/// Exact grams of a `Mass` in tonnes (at most 6 decimals).
pub(super) fn grams(v: &Value) -> i64 {
    let amount = v["amount"].as_str().unwrap();
    let (whole, fraction) = amount.split_once('.').unwrap_or((amount, ""));
    assert!(fraction.len() <= 6, "{amount}");
    format!("{whole}{fraction:0<6}").parse().unwrap()
}

pub(crate) fn company() -> Value {
    json!({
        "employees": 50, "remote_employees_percentage": 20,
        "office_area": {"amount": "800", "unit": "square_meters"},
        "country_code": "GBR", "electricity_consumption": 60000, "green_electricity_used": false,
        "gas_consumption": 5000, "company_cars": 3,
        "average_car_distance_travelled": {"amount": "15000", "unit": "km"},
        "employees_using_public_transport": 30, "short_flights": 40, "medium_flights": 10,
        "long_flights": 5, "first_or_business_class_percentage": 10,
        "food_and_drinks_expenses": {"value": "20000", "currency": "GBP"},
        "vegetarian_and_vegan_percentage": 30,
        "electronic_device_expenses": {"value": "30000", "currency": "GBP"},
        "garbage": 4000, "recycled_garbage_percentage": 50,
        "tech": {"cloud": {"cost": {"value": "12000", "currency": "USD"}, "provider": "aws"},
                 "on_premise": {"electricity_cost": {"value": "1000", "currency": "EUR"}}}
    })
}

pub(super) fn individual() -> Value {
    let m = |v: &str| json!({"value": v, "currency": "EUR"});
    json!({
        "country_code": "FRA", "car_use": true, "short_flights": 2, "medium_flights": 1,
        "long_flights": 1, "days_per_week_using_public_transport": 3, "diet": "medium_meat_eater",
        "monthly_grocery_expenses": m("300"), "monthly_restaurant_expenses": m("100"),
        "monthly_clothing_expenses": m("50"), "monthly_furniture_appliances_expenses": m("30"),
        "monthly_other_expenses": m("200"), "electricity_consumption": 2500,
        "green_electricity_used": false, "gas_consumption": 800
    })
}

pub(super) fn sea() -> Value {
    json!({"source": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}})
}

/// An answer's explanation (Tonne's extension): parts whose masses add up to
/// the estimate's mass exactly, each factor with its provenance.
pub(super) fn explained(path: &str, body: &Value) {
    let grams = |m: &Value| {
        let t: rust_decimal::Decimal = m["amount"].as_str().unwrap().parse().unwrap();
        t * rust_decimal::Decimal::from(1_000_000)
    };
    let parts = body["explanation"]["parts"]
        .as_array()
        .unwrap_or_else(|| panic!("{path}: {body}"));
    assert!(!parts.is_empty(), "{path}");
    let sum: rust_decimal::Decimal = parts.iter().map(|p| grams(&p["mass"])).sum();
    assert_eq!(sum, grams(&body["mass"]), "{path}: Σ parts = mass");
    for p in parts {
        for f in p["factors"].as_array().unwrap() {
            for field in ["id", "value", "unit", "source"] {
                assert!(
                    f[field].as_str().is_some_and(|v| !v.is_empty()),
                    "{path}: {f}"
                );
            }
        }
        for q in p["quantities"].as_array().unwrap() {
            assert!(
                q["amount"].as_str().is_some() && q["method"].as_str().is_some(),
                "{path}: {q}"
            );
        }
    }
}
