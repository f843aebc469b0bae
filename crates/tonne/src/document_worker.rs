//! The asynchronous transaction documents' worker: every server process runs
//! one, stopped with the shipments worker (the same signal). Safe with
//! several processes: each job is claimed under a lease.

use std::sync::Arc;
use std::time::Duration;

use tonne_estimation::document_jobs::{DocumentJobsService, Worked};

/// How long the worker waits when nothing is queued.
const IDLE: Duration = Duration::from_millis(200);

/// Does queued documents (`DocumentJobsService::work`) until `stop` turns
/// true: job after job while there are some, every 200 ms when idle, a
/// second after a failure. Stopping drops the job in hand: its estimate is
/// stored whole or not at all, and the lease lets another process take it.
pub(crate) fn spawn(
    jobs: Arc<dyn DocumentJobsService>,
    name: String,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while !*stop.borrow() {
            let step = tokio::select! {
                step = jobs.work(&name) => step,
                _ = stop.changed() => break,
            };
            let pause = match step {
                Ok(Worked::Progress) => continue,
                Ok(Worked::Idle) => IDLE,
                Err(e) => {
                    tracing::warn!(error = %e, "document worker step failed; retrying in 1 s");
                    Duration::from_secs(1)
                }
            };
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                _ = stop.changed() => break,
            }
        }
    })
}
