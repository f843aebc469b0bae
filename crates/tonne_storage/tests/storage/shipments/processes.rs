//! Whole worker processes (the domain's service and the job engine): one killed
//! mid-batch, two at once; every row is processed exactly once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use time::macros::date;
use time::{Duration, OffsetDateTime};
use tonne_jobs::{JobEngine, JobHandler, Worked};
use tonne_kernel::{AccountId, Clock, JobClaim, Step, StoreError, UuidV7Generator};
use tonne_shipments::{
    BATCH_JOB, CALCULATION_JOB, Owner, RowDecoder, RowError, Shipments, ShipmentsService, Upload,
};
use tonne_shipments::{
    BatchSource, BatchStatus, Carriage, RowOutcome, ShipmentBatchId, ShipmentDraft, ShipmentFilter,
    ShipmentRepository,
};
use tonne_test_support::TestDb;

use super::fixtures::{Fixture, T0, first, fixture, leg, rail};

/// The clock of a worker process: moved on by the test.
struct TestClock(std::sync::Mutex<OffsetDateTime>);

impl Clock for TestClock {
    fn now(&self) -> OffsetDateTime {
        *self.0.lock().unwrap()
    }
}

/// Rows `{"shipment_id":"R-i"}`: a rail shipment for supplier `carrier-{i % 3}`,
/// failing every tenth row; after `dies_after` rows the process "dies"
/// (panics mid-chunk, as a `kill -9` would stop it: nothing of the chunk in
/// hand is written).
struct TestDecoder {
    decoded: AtomicUsize,
    dies_after: usize,
}

impl RowDecoder for TestDecoder {
    fn decode(&self, row: &str) -> Result<ShipmentDraft, RowError> {
        let n = self.decoded.fetch_add(1, Ordering::SeqCst);
        assert!(n < self.dies_after, "the process dies");
        let v: serde_json::Value = serde_json::from_str(row).unwrap();
        let reference = v["shipment_id"].as_str().unwrap().to_owned();
        let i: usize = reference.trim_start_matches("R-").parse().unwrap();
        if i % 10 == 9 {
            return Err(RowError::new("legs[0].method", "is not known"));
        }
        Ok(ShipmentDraft {
            reference: Some(reference),
            target_internal_id: Some(format!("carrier-{}", i % 3)),
            target_internal_name: None,
            legs: vec![leg(Carriage::Main, rail(), Some(date!(2026 - 03 - 01)))],
            client_emissions: None,
        })
    }
}

/// The shipments use cases as the job engine's handler (the binary's adapter).
struct Handler(Arc<Shipments>);

#[async_trait::async_trait]
impl JobHandler for Handler {
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        self.0.step(job).await
    }
    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        self.0.give_up(job, reason).await
    }
}

/// A worker process over the store: the domain's service and the job
/// engine, its own clock.
struct Process {
    shipments: Arc<Shipments>,
    engine: Arc<JobEngine>,
}

fn process(f: &Fixture, clock: &Arc<TestClock>, dies_after: usize) -> Process {
    let clock: Arc<dyn Clock> = clock.clone();
    let shipments = Arc::new(Shipments::new(
        Arc::new(f.store.clone()),
        Arc::new(TestDecoder {
            decoded: AtomicUsize::new(0),
            dies_after,
        }),
        Arc::clone(&clock),
        Arc::new(UuidV7Generator),
    ));
    let handler: Arc<dyn JobHandler> = Arc::new(Handler(Arc::clone(&shipments)));
    let engine = JobEngine::new(Arc::new(f.jobs.clone()), clock)
        .handle(BATCH_JOB, Arc::clone(&handler))
        .handle(CALCULATION_JOB, handler)
        .with_lease(tonne_shipments::LEASE);
    Process {
        shipments,
        engine: Arc::new(engine),
    }
}

async fn upload(service: &Shipments, account: AccountId, rows: usize) -> ShipmentBatchId {
    service
        .upload(
            &Owner {
                account_id: account,
                account_name: "Acme".into(),
            },
            Upload {
                rows: (0..rows)
                    .map(|i| format!("{{\"shipment_id\":\"R-{i}\"}}"))
                    .collect(),
                contact_id: None,
                idempotency_key: None,
                calculate: true,
                source: BatchSource::Api,
                data_sheet: None,
            },
        )
        .await
        .unwrap()
}

