//! Emissions: hub legs counted with leg fields answered as sent, and
//! calculations filled in.

use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use serde_json::json;

use super::client_models::assert_client_shipment;
use super::fixtures::{assert_adds_up, dec, good_row, processed, simple_row, upload_ok};
use crate::support::{TestApp, assert_error};

/// A hub (logistics site) leg is calculated and counts in the total; every
/// leg's `order` answers as sent; a road leg given by the fuel it burnt
/// answers its litres; an unknown site or a negative mass fails the row
/// naming the field, and no shipment is written for it.
pub(super) async fn hub_legs_count_and_leg_fields_answer_as_sent(app: TestApp) {
    let t = app.tenant().await;
    let hub_row = json!({
        "shipment_id": "HUB-1",
        "target_internal_id": "carrier-3",
        "legs": [
            {"order": 1, "carriage": "pre", "leg_id": "road",
             "method": {"vehicle_type": "truck", "fuel": "diesel",
                        "fuel_consumption": {"amount": "85", "unit": "l"}},
             "distance": {"amount": "250", "unit": "km"},
             "load": {"mass": {"amount": "12", "unit": "t"}}},
            {"order": 2, "carriage": "main", "leg_id": "hub", "method": "warehouse_ambient"},
            {"order": 3, "carriage": "on", "method": {"train_type": "electric_freight_train"},
             "distance": {"amount": "300", "unit": "km"}}
        ]
    });
    let mut unknown_site = hub_row.clone();
    unknown_site["shipment_id"] = json!("HUB-2");
    unknown_site["legs"][1]["method"] = json!("warehouse_frozen");
    let mut negative = hub_row.clone();
    negative["shipment_id"] = json!("HUB-3");
    negative["legs"][0]["load"]["mass"]["amount"] = json!("-12");
    let id = upload_ok(
        &app,
        &t.live_key,
        vec![hub_row, unknown_site, negative],
        true,
    )
    .await;
    let batch = processed(&app, &t.live_key, &id).await;
    assert_eq!(batch["success_count"], 1, "{batch}");
    assert_eq!(batch["failed_count"], 2);
    let results = batch["results"].as_array().unwrap();
    assert!(
        results[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("legs[1].method"),
        "{batch}"
    );
    assert!(
        results[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("legs[0].load.mass.amount"),
        "{batch}"
    );
    assert!(results[1]["shipment_id"].is_null() && results[2]["shipment_id"].is_null());
    let list = app.get("/v1/shipments", &t.live_key).await;
    assert_eq!(
        list.body["data"].as_array().unwrap().len(),
        1,
        "{}",
        list.body
    );

    let shipment = results[0]["shipment_id"].as_str().unwrap();
    let res = app
        .get(&format!("/v1/shipments/{shipment}"), &t.live_key)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let s = &res.body;
    assert_client_shipment(s);
    assert_adds_up(s);
    let legs = s["legs"].as_array().unwrap();
    for (i, leg) in legs.iter().enumerate() {
        assert_eq!(leg["order"], i + 1, "{leg}");
    }
    // the hub: GLEC Framework v3.0 default, warehouse ambient 17.5 kg CO2e
    // per tonne handled: 12 t × 17.5 = 210 kg, all well-to-tank [A]
    let hub = &legs[1]["emissions"];
    assert_eq!(legs[1]["method"], "warehouse_ambient");
    assert_eq!(dec(&hub["total_emissions"]), Decimal::from(210));
    assert_eq!(dec(&hub["wtt"]), Decimal::from(210));
    assert_eq!(dec(&hub["ttw"]), Decimal::ZERO);
    assert_eq!(hub["emission_factor_intensity"], "17.5");
    assert_eq!(hub["emission_factor_denominator"], "t");
    assert_eq!(hub["emission_factor_year"], 2023);
    assert_eq!(dec(&s["main_carriage_total"]), Decimal::from(210));
    // the road leg given by fuel: its litres
    assert_eq!(legs[0]["emissions"]["fuel_consumption_l"], "85");
    assert_eq!(legs[0]["method"]["fuel_consumption"]["amount"], "85");
    assert!(legs[2]["emissions"]["fuel_consumption_l"].is_null());
}

pub(super) async fn a_calculation_fills_in_the_emissions(app: TestApp) {
    let t = app.tenant().await;
    let id = upload_ok(
        &app,
        &t.live_key,
        vec![
            good_row("C-1", "2026-03-01"),
            simple_row("C-2", "plane", "2026-03-02"),
        ],
        false,
    )
    .await;
    let batch = processed(&app, &t.live_key, &id).await;
    assert_eq!(batch["success_count"], 2, "{batch}");
    let shipment = batch["results"][0]["shipment_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let before = app
        .get(&format!("/v1/shipments/{shipment}"), &t.live_key)
        .await;
    assert_client_shipment(&before.body);
    assert!(before.body["emissions_source"].is_null());
    assert!(before.body["total_emissions"].is_null());
    assert!(before.body["legs"][0]["emissions"].is_null());

    let res = app
        .send(app.request(
            reqwest::Method::POST,
            &format!("/v1/shipments/calculate?shipment_batch_id={id}&emissions=without_co2e"),
            Some(&t.live_key),
        ))
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let ids = res.body["calculation_batch_ids"].as_array().unwrap();
    assert_eq!(ids.len(), 1);
    assert!(ids[0].is_string());

    let deadline = Instant::now() + Duration::from_secs(60);
    let after = loop {
        let res = app
            .get(&format!("/v1/shipments/{shipment}"), &t.live_key)
            .await;
        if res.body["emissions_source"] == "lune" {
            break res.body;
        }
        assert!(Instant::now() < deadline, "not calculated: {}", res.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_client_shipment(&after);
    assert_adds_up(&after);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let res = app
            .get(
                "/v1/shipments?emissions=with_co2e&include_totals=true",
                &t.live_key,
            )
            .await;
        if res.body["total"]["with_co2e"] == 2 {
            assert_eq!(res.body["total"]["without_co2e"], 0);
            break;
        }
        assert!(Instant::now() < deadline, "not calculated: {}", res.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // a bad filter of the query: 400 naming it, nothing queued
    let res = app
        .send(app.request(
            reqwest::Method::POST,
            "/v1/shipments/calculate?shipment_date_from=yesterday",
            Some(&t.live_key),
        ))
        .await;
    assert_error(&res, 400, "validation_error");
}
