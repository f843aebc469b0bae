//! Transaction documents: a receipt's line items read back and annotated,
//! travel, activity and fallback lines, refusals that write nothing, and
//! the async route.

use serde_json::{Value, json};

use super::fixtures::{grams, patch, receipt};
use crate::support::{TestApp, assert_error, assert_error_2024, conforms_2024};

pub(super) async fn a_receipt_becomes_line_items_read_back_and_annotated(app: TestApp) {
    let t = app.tenant().await;
    let res = app
        .post(
            "/v1/estimates/transaction-documents",
            &t.live_key,
            &receipt(),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    // 100 USD at a US restaurant in 2019 = 3.869 kg (the transaction engine's
    // figure); the tax line is not a purchase
    assert_eq!(grams(&res.body["mass"]), 3_869);
    assert!(res.body["fallback"].is_null());
    let line = &res.body["line_items"][0];
    assert_eq!(res.body["line_items"].as_array().unwrap().len(), 1);
    assert_eq!(line["type"], "transaction");
    assert_eq!(line["item"], "Dinner");
    assert_eq!(line["value"], json!({"value": "100", "currency": "USD"}));
    assert_eq!(line["search_term_match"], "dinner");
    assert_eq!(line["search_term_match_score"], 0);
    assert_eq!(line["semantic_matching_model"], "tonne-keywords-2026.11");
    assert!(
        line["emission_factor"]["id"]
            .as_str()
            .unwrap()
            .starts_with("exiobase:")
    );
    assert_eq!(res.body["is_transaction_document"], true);
    conforms_2024("TransactionDocumentEmissionEstimate", &res.body);
    let id = res.body["id"].as_str().unwrap().to_owned();
    // read back as computed
    let read = app
        .get(
            &format!("/v1/estimates/transaction-documents/{id}"),
            &t.live_key,
        )
        .await;
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.body["line_items"], res.body["line_items"]);
    conforms_2024("TransactionDocumentEmissionEstimate", &read.body);
    // another kind's route does not read it, nor another organisation
    let other = app.tenant().await;
    let theirs = app
        .get(
            &format!("/v1/estimates/transaction-documents/{id}"),
            &other.live_key,
        )
        .await;
    assert_error_2024(&theirs, 404, "estimate_not_found");
    let as_transaction = app
        .get(&format!("/v1/estimates/transactions/{id}"), &t.live_key)
        .await;
    assert_eq!(as_transaction.status, 404);
    // annotations
    let patched = patch(
        &app,
        &format!("/v1/estimates/transaction-documents/{id}/annotations"),
        &t.live_key,
        &json!({"is_transaction_document": false, "transaction_document_processed_at": "2020-01-02T03:04:05Z"}),
    )
    .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    assert_eq!(patched.body["is_transaction_document"], false);
    assert_eq!(
        patched.body["transaction_document_processed_at"],
        "2020-01-02T03:04:05Z"
    );
    assert_eq!(grams(&patched.body["mass"]), 3_869);
    let bad = patch(
        &app,
        &format!("/v1/estimates/transaction-documents/{id}/annotations"),
        &t.live_key,
        &json!({"transaction_document_processed_at": "yesterday"}),
    )
    .await;
    assert_error_2024(&bad, 400, "validation_error");
}

