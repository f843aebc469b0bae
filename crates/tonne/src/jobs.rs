//! The job engine's wiring and its loop: every server process runs one
//! worker over `tonne_jobs::JobEngine`, which claims the due job of the
//! account served least recently and does one bounded step of it: a chunk
//! of a shipment batch or of a calculation, or a transaction document. Safe
//! with several processes: each job is claimed under a lease.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tonne_estimation::document_jobs::{DOCUMENT_JOB, DocumentJobsService};
use tonne_jobs::{JobEngine, JobHandler, RetryPolicy, Worked};
use tonne_kernel::{JobClaim, Step, StoreError, SystemClock};
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

/// The engine over the services' database, with a handler for every kind.
pub(crate) fn engine(services: &Services, retry: RetryPolicy) -> JobEngine {
    let shipments: Arc<dyn JobHandler> = Arc::new(ShipmentJobs(Arc::clone(&services.shipments)));
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
/// and waits a second after the queue failed. Stopping drops the steps in
/// hand: their writes are committed whole or not at all, and the lease lets
/// another process (or this one, restarted) take the job over.
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

async fn run(engine: Arc<JobEngine>, mut stop: tokio::sync::watch::Receiver<bool>) {
    let name = worker_name();
    tracing::debug!(worker = %name, "job worker started");
    while !*stop.borrow() {
        let worked = tokio::select! {
            worked = engine.work(&name) => worked,
            _ = stop.changed() => break,
        };
        let pause = match worked {
            Ok(Worked::Progress) => {
                // a step's computation runs on this task: let others run
                tokio::task::yield_now().await;
                continue;
            }
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
