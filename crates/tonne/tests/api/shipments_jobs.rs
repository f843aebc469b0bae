//! Shipment batches are durable jobs: the real binary killed with SIGKILL in
//! the middle of a batch processes every row exactly once after a restart,
//! and two processes on one PostgreSQL database share batches without
//! processing a row twice.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tonne_test_support::TestDb;

use crate::support::process::{bootstrap, kill9, serve_no_demo as serve};

fn rows(n: usize, tag: &str) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({
                "shipment_id": format!("{tag}-{i}"),
                "target_internal_id": format!("carrier-{}", i % 3),
                "target_internal_name": "A carrier",
                "legs": [
                    {"carriage": "pre", "method": {"vehicle_type": "truck", "fuel": "diesel"},
                     "distance": {"amount": "50", "unit": "km"}, "load": {"mass": {"amount": "2", "unit": "t"}}},
                    {"carriage": "main", "method": {"vessel_type": "container_ship"},
                     "origin": {"locode": "CNSHA"}, "destination": {"locode": "NLRTM"}},
                    {"carriage": "on", "method": {"train_type": "electric_freight_train"},
                     "distance": {"amount": "300", "unit": "km"}},
                ],
            })
        })
        .collect()
}

async fn upload(http: &reqwest::Client, addr: &str, key: &str, rows: Vec<Value>) -> String {
    let res = http
        .post(format!("http://{addr}/v1/shipments/batches"))
        .bearer_auth(key)
        .json(&json!({"shipments": rows, "calculate_emissions": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let body: Value = res.json().await.unwrap();
    body["id"].as_str().unwrap().to_owned()
}

async fn get(http: &reqwest::Client, addr: &str, key: &str, path: &str) -> Value {
    let res = http
        .get(format!("http://{addr}/v1{path}"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200, "{path}");
    res.json().await.unwrap()
}

async fn total(http: &reqwest::Client, addr: &str, key: &str) -> u64 {
    get(http, addr, key, "/shipments?limit=1&include_totals=true").await["total"]["all"]
        .as_u64()
        .unwrap()
}

async fn processed(http: &reqwest::Client, addr: &str, key: &str, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let batch = get(http, addr, key, &format!("/shipments/batches/{id}")).await;
        if batch["status"] == "processed" {
            return batch;
        }
        assert!(
            Instant::now() < deadline,
            "batch {id} not processed: {batch}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every row has one result, each success its own shipment.
fn assert_each_row_once(batch: &Value, n: usize) -> HashSet<String> {
    assert_eq!(batch["success_count"], n, "{}", batch["batch_error"]);
    assert_eq!(batch["failed_count"], 0);
    let results = batch["results"].as_array().unwrap();
    assert_eq!(results.len(), n);
    let indexes: HashSet<u64> = results
        .iter()
        .map(|r| r["row_index"].as_u64().unwrap())
        .collect();
    assert_eq!(indexes.len(), n, "a row index twice");
    let ids: HashSet<String> = results
        .iter()
        .map(|r| r["shipment_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), n, "a shipment id twice");
    ids
}

async fn killed_mid_batch_processes_each_row_once_after_restart(db: &TestDb) {
    let key = bootstrap(db.url());
    let http = reqwest::Client::new();
    let (mut first, addr) = serve(db.url());
    const N: usize = 6_000;
    let id = upload(&http, &addr, &key, rows(N, "k")).await;
    // wait for the first chunks to be stored, then kill the process mid-way
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let stored = total(&http, &addr, &key).await;
        if stored > 0 {
            let batch = get(&http, &addr, &key, &format!("/shipments/batches/{id}")).await;
            assert_ne!(
                batch["status"], "processed",
                "the batch finished before the kill: make it larger"
            );
            break;
        }
        assert!(Instant::now() < deadline, "nothing stored");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    kill9(&mut first);
    let (mut second, addr) = serve(db.url());
    let batch = processed(&http, &addr, &key, &id).await;
    assert_each_row_once(&batch, N);
    assert_eq!(
        total(&http, &addr, &key).await,
        u64::try_from(N).unwrap(),
        "a shipment twice or lost"
    );
    kill9(&mut second);
}

async fn two_processes_share_batches_and_no_row_twice(db: &TestDb) {
    let key = bootstrap(db.url());
    let http = reqwest::Client::new();
    let (mut a, addr_a) = serve(db.url());
    let (mut b, addr_b) = serve(db.url());
    let mut ids = Vec::new();
    for i in 0..6 {
        let addr = if i % 2 == 0 { &addr_a } else { &addr_b };
        ids.push(upload(&http, addr, &key, rows(1_000, &format!("p{i}"))).await);
    }
    let mut all = HashSet::new();
    for id in &ids {
        let batch = processed(&http, &addr_a, &key, id).await;
        all.extend(assert_each_row_once(&batch, 1_000));
    }
    assert_eq!(all.len(), 6_000);
    assert_eq!(total(&http, &addr_b, &key).await, 6_000);
    kill9(&mut a);
    kill9(&mut b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_batch_sqlite() {
    killed_mid_batch_processes_each_row_once_after_restart(&TestDb::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_batch_postgres() {
    let Some(db) = TestDb::postgres() else { return };
    killed_mid_batch_processes_each_row_once_after_restart(&db).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_postgres() {
    let Some(db) = TestDb::postgres() else { return };
    two_processes_share_batches_and_no_row_twice(&db).await;
}
