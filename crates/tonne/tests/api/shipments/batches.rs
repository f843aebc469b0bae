//! Batches processed row by row with the failing field named; a used
//! idempotency key.

use rust_decimal::Decimal;
use serde_json::json;

use super::client_models::{assert_client_shipment, client_model};
use super::fixtures::{assert_adds_up, dec, good_row, processed, upload, upload_ok};
use crate::support::{TestApp, assert_error, assert_error_2024};

pub(super) async fn a_batch_is_processed_row_by_row_with_fields_named(app: TestApp) {
    let t = app.tenant().await;
    let mut bad_enum = good_row("BAD-1", "2026-03-01");
    bad_enum["legs"][1]["method"] = json!({"vehicle_type": "hovercraft", "fuel": "diesel"});
    let mut bad_field = good_row("BAD-2", "2026-03-01");
    bad_field["legs"][0]["colour"] = json!("red");
    let mut negative = good_row("BAD-3", "2026-03-01");
    negative["legs"][0]["load"]["mass"]["amount"] = json!("-12");
    let id = upload_ok(
        &app,
        &t.live_key,
        vec![
            good_row("PO-1", "2026-03-01"),
            bad_enum,
            bad_field,
            negative,
        ],
        true,
    )
    .await;
    let batch = processed(&app, &t.live_key, &id).await;
    assert_eq!(batch["success_count"], 1, "{batch}");
    assert_eq!(batch["failed_count"], 3);
    let results = batch["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    assert_eq!(results[0]["status"], "success");
    let errors: Vec<&str> = results[1..]
        .iter()
        .map(|r| r["error"].as_str().unwrap())
        .collect();
    assert!(
        errors[0].starts_with("legs[1].method.vehicle_type: "),
        "{errors:?}"
    );
    assert!(errors[1].starts_with("legs[0].colour: "), "{errors:?}");
    assert!(
        errors[2].starts_with("legs[0].load.mass.amount: "),
        "{errors:?}"
    );

    // the batch in the list, with its counts
    let list = app.get("/v1/shipments/batches", &t.live_key).await;
    assert_eq!(list.status, 200, "{}", list.body);
    client_model("PaginatedShipmentBatches", &list.body);
    let summary = &list.body["data"][0];
    assert_eq!(summary["id"], id.as_str());
    assert_eq!(summary["status"], "processed");
    assert_eq!(summary["source"], "api");
    assert_eq!(summary["success_count"], 1);
    assert!(summary["batch_error"].is_null() && summary["filename"].is_null());
    let filtered = app
        .get("/v1/shipments/batches?source=data_sheet", &t.live_key)
        .await;
    assert_eq!(filtered.body["data"], json!([]));

    // the shipment: legs as sent, emissions that add up
    let shipment_id = results[0]["shipment_id"].as_str().unwrap();
    let res = app
        .get(&format!("/v1/shipments/{shipment_id}"), &t.live_key)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let s = &res.body;
    assert_client_shipment(s);
    assert_adds_up(s);
    assert_eq!(s["shipment_id"], "PO-1");
    assert_eq!(s["supplier_name"], "Carrier One");
    assert_eq!(s["shipper_id"], t.live_account.as_str());
    assert_eq!(s["emissions_source"], "lune");
    assert_eq!(s["incoterm"], "fob");
    assert_eq!(
        s["freight_cost"],
        json!({"value": "1250.00", "currency": "EUR"})
    );
    assert_eq!(s["origin_city"], "Hamburg");
    assert_eq!(s["destination_latitude"], "52.37");
    let legs = s["legs"].as_array().unwrap();
    assert_eq!(legs.len(), 3);
    assert_eq!(legs[0]["leg_id"], "l1");
    assert_eq!(
        legs[0]["load"]["mass"],
        json!({"amount": "12000", "unit": "kg"})
    );
    assert_eq!(legs[0]["method"]["vehicle_type"], "truck");
    assert_eq!(legs[1]["origin"], json!({"locode": "CNSHA"}));
    assert!(legs[1]["emissions"]["distance_km"].is_string());
    assert_eq!(legs[2]["emissions"]["emission_factor_denominator"], "t*km");
    // 12 t over 300 km of rail: the load carried over from the first leg
    assert_eq!(
        dec(&legs[2]["emissions"]["transport_activity"]),
        Decimal::from(3600)
    );
}

pub(super) async fn a_used_idempotency_key_is_409_and_writes_nothing(app: TestApp) {
    let t = app.tenant().await;
    let body = json!({"shipments": [good_row("I-1", "2026-03-01")], "idempotency_key": "upload-1"});
    let first = upload(&app, &t.live_key, body.clone()).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let again = upload(&app, &t.live_key, body).await;
    assert_error_2024(&again, 409, "shipment_batch_idempotency_already_exists");
    let list = app.get("/v1/shipments/batches", &t.live_key).await;
    assert_eq!(list.body["data"].as_array().unwrap().len(), 1);
    // the key is the account's: the test account may use it
    let other = upload(
        &app,
        &t.test_key,
        json!({"shipments": [{}], "idempotency_key": "upload-1"}),
    )
    .await;
    assert_eq!(other.status, 200, "{}", other.body);
    // structure and size only are checked at upload
    for body in [
        json!({"shipments": []}),
        json!({"shipments": [{}, "row"]}),
        json!({"shipments": [{}], "contact": "x"}),
        json!({"shipments": [{}], "idempotency_key": ""}),
    ] {
        let res = upload(&app, &t.live_key, body).await;
        assert_error(&res, 400, "validation_error");
    }
    assert_eq!(
        app.get("/v1/shipments/batches", &t.live_key).await.body["data"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}
