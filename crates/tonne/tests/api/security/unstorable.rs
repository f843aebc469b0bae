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

async fn a_nul_in_a_path_or_query_is_400_naming_it(app: TestApp) {
    let t = app.tenant().await;
    let key = t.test_key.as_str();
    let query = app
        .get("/v1/shipments/batches?source=data%00sheet", key)
        .await;
    refused_naming(&query, "source");
    let path = app.get("/v1/shipments/batches/ab%00cd", key).await;
    refused_naming(&path, "path");
}

/// A person who sends a console or hosted-page form holding U+0000 (or opens
/// a page whose address holds one) gets a page, not the API's JSON: 400,
/// HTML in the front ends' style, the field named in plain words, before any
/// handler runs.
async fn a_nul_in_a_console_or_hosted_page_form_is_an_html_page_naming_the_field(app: TestApp) {
    async fn page(req: reqwest::RequestBuilder, field: &str) {
        let res = req.send().await.unwrap();
        let status = res.status();
        let content_type = res
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .map(|v| v.to_str().unwrap().to_owned());
        let html = res.text().await.unwrap();
        assert_eq!(status, 400, "{html}");
        assert_eq!(content_type.as_deref(), Some("text/html; charset=utf-8"));
        assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
        assert!(html.contains(&format!("“{field}”")), "{html}");
        assert!(html.contains("null character (U+0000)"), "{html}");
        assert!(html.contains("Nothing was changed"), "{html}");
    }
    for (path, form, field) in [
        (
            "/console/sign-in",
            "email=a%00b%40example.org&password=x",
            "email",
        ),
        (
            "/l/0190c6f1a7b27c3e9f2d4b1a2c3d4e5f/quote",
            "quantity=1&name=x%00",
            "name",
        ),
    ] {
        let form = app
            .request(Method::POST, path, None)
            .header(reqwest::header::ORIGIN, app.base.clone())
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(form);
        page(form, field).await;
    }
    // a page's address, asked for by a browser
    let address = app
        .request(Method::GET, "/console/estimates?after=x%00", None)
        .header(reqwest::header::ACCEPT, "text/html,application/xhtml+xml");
    page(address, "after").await;
    // the API's clients still get JSON naming the field
    let res = app.get_without_key("/console/estimates?after=x%00").await;
    refused_naming(&res, "after");
}

/// A catalogue file with U+0000 in a bundle's name: `tonne catalogue import`
/// and the console's import refuse it naming the field, nothing imported
/// (SQLite kept the text, PostgreSQL refused it mid-import).
async fn a_nul_in_a_catalogue_file_is_refused_by_the_cli_and_the_console(app: TestApp) {
    use crate::console::{PASSWORD, Visitor, operator};
    let file = r#"{"format": "tonne-catalogue/1", "projects": [], "bundles": [
        {"key": "clean", "name": "Clean", "projects": [], "unit_prices": {"GBP": "10.00"}},
        {"key": "nul", "name": "Nul\u0000Bundle", "projects": [], "unit_prices": {"GBP": "10.00"}}]}"#;
    let named = "bundles[1].name: contains U+0000";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalogue.json");
    std::fs::write(&path, file).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tonne"))
        .args(["catalogue", "import"])
        .arg(&path)
        .args(["--database-url", &app.database_url])
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "imported: {err}");
    assert!(
        err.contains(named) && err.contains("nothing was imported"),
        "{err}"
    );

    operator(&app, "op@example.org").await;
    let mut v = Visitor::new(&app);
    v.sign_in("op@example.org", PASSWORD).await;
    let page = v.get("/console/catalogue").await;
    assert!(
        page.html.contains("The catalogue is empty"),
        "the CLI wrote"
    );
    let refused = v
        .post_file(
            "/console/catalogue/import",
            &[("csrf", &page.csrf())],
            ("file", file.as_bytes()),
        )
        .await;
    assert_eq!(refused.status, 400, "{}", refused.html);
    assert!(refused.html.contains(named), "{}", refused.html);
    assert!(
        v.get("/console/catalogue")
            .await
            .html
            .contains("The catalogue is empty"),
        "the console wrote"
    );
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_nul_in_a_shipment_row_is_refused_naming_the_field,
    a_nul_in_a_correlation_id_is_400_not_500,
    a_nul_in_a_path_or_query_is_400_naming_it,
    a_nul_in_a_console_or_hosted_page_form_is_an_html_page_naming_the_field,
    a_nul_in_a_catalogue_file_is_refused_by_the_cli_and_the_console,
);
