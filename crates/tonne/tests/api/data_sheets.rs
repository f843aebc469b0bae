//! `POST /v1/shipments/data-sheets` and its template: a good file is a batch
//! of source `data_sheet` with its file name and uploader; a bad one is 400
//! listing every problem's line and column, and nothing is stored.

use reqwest::Method;
use serde_json::Value;
use tonne_test_support::on_both_backends;

use crate::support::{Reply, TestApp, assert_error};

/// A `multipart/form-data` body: text fields, then the file part.
fn form(fields: &[(&str, &str)], filename: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----tonne-data-sheet-5e2a";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\nContent-Type: text/csv\r\n\r\n")
            .as_bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

async fn upload(
    app: &TestApp,
    key: &str,
    fields: &[(&str, &str)],
    filename: &str,
    csv: &str,
) -> Reply {
    let (content_type, body) = form(fields, filename, csv.as_bytes());
    app.send(
        app.request(Method::POST, "/v1/shipments/data-sheets", Some(key))
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body),
    )
    .await
}

async fn batches(app: &TestApp, key: &str) -> Vec<Value> {
    let res = app.get("/v1/shipments/batches", key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    res.body["data"].as_array().unwrap().clone()
}

async fn a_data_sheet_becomes_a_batch_or_its_problems_by_line_and_column(app: TestApp) {
    let acme = app.tenant().await;
    let key = acme.test_key.as_str();

    // The template, behind the key as every /v1 route.
    let template = app.get("/v1/shipments/data-sheets/template.csv", key).await;
    assert_eq!(template.status, 200);
    assert!(
        template
            .header("content-type")
            .unwrap()
            .starts_with("text/csv")
    );
    let unauthenticated = app
        .get_without_key("/v1/shipments/data-sheets/template.csv")
        .await;
    assert_eq!(unauthenticated.status, 401);

    // A bad file: 400, every problem with its line and column, nothing stored.
    let bad = "shipment_id,carriage,mode,vehicle_type,fuel,distance_km,mass,mass_unit,colour\n\
               A,main,road,truck,diesel,12.5.1,3,t,\n\
               A,main,road,truck,coal,10,3,t,\n";
    let refused = upload(&app, key, &[], "bad.csv", bad).await;
    assert_error(&refused, 400, "validation_error");
    let problems: Vec<(Value, Value)> = refused.body["error"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["line"].clone(), p["column"].clone()))
        .collect();
    assert_eq!(
        problems,
        [
            (1.into(), "colour".into()),
            (2.into(), "distance_km".into()),
            (3.into(), "fuel".into()),
        ],
        "{}",
        refused.body
    );
    assert_eq!(refused.body["errors"][0], refused.body["error"]);
    assert!(batches(&app, key).await.is_empty());
    // Not multipart: 415.
    let plain = app
        .send(
            app.request(Method::POST, "/v1/shipments/data-sheets", Some(key))
                .header(reqwest::header::CONTENT_TYPE, "text/csv")
                .body(bad),
        )
        .await;
    assert_eq!(plain.status, 415);

    // The decoder's refusal of a row maps back to its line and column.
    let decoded = "shipment_id,carriage,mode,aircraft_type,distance_km,mass,mass_unit\n\
                   A,main,air,A332,100,1,t\n\
                   B,main,air,B999,100,1,t\n";
    let refused = upload(&app, key, &[], "bad.csv", decoded).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    let problems = refused.body["error"]["errors"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{}", refused.body);
    assert_eq!(problems[0]["line"], 3);
    assert_eq!(problems[0]["column"], "aircraft_type");
    assert!(batches(&app, key).await.is_empty());

    // A good file: a batch of source data_sheet with its name and uploader.
    let made = upload(
        &app,
        key,
        &[("calculate_emissions", "true")],
        "march.csv",
        tonne_wire::data_sheet::TEMPLATE,
    )
    .await;
    assert_eq!(made.status, 200, "{}", made.body);
    let id = made.body["id"].as_str().unwrap().to_owned();
    let listed = batches(&app, key).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["source"], "data_sheet");
    assert_eq!(listed[0]["filename"], "march.csv");
    assert_eq!(listed[0]["user_name"], "Acme");
    // processed in the background into three shipments
    let start = std::time::Instant::now();
    loop {
        let batch = app.get(&format!("/v1/shipments/batches/{id}"), key).await;
        if batch.body["status"] == "processed" {
            assert_eq!(batch.body["success_count"], 3, "{}", batch.body);
            break;
        }
        assert!(start.elapsed().as_secs() < 30, "{}", batch.body);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // another organisation's key sees none of it
    let rival = app.tenant().await;
    assert!(batches(&app, &rival.test_key).await.is_empty());
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_data_sheet_becomes_a_batch_or_its_problems_by_line_and_column,
);
