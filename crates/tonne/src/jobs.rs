//! The job engine's wiring and its loop: every server process runs one
//! worker over `tonne_jobs::JobEngine`, which claims the due job of the
//! account served least recently and does one bounded step of it: a chunk
//! of a shipment batch or of a calculation, or a transaction document. Safe
//! with several processes: each job is claimed under a lease.
//!
//! The server's sweeps are recurring system jobs on the same engine (one
//! row each, shared by every process, ensured at start by
//! [`ensure_sweeps`]): the test-order pipeline and the expiry of hosted-page
//! orders nobody confirmed. Each step sweeps at most [`SWEEP_LIMIT`] rows
//! and comes back after its interval, or at once when it found a full
//! sweep's worth.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tonne_estimation::document_jobs::{DOCUMENT_JOB, DocumentJobsService};
use tonne_jobs::{JobEngine, JobHandler, RetryPolicy, Worked};
use tonne_kernel::{Clock as _, JobClaim, Step, StoreError, SystemClock};
use tonne_links::OffsetLinksService;
use tonne_ordering::OrderingService;
use tonne_shipments::{BATCH_JOB, CALCULATION_JOB, ShipmentsService};

use crate::wiring::Services;

/// How long the worker waits when nothing is due.
const IDLE: Duration = Duration::from_millis(200);
/// How long it waits after its queue failed (the database is down).
const FAILED: Duration = Duration::from_secs(1);

/// The shipments domain's jobs: batches and calculations.
struct ShipmentJobs(Arc<dyn ShipmentsService>);

#[async_trait]
impl JobHandler for ShipmentJobs {
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        self.0.step(job).await
    }

    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        self.0.give_up(job, reason).await
    }
}

/// The estimation domain's job: asynchronous transaction documents.
struct DocumentJobs(Arc<dyn DocumentJobsService>);

#[async_trait]
impl JobHandler for DocumentJobs {
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        self.0.step(job).await
    }

    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        self.0.give_up(job, reason).await
    }
}

/// The PACT front end's job: answering a partner's footprint request.
struct PactAnswerJobs(tonne_pact::PactAnswers);

#[async_trait]
impl JobHandler for PactAnswerJobs {
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError> {
        self.0.step(job).await
    }

    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        self.0.give_up(job, reason).await
    }
}

/// The system job moving test-mode orders through the simulated pipeline
/// (received → placed → paid → retiring → complete).
pub(crate) const TEST_ORDER_PIPELINE_JOB: &str = "test_order_pipeline";
/// The system job cancelling hosted-page orders nobody confirmed in time.
pub(crate) const LINK_ORDER_EXPIRY_JOB: &str = "link_order_expiry";
/// Most orders one step of a sweep moves or cancels.
pub(crate) const SWEEP_LIMIT: u32 = 200;

/// The server's recurring sweeps, from the settings that time them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sweeps {
    /// A test-mode order moves one status on after this long in one.
    pub test_order_step: Duration,
    /// A hosted-page order nobody confirmed for this long is cancelled.
    pub link_hold: time::Duration,
}

impl Sweeps {
    /// The test-order pipeline runs every quarter step, at most every 50 ms.
    fn test_orders_every(&self) -> Duration {
        (self.test_order_step / 4).max(Duration::from_millis(50))
    }

    /// Link-order expiry runs every quarter hold, clamped to 100 ms..60 s.
    fn link_expiry_every(&self) -> Duration {
        let hold = Duration::try_from(self.link_hold).unwrap_or(Duration::from_secs(86_400));
        (hold / 4).clamp(Duration::from_millis(100), Duration::from_secs(60))
    }
}

/// What a sweep that handled `done` rows leaves: a full sweep's worth may
/// have left more (back in line at once, behind the accounts served
/// before), else it comes back after `every`.
fn swept(done: usize, every: Duration) -> Step {
    if u32::try_from(done).map_or(true, |done| done >= SWEEP_LIMIT) {
        Step::More
    } else {
        Step::Again(every)
    }
}

/// The test-order pipeline: moves every test-mode order unchanged for a
/// step one status on. Safe if two processes ever ran it at once (a lease
/// that ran out): each move is a conditional update.
struct TestOrderPipeline {
    ordering: Arc<dyn OrderingService>,
    step: time::Duration,
    every: Duration,
}

