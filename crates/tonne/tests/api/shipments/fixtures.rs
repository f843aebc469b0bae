//! Rows and helpers of the shipments tests: good and simple rows, uploads,
//! processed batches, decimals, and emissions that add up.

use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::client_models::client_model;
use crate::support::{Reply, TestApp};

/// A row through a hub: truck pre-carriage, a warehouse, electric train
/// on-carriage.
pub(crate) fn hub_row(reference: &str) -> Value {
    json!({
        "shipment_id": reference,
        "target_internal_id": "carrier-3",
        "legs": [
            {"carriage": "pre", "method": {"vehicle_type": "truck", "fuel": "diesel"},
             "distance": {"amount": "250", "unit": "km"},
             "load": {"mass": {"amount": "12", "unit": "t"}}},
            {"carriage": "main", "method": "warehouse_ambient"},
            {"carriage": "on", "method": {"train_type": "electric_freight_train"},
             "distance": {"amount": "300", "unit": "km"}}
        ]
    })
}

/// A good row: truck pre-carriage, container ship between two known ports,
/// electric train on-carriage.
pub(crate) fn good_row(reference: &str, date: &str) -> Value {
    json!({
        "shipment_id": reference,
        "target_internal_id": "carrier-1",
        "target_internal_name": "Carrier One",
        "incoterm": "fob",
        "metadata": {"po": reference},
        "freight_cost": {"value": "1250.00", "currency": "EUR"},
        "legs": [
            {"carriage": "pre", "leg_id": "l1", "method": {"vehicle_type": "truck", "fuel": "diesel"},
             "origin": {"city": "Hamburg", "country_code": "DEU"},
             "distance": {"amount": "50", "unit": "km"},
             "load": {"mass": {"amount": "12000", "unit": "kg"}},
             "dates": {"atd": date}},
            {"carriage": "main", "method": {"vessel_type": "container_ship"},
             "origin": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}},
            {"carriage": "on", "method": {"train_type": "electric_freight_train"},
             "distance": {"amount": "300", "unit": "km"},
             "destination": {"lat": 52.37, "lon": 4.9}}
        ]
    })
}

/// A one-leg row by rail or air.
pub(super) fn simple_row(reference: &str, method: &str, date: &str) -> Value {
    json!({
        "shipment_id": reference,
        "target_internal_id": "carrier-2",
        "legs": [{"carriage": "main", "method": method, "distance": {"amount": "800", "unit": "km"},
                  "load": {"mass": {"amount": "3", "unit": "t"}}, "dates": {"etd": date}}]
    })
}

pub(super) async fn upload(app: &TestApp, key: &str, body: Value) -> Reply {
    app.post("/v1/shipments/batches", key, &body).await
}

pub(crate) async fn upload_ok(
    app: &TestApp,
    key: &str,
    rows: Vec<Value>,
    calculate: bool,
) -> String {
    let res = upload(
        app,
        key,
        json!({"shipments": rows, "calculate_emissions": calculate}),
    )
    .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body.as_object().unwrap().len(), 1);
    res.body["id"].as_str().unwrap().to_owned()
}

pub(crate) async fn processed(app: &TestApp, key: &str, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let res = app.get(&format!("/v1/shipments/batches/{id}"), key).await;
        assert_eq!(res.status, 200, "{}", res.body);
        client_model("ShipmentBatch", &res.body);
        if res.body["status"] == "processed" {
            return res.body;
        }
        assert_eq!(
            res.body.as_object().unwrap().len(),
            3,
            "pending and processing: id, status, source: {}",
            res.body
        );
        assert!(Instant::now() < deadline, "not processed: {}", res.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(crate) fn dec(v: &Value) -> Decimal {
    v.as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {v}"))
        .parse()
        .unwrap()
}

/// Well-to-wheel everywhere: each leg's total is its wtt + ttw, each phase
/// the sum of its legs, the shipment the sum of its phases and of its legs.
pub(super) fn assert_adds_up(s: &Value) {
    let mut phases = [Decimal::ZERO; 3];
    let mut all = Decimal::ZERO;
    for leg in s["legs"].as_array().unwrap() {
        let e = &leg["emissions"];
        assert_eq!(
            dec(&e["total_emissions"]),
            dec(&e["wtt"]) + dec(&e["ttw"]),
            "{leg}"
        );
        assert!(dec(&e["total_emissions"]) > Decimal::ZERO);
        let i = match leg["carriage"].as_str().unwrap() {
            "pre" => 0,
            "main" => 1,
            _ => 2,
        };
        phases[i] += dec(&e["total_emissions"]);
        all += dec(&e["total_emissions"]);
    }
    for (i, phase) in ["pre", "main", "on"].iter().enumerate() {
        let total = dec(&s[format!("{phase}_carriage_total")]);
        assert_eq!(total, phases[i], "{phase}");
        assert_eq!(
            total,
            dec(&s[format!("{phase}_carriage_wtt")]) + dec(&s[format!("{phase}_carriage_ttw")])
        );
    }
    assert_eq!(dec(&s["total_emissions"]), all);
    assert_eq!(dec(&s["total_emissions"]), dec(&s["wtt"]) + dec(&s["ttw"]));
    assert!(s["intensity"].is_string());
    for pollutant in [
        "particles_total",
        "nitrogen_oxides_main_carriage_wtt",
        "carbon_dioxide_ttw",
    ] {
        assert!(s[pollutant].is_null());
    }
}
