//! Transaction documents, multi-match transaction estimates and business
//! analytics, end to end.

use serde_json::{Value, json};

use crate::support::{
    Reply, TestApp, assert_error, assert_error_2024, conforms_2024, conforms_transaction,
};
use tonne_test_support::on_both_backends;

async fn patch(app: &TestApp, path: &str, key: &str, body: &Value) -> Reply {
    app.send(
        app.request(reqwest::Method::PATCH, path, Some(key))
            .json(body),
    )
    .await
}

/// Exact grams of a mass in tonnes.
fn grams(v: &Value) -> i64 {
    let amount = v["amount"].as_str().unwrap();
    let (whole, fraction) = amount.split_once('.').unwrap_or((amount, ""));
    format!("{whole}{fraction:0<6}").parse().unwrap()
}

fn receipt() -> Value {
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

async fn a_receipt_becomes_line_items_read_back_and_annotated(app: TestApp) {
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

async fn travel_activity_and_fallback_follow_the_clients_union(app: TestApp) {
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

async fn bad_documents_are_refused_and_nothing_is_written(app: TestApp) {
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

async fn multi_match_ranks_candidates_stored_as_transactions(app: TestApp) {
    let t = app.tenant().await;
    let body = json!({
        "value": {"value": "100", "currency": "USD"},
        "merchant": {"country_code": "USA", "category_code": "5812", "name": "Airport coffee bar"}
    });
    let res = app
        .post(
            "/v1/estimates/transactions/multi-match?limit=3",
            &t.live_key,
            &body,
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let estimates = res.body["estimates"].as_array().unwrap();
    // the code sent, the keyword, and what the texts add (at most the limit)
    assert!((2..=3).contains(&estimates.len()), "{}", res.body);
    assert_eq!(estimates[0]["search_term_match_score"], Value::Null);
    assert_eq!(estimates[1]["search_term_match"], "coffee");
    assert_eq!(estimates[1]["search_term_match_score"], 0);
    for e in estimates {
        conforms_transaction(e);
        let id = e["id"].as_str().unwrap();
        let read = app
            .get(&format!("/v1/estimates/transactions/{id}"), &t.live_key)
            .await;
        assert_eq!(read.status, 200, "{}", read.body);
        assert_eq!(read.body["mass"], e["mass"]);
    }
    let before = app.count_estimates_and_orders().await;
    let bad = app
        .post(
            "/v1/estimates/transactions/multi-match?limit=9",
            &t.live_key,
            &body,
        )
        .await;
    assert_error(&bad, 400, "validation_error");
    let nothing = json!({"value": {"value": "1", "currency": "USD"},
                         "merchant": {"country_code": "USA", "search_term": "zq"}});
    let res = app
        .post(
            "/v1/estimates/transactions/multi-match",
            &t.live_key,
            &nothing,
        )
        .await;
    assert_error(&res, 400, "validation_error");
    assert_eq!(app.count_estimates_and_orders().await, before);
}

async fn business_analytics_sum_actual_estimates_by_category(app: TestApp) {
    let t = app.tenant().await;
    let empty = app.get("/v1/analytics/business", &t.live_key).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert_eq!(empty.body["number_of_estimates"], 0);
    assert_eq!(empty.body["categories"].as_object().unwrap().len(), 14);
    // an actual receipt (restaurant: other shops), an actual hotel transaction,
    // a transaction that is not actual (left out)
    let doc = app
        .post(
            "/v1/estimates/transaction-documents",
            &t.live_key,
            &receipt(),
        )
        .await;
    assert_eq!(doc.status, 200, "{}", doc.body);
    let hotel = json!({"value": {"value": "100", "currency": "EUR"},
                       "merchant": {"country_code": "GBR", "category_code": "7011"},
                       "is_transaction": true});
    let h = app
        .post("/v1/estimates/transactions", &t.live_key, &hotel)
        .await;
    assert_eq!(h.status, 200, "{}", h.body);
    let mut not_actual = hotel.clone();
    not_actual["is_transaction"] = json!(false);
    assert_eq!(
        app.post("/v1/estimates/transactions", &t.live_key, &not_actual)
            .await
            .status,
        200
    );
    let res = app.get("/v1/analytics/business", &t.live_key).await;
    assert_eq!(res.status, 200, "{}", res.body);
    assert_eq!(res.body["number_of_estimates"], 2);
    let c = &res.body["categories"];
    assert_eq!(grams(&c["other_shops"]), 3_869);
    assert_eq!(grams(&c["hotels"]), grams(&h.body["mass"]));
    assert_eq!(grams(&res.body["mass"]), 3_869 + grams(&h.body["mass"]));
    let total: i64 = c.as_object().unwrap().values().map(grams).sum();
    assert_eq!(total, grams(&res.body["mass"]));
    // a range before everything: nothing
    let old = app
        .get(
            "/v1/analytics/business?from=2000-01-01&through=2000-01-31",
            &t.live_key,
        )
        .await;
    assert_eq!(old.body["number_of_estimates"], 0);
    let reversed = app
        .get(
            "/v1/analytics/business?from=2020-02-01&through=2020-01-01",
            &t.live_key,
        )
        .await;
    assert_error_2024(&reversed, 400, "time_range_invalid");
    let bad = app
        .get("/v1/analytics/business?from=soon", &t.live_key)
        .await;
    assert_error(&bad, 400, "validation_error");
}

on_both_backends!(
    with crate::support::TestApp::spawn;
    a_receipt_becomes_line_items_read_back_and_annotated,
    travel_activity_and_fallback_follow_the_clients_union,
    bad_documents_are_refused_and_nothing_is_written,
    multi_match_ranks_candidates_stored_as_transactions,
    business_analytics_sum_actual_estimates_by_category,
    the_async_route_queues_a_job_whose_estimate_reads_at_its_location,
);

/// The async route: 202 with `Location`, the estimate read there once the
/// worker has done the job; a refused request queues nothing.
async fn the_async_route_queues_a_job_whose_estimate_reads_at_its_location(app: TestApp) {
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

mod durable {
    //! The async jobs survive `kill -9`: the real binary killed right after
    //! the requests were accepted stores every estimate once after a restart.

    use std::io::{BufRead as _, BufReader};
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};
    use tonne_test_support::TestDb;

    fn bootstrap(url: &str) -> String {
        let bin = env!("CARGO_BIN_EXE_tonne");
        for args in [
            vec!["migrate", "--database-url", url],
            vec!["bootstrap", "--json", "--database-url", url],
        ] {
            let out = Command::new(bin)
                .args(&args)
                .env_remove("DATABASE_URL")
                .env_remove("TONNE_CONFIG")
                .output()
                .unwrap();
            assert!(out.status.success(), "{out:?}");
            if args[0] == "bootstrap" {
                let keys: Value = serde_json::from_slice(&out.stdout).unwrap();
                return keys["live"]["api_key"].as_str().unwrap().to_owned();
            }
        }
        unreachable!()
    }

    fn serve(url: &str) -> (Child, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tonne"))
            .args([
                "serve",
                "--no-demo",
                "--bind",
                "127.0.0.1:0",
                "--database-url",
                url,
            ])
            .env_remove("DATABASE_URL")
            .env_remove("TONNE_CONFIG")
            .env_remove("TONNE_OTLP_ENDPOINT")
            .env("TONNE_METRICS_BIND", "127.0.0.1:0")
            .env("TONNE_RATE_LIMIT_BURST", "100000")
            .env("TONNE_RATE_LIMIT_PER_SECOND", "100000")
            .env("TONNE_SECRETS_KEY", "cd".repeat(32))
            .env("TONNE_SHIPMENTS_LEASE_SECONDS", "2")
            .env("TONNE_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        while stdout.read_line(&mut line).unwrap() > 0 {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let addr = rest.split_whitespace().next().unwrap().to_owned();
                std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
                return (child, addr);
            }
            line.clear();
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("the server printed no address");
    }

    fn kill9(child: &mut Child) {
        let _ = Command::new("kill")
            .args(["-KILL", &child.id().to_string()])
            .status();
        let _ = child.wait();
    }

    async fn killed_after_accepting_stores_every_estimate_once(db: &TestDb) {
        let key = bootstrap(db.url());
        let http = reqwest::Client::new();
        let (mut first, addr) = serve(db.url());
        const N: usize = 150;
        let mut locations = Vec::with_capacity(N);
        for i in 0..N {
            let body = json!({
                "merchant": {"country_code": "USA", "category_code": "5812"},
                "correlation_id": format!("c{i}"),
                "is_transaction_document": true,
                "unstructured_data": {"key_value": {"currency": "USD", "items": [
                    {"description": "Lunch", "amount": format!("{}", 10 + i)}
                ]}}
            });
            let res = http
                .post(format!(
                    "http://{addr}/v1/estimates/transaction-documents/async"
                ))
                .bearer_auth(&key)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 202);
            locations.push(res.headers()["location"].to_str().unwrap().to_owned());
        }
        kill9(&mut first);
        let (mut second, addr) = serve(db.url());
        let deadline = Instant::now() + Duration::from_secs(60);
        for location in &locations {
            loop {
                let res = http
                    .get(format!("http://{addr}{location}"))
                    .bearer_auth(&key)
                    .send()
                    .await
                    .unwrap();
                if res.status() == 200 {
                    let body: Value = res.json().await.unwrap();
                    assert_eq!(body["line_items"].as_array().unwrap().len(), 1);
                    break;
                }
                assert_eq!(res.status(), 404);
                assert!(Instant::now() < deadline, "{location} was never done");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        // every estimate once: the business analytics count the actual ones
        let sums: Value = http
            .get(format!("http://{addr}/v1/analytics/business"))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(sums["number_of_estimates"], N, "{sums}");
        kill9(&mut second);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn async_documents_survive_sigkill_sqlite() {
        killed_after_accepting_stores_every_estimate_once(&TestDb::sqlite()).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn async_documents_survive_sigkill_postgres() {
        let Some(db) = TestDb::postgres() else { return };
        killed_after_accepting_stores_every_estimate_once(&db).await;
    }
}