#[async_trait]
impl JobHandler for TestOrderPipeline {
    async fn step(&self, _: &JobClaim) -> Result<Step, StoreError> {
        let moved = self
            .ordering
            .advance_test_orders(self.step, SWEEP_LIMIT)
            .await
            .map_err(|e| StoreError::Unexpected(anyhow::anyhow!("advancing test orders: {e}")))?;
        if moved > 0 {
            tracing::debug!(moved, "advanced test orders");
        }
        Ok(swept(moved, self.every))
    }

    /// Never called: a system job is not given up (the engine logs it and
    /// runs it again later).
    async fn give_up(&self, _: &JobClaim, _: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Link-order expiry: cancels hosted-page orders nobody confirmed within
/// the hold, returning their stock. Each cancellation is a conditional
/// transition.
struct LinkOrderExpiry {
    links: Arc<dyn OffsetLinksService>,
    every: Duration,
}

#[async_trait]
impl JobHandler for LinkOrderExpiry {
    async fn step(&self, _: &JobClaim) -> Result<Step, StoreError> {
        let cancelled = self
            .links
            .expire_unconfirmed(SWEEP_LIMIT)
            .await
            .map_err(|e| {
                StoreError::Unexpected(anyhow::anyhow!(
                    "cancelling unconfirmed hosted-page orders: {e}"
                ))
            })?;
        if cancelled > 0 {
            tracing::info!(cancelled, "cancelled unconfirmed hosted-page orders");
        }
        Ok(swept(cancelled, self.every))
    }

    /// Never called: a system job is not given up.
    async fn give_up(&self, _: &JobClaim, _: &str) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Makes sure the sweeps' system jobs exist (each once, however many
/// processes start at once), due now if new.
pub(crate) async fn ensure_sweeps(services: &Services) -> Result<(), StoreError> {
    let store = tonne_storage::JobStore::new(services.db.clone());
    let now = SystemClock.now();
    for (kind, subject) in [
        (TEST_ORDER_PIPELINE_JOB, "test_orders"),
        (LINK_ORDER_EXPIRY_JOB, "unconfirmed_link_orders"),
    ] {
        if store.ensure_system_job(kind, subject, now).await? {
            tracing::debug!(kind, "system job queued");
        }
    }
    Ok(())
}

/// The engine over the services' database, with a handler for every kind.
/// `public_url` names Tonne as the `source` of its answers to PACT requests.
pub(crate) fn engine(
    services: &Services,
    retry: RetryPolicy,
    sweeps: Sweeps,
    public_url: &str,
) -> JobEngine {
    let shipments: Arc<dyn JobHandler> = Arc::new(ShipmentJobs(Arc::clone(&services.shipments)));
    let step =
        time::Duration::try_from(sweeps.test_order_step).unwrap_or(time::Duration::seconds(5));
    JobEngine::new(
        Arc::new(tonne_storage::JobStore::new(services.db.clone())),
        Arc::new(SystemClock),
    )
    .handle(BATCH_JOB, Arc::clone(&shipments))
    .handle(CALCULATION_JOB, shipments)
    .handle(
        DOCUMENT_JOB,
        Arc::new(DocumentJobs(Arc::clone(&services.document_jobs))),
    )
    .handle(
        tonne_accounts::pact::partners::ANSWER_JOB,
        Arc::new(PactAnswerJobs(tonne_pact::PactAnswers::new(
            Arc::clone(&services.pact_partners),
            Arc::clone(&services.shipments),
            Arc::clone(&services.pact_gateway),
            public_url,
        ))),
    )
    .handle(
        TEST_ORDER_PIPELINE_JOB,
        Arc::new(TestOrderPipeline {
            ordering: Arc::clone(&services.ordering),
            step,
            every: sweeps.test_orders_every(),
        }),
    )
    .handle(
        LINK_ORDER_EXPIRY_JOB,
        Arc::new(LinkOrderExpiry {
            links: Arc::clone(&services.links),
            every: sweeps.link_expiry_every(),
        }),
    )
    .with_lease(services.jobs_lease)
    .with_retry(retry)
}

/// This process's worker name, unique among the processes sharing the
/// database: host, process id and a random part (a restarted process with a
/// reused pid must not pass for the one that died, whose leases must expire).
pub(crate) fn worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "tonne".to_owned());
    let random = uuid::Uuid::new_v4().simple().to_string();
    format!(
        "{host}:{}:{}",
        std::process::id(),
        random.get(..12).unwrap_or(&random)
    )
}

/// Runs `workers` loops over the engine until `stop` turns true (at least
/// one): while one loop computes a step, another waits on the database.
/// Each loop does steps while some are due, polls every 200 ms when idle,
/// and waits a second after the queue failed. Each step runs on a blocking
/// thread ([`work_off_runtime`]). Stopping ends the loops at once; a step in
/// hand finishes on its thread (its writes are committed whole or not at
/// all, and were the process killed first, the lease lets another process,
/// or this one restarted, take the job over).
pub(crate) fn spawn(
    engine: JobEngine,
    workers: usize,
    stop: tokio::sync::watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    let engine = Arc::new(engine);
    let loops: Vec<_> = (0..workers.max(1))
        .map(|_| tokio::spawn(run(Arc::clone(&engine), stop.clone())))
        .collect();
    tokio::spawn(async move {
        for handle in loops {
            let _ = handle.await;
        }
    })
}

/// One turn of the engine on a blocking thread, not on the runtime's
/// workers: a step computes for up to a few hundred milliseconds (500 rows
/// decoded and calculated) without yielding, and the runtime's workers also
/// drive the database connections' sockets that the API's requests use (a
/// connection's socket task runs where the connection was opened). Were the
/// step on a worker, a request whose statement went out on such a
/// connection would wait for the step to end. Its statements still go
/// through the runtime (`block_on` on its handle). A step already begun runs to its end when the loop stops (it is
/// bounded, and its writes are whole or not at all either way).
async fn work_off_runtime(engine: &Arc<JobEngine>, name: &str) -> Result<Worked, StoreError> {
    let (engine, name) = (Arc::clone(engine), name.to_owned());
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || runtime.block_on(engine.work(&name)))
        .await
        .unwrap_or_else(|e| {
            Err(StoreError::Unexpected(anyhow::anyhow!(
                "a job step stopped: {e}"
            )))
        })
}

