//! Text no store can keep is refused at the door, alike on both stores.
//! PostgreSQL refuses U+0000 in `TEXT` where SQLite keeps it: a shipment row
//! holding one was accepted, then failed the worker's transaction on every
//! claim (stalling every tenant's batches), and a transaction document's
//! `correlation_id` holding one answered 500. Now every decoded string —
//! JSON bodies, path, query, forms, multipart fields and data-sheet cells —
//! is 400 `validation_error` naming its field, and nothing is written.

use reqwest::Method;
use serde_json::{Value, json};
use tonne_test_support::on_both_backends;

use crate::support::{Reply, TestApp, assert_error};

fn row(id: &str, target: &str) -> Value {
    json!({
        "shipment_id": id,
        "target_internal_id": target,
        "legs": [{"carriage": "main", "method": {"train_type": "electric_freight_train"},
                  "distance": {"amount": "800", "unit": "km"},
                  "load": {"mass": {"amount": "3", "unit": "t"}}}]
    })
}

fn refused_naming(res: &Reply, field: &str) {
    assert_error(res, 400, "validation_error");
    let message = res.body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!("{field}: ")) && message.contains("U+0000"),
        "expected {field} named: {}",
        res.body
    );
}

async fn batches(app: &TestApp, key: &str) -> usize {
    let res = app.get("/v1/shipments/batches", key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["data"].as_array().map_or(0, Vec::len)
}

/// A multipart body with one `file` part.
fn sheet(csv: &str) -> (String, Vec<u8>) {
    let boundary = "----tonne-unstorable-1f3b";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"s.csv\"\r\nContent-Type: text/csv\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(csv.as_bytes());
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn a_nul_in_a_shipment_row_is_refused_naming_the_field(app: TestApp) {
    let t = app.tenant().await;
    let key = t.test_key.as_str();
    // the shipment id and the carrier's internal id, each in its own batch
    let by_id = app
        .post(
            "/v1/shipments/batches",
            key,
            &json!({"shipments": [row("A\u{0}B", "carrier")]}),
        )
        .await;
    refused_naming(&by_id, "shipments[0].shipment_id");
    let by_target = app
        .post(
            "/v1/shipments/batches",
            key,
            &json!({"shipments": [row("A", "c"), row("B", "car\u{0}rier")]}),
        )
        .await;
    refused_naming(&by_target, "shipments[1].target_internal_id");
    // a lone surrogate never decodes (invalid JSON): 400 too
    let surrogate = app
        .send(
            app.request(Method::POST, "/v1/shipments/batches", Some(key))
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(r#"{"shipments":[{"shipment_id":"\ud800","legs":[]}]}"#),
        )
        .await;
    assert_error(&surrogate, 400, "validation_error");
    // the same in a data sheet's cell: its line and column
    let (content_type, body) = sheet(
        "shipment_id,target_internal_id,carriage,mode,train_type,distance_km,mass,mass_unit\n\
         S1,carrier\u{0},main,rail,electric_freight_train,800,3,t\n",
    );
    let cell = app
        .send(
            app.request(Method::POST, "/v1/shipments/data-sheets", Some(key))
                .header(reqwest::header::CONTENT_TYPE, content_type)
                .body(body),
        )
        .await;
    assert_error(&cell, 400, "validation_error");
    let problem = &cell.body["error"]["errors"][0];
    assert_eq!(
        (problem["line"].clone(), problem["column"].clone()),
        (json!(2), json!("target_internal_id")),
        "{}",
        cell.body
    );
    assert_eq!(batches(&app, key).await, 0, "nothing stored");
    // an escaped backslash before `u0000` is ordinary text: stored
    let fine = app
        .post(
            "/v1/shipments/batches",
            key,
            &json!({"shipments": [row("A\\u0000B", "carrier")]}),
        )
        .await;
    assert_eq!(fine.status, 200, "{}", fine.body);
}

async fn a_nul_in_a_correlation_id_is_400_not_500(app: TestApp) {
    let t = app.tenant().await;
    let before = app.count_estimates_and_orders().await;
    let body = json!({
        "merchant": {"country_code": "USA", "category_code": "5812"},
        "transaction_document_processed_at": "2019-06-01T12:00:00Z",
        "is_transaction_document": true,
        "correlation_id": "order\u{0}77",
        "unstructured_data": {"key_value": {
            "merchant": "Joe's Diner", "currency": "USD", "total": "8.00",
            "line_items": [{"description": "Dinner", "amount": "8.00"}]
        }}
    });
    for path in [
        "/v1/estimates/transaction-documents/async",
        "/v1/estimates/transaction-documents",
    ] {
        let res = app.post(path, &t.live_key, &body).await;
        refused_naming(&res, "correlation_id");
    }
    assert_eq!(app.count_estimates_and_orders().await, before);
}

async fn a_nul_in_a_path_query_or_form_is_400_naming_it(app: TestApp) {
    let t = app.tenant().await;
    let key = t.test_key.as_str();
    let query = app
        .get("/v1/shipments/batches?source=data%00sheet", key)
        .await;
    refused_naming(&query, "source");
    let path = app.get("/v1/shipments/batches/ab%00cd", key).await;
    refused_naming(&path, "path");
    // a console form and a hosted page's form, before any handler runs
    for (path, form) in [
        ("/console/sign-in", "email=a%00b%40example.org&password=x"),
        (
            "/l/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f/quote",
            "quantity=1&name=x%00",
        ),
    ] {
        let res = app
            .send(
                app.request(Method::POST, path, None)
                    .header(reqwest::header::ORIGIN, app.base.clone())
                    .header(
                        reqwest::header::CONTENT_TYPE,
                        "application/x-www-form-urlencoded",
                    )
                    .body(form),
            )
            .await;
        let field = if path.starts_with("/console") {
            "email"
        } else {
            "name"
        };
        refused_naming(&res, field);
    }
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_nul_in_a_shipment_row_is_refused_naming_the_field,
    a_nul_in_a_correlation_id_is_400_not_500,
    a_nul_in_a_path_query_or_form_is_400_naming_it,
);