/// Every row of the batch has exactly one outcome, every stored row exactly
/// one shipment: answers how many rows were stored.
async fn processed_once(f: &Fixture, batch: ShipmentBatchId, rows: usize) -> usize {
    let detail = f.store.batch(f.account, batch).await.unwrap().unwrap();
    assert_eq!(detail.batch.status, BatchStatus::Processed);
    let indices: Vec<u32> = detail.results.iter().map(|r| r.row_index).collect();
    assert_eq!(
        indices,
        (0..u32::try_from(rows).unwrap()).collect::<Vec<_>>(),
        "one outcome per row"
    );
    let mut shipments = HashSet::new();
    for r in &detail.results {
        match &r.outcome {
            RowOutcome::Success(id) => {
                assert!(shipments.insert(*id));
                let s = f.store.shipment(f.account, *id).await.unwrap().unwrap();
                assert_eq!(s.facets.reference, format!("R-{}", r.row_index));
                assert!(s.emissions.is_some());
            }
            RowOutcome::Failed(e) => {
                assert_eq!(r.row_index % 10, 9);
                assert_eq!(e, "legs[0].method: is not known");
            }
        }
    }
    let stored = rows - rows / 10;
    assert_eq!(shipments.len(), stored);
    assert_eq!(
        detail.batch.success_count,
        Some(u32::try_from(stored).unwrap())
    );
    let by_batch = ShipmentFilter {
        batch_ids: vec![batch],
        ..ShipmentFilter::default()
    };
    assert_eq!(
        f.store.count(f.account, &by_batch, 100_000).await.unwrap(),
        u64::try_from(stored).unwrap(),
        "no shipment stored twice"
    );
    stored
}

/// `kill -9` in the middle of a batch: the chunk in hand is lost, the chunks
/// before it stay; after the lease another process (or the same, restarted)
/// takes the batch over and every row is processed exactly once.
pub(super) async fn a_process_killed_mid_batch_leaves_each_row_processed_once(t: TestDb) {
    let f = fixture(t).await;
    let clock = Arc::new(TestClock(std::sync::Mutex::new(T0)));
    // dies in the second chunk of 500
    let doomed = process(&f, &clock, 700);
    let batch = upload(&doomed.shipments, f.account, 1300).await;
    let crashed = tokio::spawn({
        let doomed = Arc::clone(&doomed.engine);
        async move { while doomed.work("doomed").await.unwrap() == Worked::Progress {} }
    })
    .await;
    assert!(crashed.is_err(), "the process died");
    assert_eq!(
        f.store.pending_rows(batch, 2000).await.unwrap().len(),
        800,
        "its first chunk stayed, the second was lost"
    );

    let restarted = process(&f, &clock, usize::MAX);
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Idle,
        "the batch is held until its lease runs out"
    );
    *clock.0.lock().unwrap() = T0 + tonne_shipments::LEASE + Duration::seconds(1);
    // the rows left: a chunk of 500, then the last 300, which ends the batch
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Progress
    );
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Progress
    );
    assert_eq!(
        restarted.engine.work("restarted").await.unwrap(),
        Worked::Idle
    );
    processed_once(&f, batch, 1300).await;
}

/// Two processes working at once take different batches: no row is
/// processed twice.
pub(super) async fn two_processes_never_process_a_row_twice(t: TestDb) {
    let f = fixture(t).await;
    let clock = Arc::new(TestClock(std::sync::Mutex::new(T0)));
    let (a, b) = (
        process(&f, &clock, usize::MAX),
        process(&f, &clock, usize::MAX),
    );
    let mut batches = Vec::new();
    for _ in 0..4 {
        batches.push(upload(&a.shipments, f.account, 600).await);
    }
    let run = |p: Process, name: &'static str| {
        tokio::spawn(async move {
            let mut steps = 0;
            while p.engine.work(name).await.unwrap() == Worked::Progress {
                steps += 1;
            }
            steps
        })
    };
    let (ra, rb) = (run(a, "a"), run(b, "b"));
    let steps = ra.await.unwrap() + rb.await.unwrap();
    assert_eq!(
        steps, 8,
        "two steps per batch: a chunk of 500, then the last 100"
    );
    for batch in batches {
        processed_once(&f, batch, 600).await;
    }
    // the suppliers were created once each, whoever came first
    let suppliers: HashSet<String> = f
        .store
        .shipments(f.account, &ShipmentFilter::default(), &first(100))
        .await
        .unwrap()
        .items
        .into_iter()
        .map(|s| s.supplier.id)
        .collect();
    assert_eq!(suppliers.len(), 3);
}