pub(super) async fn travel_activity_and_fallback_follow_the_clients_union(app: TestApp) {
    let t = app.tenant().await;
    let body = json!({
        "merchant": {"country_code": "GBR"},
        "unstructured_data": {"key_value": {
            "currency": "GBP",
            "items": [
                {"description": "Train ticket", "distance_km": 300, "amount": "80"},
                {"description": "Diesel", "quantity": "40", "unit": "litres", "amount": "60"},
                {"description": "Flight LHR-JFK", "amount": "500"}
            ]
        }}
    });
    let res = app
        .post("/v1/estimates/transaction-documents", &t.live_key, &body)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let lines = res.body["line_items"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    // 300 km × 0.03546 kg (DESNZ 2025 national rail) = 10.638 kg
    assert_eq!(lines[0]["type"], "passenger_transportation");
    assert_eq!(lines[0]["rail_type"], "national_rail");
    assert_eq!(grams(&lines[0]["mass"]), 10_638);
    // 40 l × 2.57082 kg (DESNZ 2025 diesel, average biofuel blend) = 102.833 kg
    assert_eq!(lines[1]["type"], "activity_transaction");
    assert_eq!(lines[1]["activity"], json!({"value": "40", "unit": "l"}));
    assert_eq!(grams(&lines[1]["mass"]), 102_833);
    assert_eq!(lines[2]["type"], "passenger_transportation");
    assert_eq!(
        lines[2]["route"],
        json!({"source": "LHR", "destination": "JFK"})
    );
    assert_eq!(lines[2]["cabin_class"], "economy");
    let sum: i64 = lines.iter().map(|l| grams(&l["mass"])).sum();
    assert_eq!(grams(&res.body["mass"]), sum);
    // no lines, a total: the whole document
    let whole = json!({
        "value": "100", "currency": "USD",
        "merchant": {"country_code": "USA", "category_code": "5812"},
        "transaction_document_processed_at": "2019-06-01T12:00:00Z",
        "unstructured_data": {"key_value": {"id": 123}}
    });
    let res = app
        .post("/v1/estimates/transaction-documents", &t.live_key, &whole)
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert!(res.body["line_items"].is_null());
    assert_eq!(res.body["fallback"]["category_match_score"], Value::Null);
    assert_eq!(res.body["fallback"]["country_code"], "USA");
    assert_eq!(grams(&res.body["mass"]), 3_869);
}

pub(super) async fn bad_documents_are_refused_and_nothing_is_written(app: TestApp) {
    let t = app.tenant().await;
    let before = app.count_estimates_and_orders().await;
    let url = "/v1/estimates/transaction-documents";
    // nothing to read and no total
    let empty = json!({"merchant": {"country_code": "USA"}, "currency": "USD",
                       "unstructured_data": {"key_value": {"id": 1}}});
    assert_error(
        &app.post(url, &t.live_key, &empty).await,
        400,
        "validation_error",
    );
    // too deep
    let mut deep = json!("x");
    for _ in 0..20 {
        deep = json!([deep]);
    }
    let deep = json!({"merchant": {"country_code": "USA"}, "currency": "USD", "value": "10",
                      "unstructured_data": {"key_value": {"deep": deep}}});
    assert_error(
        &app.post(url, &t.live_key, &deep).await,
        400,
        "validation_error",
    );
    // too many lines
    let lines: Vec<Value> = (0..201)
        .map(|i| json!({"description": "Coffee", "amount": i.to_string()}))
        .collect();
    let many = json!({"merchant": {"country_code": "USA"}, "currency": "USD",
                      "unstructured_data": {"key_value": {"items": lines}}});
    assert_error(
        &app.post(url, &t.live_key, &many).await,
        400,
        "validation_error",
    );
    // too large: 300 KiB
    let big = json!({"unstructured_data": {"key_value": {"note": "x".repeat(300 * 1024)}}});
    let res = app.post(url, &t.live_key, &big).await;
    assert_eq!(res.status, 413, "{}", res.body);
    // not JSON
    let res = app
        .send(
            app.request(reqwest::Method::POST, url, Some(&t.live_key))
                .header("content-type", "application/json")
                .body("{nope"),
        )
        .await;
    assert_error(&res, 400, "validation_error");
    // unknown field, a bad tolerance, no country, the async-only field
    let unknown = json!({"unstructured_data": {"key_value": {}}, "colour": "red"});
    assert_error(
        &app.post(url, &t.live_key, &unknown).await,
        400,
        "validation_error",
    );
    let tolerance = app
        .post(
            &format!("{url}?relative_amount_tolerance_threshold=2"),
            &t.live_key,
            &receipt(),
        )
        .await;
    assert_error(&tolerance, 400, "validation_error");
    let mut nowhere = receipt();
    nowhere["merchant"] = json!({});
    assert_error(
        &app.post(url, &t.live_key, &nowhere).await,
        400,
        "validation_error",
    );
    let mut correlated = receipt();
    correlated["correlation_id"] = json!("abc");
    assert_error(
        &app.post(url, &t.live_key, &correlated).await,
        400,
        "validation_error",
    );
    assert_eq!(app.count_estimates_and_orders().await, before);
}

/// The async route: 202 with `Location`, the estimate read there once the
/// worker has done the job; a refused request queues nothing.
pub(super) async fn the_async_route_queues_a_job_whose_estimate_reads_at_its_location(
    app: TestApp,
) {
    let t = app.tenant().await;
    let mut body = receipt();
    body["correlation_id"] = json!("order-77");
    let res = app
        .post(
            "/v1/estimates/transaction-documents/async",
            &t.live_key,
            &body,
        )
        .await;
    assert_eq!(res.status, 202, "{}", res.body);
    let location = res.header("location").unwrap().to_owned();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let done = loop {
        let read = app.get(&location, &t.live_key).await;
        if read.status == 200 {
            break read;
        }
        assert_eq!(read.status, 404, "{}", read.body);
        assert!(std::time::Instant::now() < deadline, "the job was not done");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(grams(&done.body["mass"]), 3_869);
    assert_eq!(done.body["request"]["correlation_id"], "order-77");
    let before = app.count_estimates_and_orders().await;
    let empty = json!({"merchant": {"country_code": "USA"}, "currency": "USD",
                       "unstructured_data": {"key_value": {"id": 1}}});
    let refused = app
        .post(
            "/v1/estimates/transaction-documents/async",
            &t.live_key,
            &empty,
        )
        .await;
    assert_error(&refused, 400, "validation_error");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(app.count_estimates_and_orders().await, before);
}
