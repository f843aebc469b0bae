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