async fn run(engine: Arc<JobEngine>, mut stop: tokio::sync::watch::Receiver<bool>) {
    let name = worker_name();
    tracing::debug!(worker = %name, "job worker started");
    while !*stop.borrow() {
        let worked = tokio::select! {
            worked = work_off_runtime(&engine, &name) => worked,
            _ = stop.changed() => break,
        };
        let pause = match worked {
            Ok(Worked::Progress) => continue,
            Ok(Worked::Idle) => IDLE,
            Err(e) => {
                // the error's own line, not its chain: no connection string
                tracing::warn!(error = %e, "the job queue failed; retrying in 1 s");
                FAILED
            }
        };
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            _ = stop.changed() => break,
        }
    }
    tracing::debug!(worker = %name, "job worker stopped");
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn worker_names_are_unique_per_start_and_name_the_process() {
        let (a, b) = (worker_name(), worker_name());
        assert_ne!(a, b, "a restarted process must not reuse a dead one's name");
        assert!(a.contains(&format!(":{}:", std::process::id())), "{a}");
    }

    #[test]
    fn sweeps_run_as_often_as_the_timers_they_replace() {
        let sweeps = |step_ms, hold_ms| Sweeps {
            test_order_step: Duration::from_millis(step_ms),
            link_hold: time::Duration::milliseconds(hold_ms),
        };
        let s = sweeps(150, 2_000);
        assert_eq!(s.test_orders_every(), Duration::from_millis(50));
        assert_eq!(s.link_expiry_every(), Duration::from_millis(500));
        let s = sweeps(5_000, 86_400_000);
        assert_eq!(s.test_orders_every(), Duration::from_millis(1_250));
        assert_eq!(s.link_expiry_every(), Duration::from_secs(60));
        assert_eq!(sweeps(0, 0).link_expiry_every(), Duration::from_millis(100));
    }

    #[test]
    fn a_full_sweep_goes_back_in_line_at_once() {
        let every = Duration::from_millis(250);
        assert_eq!(swept(0, every), Step::Again(every));
        assert_eq!(swept(199, every), Step::Again(every));
        assert_eq!(swept(200, every), Step::More);
    }

    #[tokio::test]
    async fn the_worker_pauses_when_idle_and_stops_when_told() {
        let mut queue = tonne_jobs::MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _| Ok(None));
        let engine = JobEngine::new(Arc::new(queue), Arc::new(SystemClock));
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let task = spawn(engine, 2, stopped);
        tokio::time::sleep(Duration::from_millis(50)).await;
        stop.send(true).unwrap();
        tokio::time::timeout(Duration::from_secs(2), task)
            .await
            .unwrap()
            .unwrap();
    }
}
