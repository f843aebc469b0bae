//! The async jobs survive `kill -9`: the real binary killed right after
//! the requests were accepted stores every estimate once after a restart.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tonne_test_support::TestDb;

use crate::support::json_of;
use crate::support::process::{bootstrap, kill9, serve_no_demo as serve};

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
    let sums = json_of(
        http.get(format!("http://{addr}/v1/analytics/business"))
            .bearer_auth(&key),
    )
    .await;
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
