//! Helpers of the transaction document tests: a PATCH, exact grams, and a
//! restaurant receipt.

use serde_json::{Value, json};

use crate::support::{Reply, TestApp};

pub(super) async fn patch(app: &TestApp, path: &str, key: &str, body: &Value) -> Reply {
    app.send(
        app.request(reqwest::Method::PATCH, path, Some(key))
            .json(body),
    )
    .await
}

/// Exact grams of a mass in tonnes.
pub(super) fn grams(v: &Value) -> i64 {
    let amount = v["amount"].as_str().unwrap();
    let (whole, fraction) = amount.split_once('.').unwrap_or((amount, ""));
    format!("{whole}{fraction:0<6}").parse().unwrap()
}

pub(crate) fn receipt() -> Value {
    json!({
        "merchant": {"country_code": "USA", "category_code": "5812"},
        "transaction_document_processed_at": "2019-06-01T12:00:00Z",
        "is_transaction_document": true,
        "unstructured_data": {"key_value": {
            "merchant": "Joe's Diner",
            "currency": "USD",
            "total": "108.00",
            "line_items": [
                {"description": "Dinner", "amount": "100.00"},
                {"description": "Sales tax", "amount": "8.00"}
            ]
        }}
    })
}
