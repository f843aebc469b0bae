//! Shipments listed by every kind of filter, never across organisations or
//! modes, and through `Lune-Account` for a client account.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::client_models::client_model;
use super::fixtures::{good_row, processed, simple_row, upload_ok};
use crate::support::{Tenant, TestApp, assert_error, first_error_message};

pub(super) async fn shipments_list_by_every_kind_of_filter(app: TestApp) {
    let t = app.tenant().await;
    let first = upload_ok(
        &app,
        &t.live_key,
        vec![
            good_row("SEA-1", "2026-01-10"),
            simple_row("RAIL-1", "diesel_freight_train", "2026-02-10"),
            simple_row("AIR-1", "cargo_plane", "2026-03-10"),
        ],
        true,
    )
    .await;
    processed(&app, &t.live_key, &first).await;
    let second = upload_ok(
        &app,
        &t.live_key,
        vec![simple_row("RAIL-2", "electric_freight_train", "2026-04-10")],
        false,
    )
    .await;
    processed(&app, &t.live_key, &second).await;

    let by_batch = format!("?shipment_batch_id={second}");
    let by_shipper = format!("?shipper_id={}", t.live_account);
    let refs = |body: &Value| -> Vec<String> {
        let mut r: Vec<String> = body["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["shipment_id"].as_str().unwrap().to_owned())
            .collect();
        r.sort();
        r
    };
    for (query, expected) in [
        ("", vec!["AIR-1", "RAIL-1", "RAIL-2", "SEA-1"]),
        ("?main_carriage_mot=rail", vec!["RAIL-1", "RAIL-2"]),
        (
            "?main_carriage_mot=rail&main_carriage_mot=air",
            vec!["AIR-1", "RAIL-1", "RAIL-2"],
        ),
        ("?pre_carriage_mot=road", vec!["SEA-1"]),
        ("?post_carriage_mot=rail", vec!["SEA-1"]),
        ("?search=RAIL", vec!["RAIL-1", "RAIL-2"]),
        (
            "?shipment_date_from=2026-02-01&shipment_date_to=2026-03-31",
            vec!["AIR-1", "RAIL-1"],
        ),
        (by_batch.as_str(), vec!["RAIL-2"]),
        ("?emissions=with_co2e", vec!["AIR-1", "RAIL-1", "SEA-1"]),
        ("?emissions=without_co2e", vec!["RAIL-2"]),
        (
            by_shipper.as_str(),
            vec!["AIR-1", "RAIL-1", "RAIL-2", "SEA-1"],
        ),
        ("?shipper_id=someone-else", vec![]),
    ] {
        let res = app.get(&format!("/v1/shipments{query}"), &t.live_key).await;
        assert_eq!(res.status, 200, "{query}: {}", res.body);
        client_model("PaginatedShipments", &res.body);
        assert!(res.body["total"].is_null());
        assert_eq!(refs(&res.body), expected, "{query}");
    }
    // one supplier for all (target_internal_id carrier-1 / carrier-2)
    let all = app.get("/v1/shipments", &t.live_key).await;
    let supplier = all.body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["shipment_id"] == "SEA-1")
        .unwrap()["supplier_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let res = app
        .get(
            &format!("/v1/shipments?supplier_id={supplier}"),
            &t.live_key,
        )
        .await;
    assert_eq!(refs(&res.body), vec!["SEA-1"]);
    // by id, and the totals
    let id = all.body["data"][0]["id"].as_str().unwrap().to_owned();
    let res = app
        .get(
            &format!("/v1/shipments?id={id}&include_totals=true"),
            &t.live_key,
        )
        .await;
    assert_eq!(res.body["data"].as_array().unwrap().len(), 1);
    let res = app
        .get("/v1/shipments?include_totals=true&limit=1", &t.live_key)
        .await;
    assert_eq!(
        res.body["total"],
        json!({"all": 4, "with_co2e": 3, "without_co2e": 1})
    );
    // pages of one, most recent first, none twice
    let mut seen = Vec::new();
    let mut after = String::new();
    loop {
        let res = app
            .get(&format!("/v1/shipments?limit=1{after}"), &t.live_key)
            .await;
        assert_eq!(res.status, 200, "{}", res.body);
        seen.push(res.body["data"][0]["id"].as_str().unwrap().to_owned());
        if res.body["has_more"] == false {
            assert!(res.body["next_cursor"].is_null());
            break;
        }
        after = format!("&after={}", res.body["next_cursor"].as_str().unwrap());
    }
    assert_eq!(seen.len(), 4);
    assert_eq!(seen[0], all.body["data"][0]["id"].as_str().unwrap());
    // a bad filter names itself
    let res = app
        .get("/v1/shipments?main_carriage_mot=boat", &t.live_key)
        .await;
    assert_error(&res, 400, "validation_error");
    assert!(first_error_message(&res).starts_with("main_carriage_mot:"));
}

pub(super) async fn another_organisation_or_mode_sees_nothing(app: TestApp) {
    let t = app.tenant().await;
    let other: Tenant = app.tenant().await;
    let id = upload_ok(&app, &t.live_key, vec![good_row("X-1", "2026-03-01")], true).await;
    let batch = processed(&app, &t.live_key, &id).await;
    let shipment = batch["results"][0]["shipment_id"].as_str().unwrap();
    for key in [&other.live_key, &t.test_key] {
        let res = app.get(&format!("/v1/shipments/batches/{id}"), key).await;
        assert_error(&res, 404, "not_found");
        let res = app.get(&format!("/v1/shipments/{shipment}"), key).await;
        assert_error(&res, 404, "not_found");
        let res = app.get("/v1/shipments?include_totals=true", key).await;
        assert_eq!(res.body["data"], json!([]));
        assert_eq!(res.body["total"]["all"], 0);
        let res = app.get("/v1/shipments/batches", key).await;
        assert_eq!(res.body["data"], json!([]));
    }
    // without a key
    let res = app.get_without_key("/v1/shipments").await;
    assert_error(&res, 401, "unauthorised");
}

pub(super) async fn a_client_account_acts_through_lune_account(app: TestApp) {
    let t = app.tenant().await;
    let created = app.new_client_account(&t.live_key, "Merchant", "EUR").await;
    assert_eq!(created.status, 200, "{}", created.body);
    let client = created.body["id"].as_str().unwrap().to_owned();
    let as_client = |req: reqwest::RequestBuilder| req.header("Lune-Account", client.as_str());
    let res = app
        .send(as_client(
            app.request(
                reqwest::Method::POST,
                "/v1/shipments/batches",
                Some(&t.live_key),
            )
            .json(
                &json!({"shipments": [good_row("M-1", "2026-03-01")], "calculate_emissions": true}),
            ),
        ))
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let id = res.body["id"].as_str().unwrap().to_owned();
    let deadline = Instant::now() + Duration::from_secs(60);
    let batch = loop {
        let res = app
            .send(as_client(app.request(
                reqwest::Method::GET,
                &format!("/v1/shipments/batches/{id}"),
                Some(&t.live_key),
            )))
            .await;
        assert_eq!(res.status, 200, "{}", res.body);
        if res.body["status"] == "processed" {
            break res.body;
        }
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let shipment = batch["results"][0]["shipment_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let res = app
        .send(as_client(app.request(
            reqwest::Method::GET,
            &format!("/v1/shipments/{shipment}"),
            Some(&t.live_key),
        )))
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    // the client account is the shipper
    assert_eq!(res.body["shipper_id"], client.as_str());
    assert_eq!(res.body["shipper_name"], "Merchant");
    // the key's own account sees none of it
    let res = app
        .get(&format!("/v1/shipments/{shipment}"), &t.live_key)
        .await;
    assert_error(&res, 404, "not_found");
    let res = app.get("/v1/shipments/batches", &t.live_key).await;
    assert_eq!(res.body["data"], json!([]));
}
