//! One tenant's background work cannot stall another's. A batch that a
//! store refuses (PostgreSQL refuses U+0000 in text; the door now refuses
//! it too, so these batches are written beneath it, as rows stored before
//! that check, or anything else a store may refuse) used to fail its
//! worker's transaction for ever, claims going oldest first: thirty of them
//! kept another organisation's one-row batch pending. Now each is a job of
//! the engine: its attempts are counted, it is given up (the batch
//! processed with its error) and claims serve the account served least
//! recently.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tonne_kernel::UuidV7Generator;
use tonne_shipments::{BatchSource, NewBatch, ShipmentBatchId, ShipmentRepository as _};
use tonne_test_support::{TestDb, on_both_backends};

use crate::support::TestApp;

/// A server whose failed jobs are retried at once and given up after three
/// attempts (the defaults: 2 s doubling, five attempts).
async fn quick_retries(db: TestDb) -> TestApp {
    TestApp::spawn_with(db, |o| {
        o.job_retry = tonne_jobs::RetryPolicy {
            max_attempts: 3,
            base: time::Duration::milliseconds(10),
            cap: time::Duration::milliseconds(50),
        };
    })
    .await
}

fn row(id: &str) -> Value {
    json!({
        "shipment_id": id,
        "target_internal_id": "carrier-1",
        "legs": [{"carriage": "main", "method": {"train_type": "electric_freight_train"},
                  "distance": {"amount": "300", "unit": "km"}, "load": {"mass": {"amount": "2", "unit": "t"}}}],
    })
}

/// The batch once processed, polling at most `within`.
async fn processed(app: &TestApp, key: &str, id: &str, within: Duration) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let res = app.get(&format!("/v1/shipments/batches/{id}"), key).await;
        assert_eq!(res.status, 200, "{}", res.body);
        if res.body["status"] == "processed" {
            return res.body;
        }
        assert!(
            Instant::now() < deadline,
            "batch {id} not processed: {}",
            res.body
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn a_batch_the_store_refuses_ends_failed_and_stalls_no_one(app: TestApp) {
    let (a, b) = (app.tenant().await, app.tenant().await);
    let store = tonne_storage::ShipmentStore::new(app.services.db.clone());
    let mut poisoned = Vec::new();
    for i in 0..30 {
        let id = ShipmentBatchId::generate(&UuidV7Generator);
        let body = serde_json::to_string(&row(&format!("P-{i}\u{0}"))).unwrap();
        assert!(body.contains("\\u0000"), "{body}");
        store
            .insert_batch(&NewBatch {
                id,
                account_id: a.live_account.parse().unwrap(),
                account_name: "A".into(),
                source: BatchSource::Api,
                data_sheet: None,
                idempotency_key: None,
                contact_id: None,
                calculate: true,
                rows: vec![body],
                created_at: time::OffsetDateTime::now_utc(),
            })
            .await
            .unwrap();
        poisoned.push(id.to_string());
    }
    let res = app
        .post(
            "/v1/shipments/batches",
            &b.live_key,
            &json!({"shipments": [row("B-1")], "calculate_emissions": true}),
        )
        .await;
    assert_eq!(res.status, 200, "{}", res.body);
    let mine = res.body["id"].as_str().unwrap().to_owned();
    let done = processed(&app, &b.live_key, &mine, Duration::from_secs(30)).await;
    assert_eq!(done["success_count"], 1, "{done}");

    // every poisoned batch ends: on PostgreSQL with the error its owner reads
    let refuses_nul = app.database_url.starts_with("postgres");
    for id in &poisoned {
        let batch = processed(&app, &a.live_key, id, Duration::from_secs(60)).await;
        if refuses_nul {
            assert!(
                batch
                    .to_string()
                    .contains("processing stopped after repeated failures"),
                "{batch}"
            );
            assert!(!batch.to_string().contains("0x00"), "no internals: {batch}");
        }
    }
    if refuses_nul {
        // a given-up job records its reason on the batch first and ends
        // itself a moment later: wait for the last job rather than race it
        let mut failed = 0;
        for _ in 0..100 {
            failed = tonne_test_support::count(
                &app.services.db,
                "SELECT COUNT(*) AS n FROM jobs WHERE status = 'failed' AND last_error IS NOT NULL",
            )
            .await;
            if failed >= 30 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            failed, 30,
            "each given up once, its reason kept for operators"
        );
    }
}

on_both_backends!(
    with crate::security::fair_share::quick_retries;
    a_batch_the_store_refuses_ends_failed_and_stalls_no_one,
);
