//! [`JobEngine`]: one step of background work — claim, step, and record
//! what came of it.

use std::collections::BTreeMap;
use std::sync::Arc;

use time::{Duration, OffsetDateTime};
use tonne_kernel::{Clock, JobClaim, Step, StoreError};

use crate::ports::{Finished, JobHandler, JobQueue};
use crate::retry::RetryPolicy;

/// How long a worker holds a job, by default, before another may take it
/// over (each step's writes extend it).
pub const LEASE: Duration = Duration::seconds(60);

/// What one call of [`JobEngine::work`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Worked {
    /// Nothing was due.
    Idle,
    /// A job was stepped (or ended, or found taken over): look again at once.
    Progress,
}

/// The engine over its queue and the handlers of each kind.
pub struct JobEngine {
    queue: Arc<dyn JobQueue>,
    handlers: BTreeMap<String, Arc<dyn JobHandler>>,
    clock: Arc<dyn Clock>,
    lease: Duration,
    retry: RetryPolicy,
}

impl JobEngine {
    /// An engine with no handlers yet, the default lease and retry policy.
    pub fn new(queue: Arc<dyn JobQueue>, clock: Arc<dyn Clock>) -> Self {
        Self {
            queue,
            handlers: BTreeMap::new(),
            clock,
            lease: LEASE,
            retry: RetryPolicy::default(),
        }
    }

    /// Steps jobs of `kind` with `handler`.
    pub fn handle(mut self, kind: &str, handler: Arc<dyn JobHandler>) -> Self {
        self.handlers.insert(kind.to_owned(), handler);
        self
    }

    /// Another lease: how long after a worker stopped (a crash) another
    /// takes its job over.
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// Another retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Claims the next due job (fairly across accounts) for `worker` and
    /// does one step of it. `Err` only when the queue itself failed.
    pub async fn work(&self, worker: &str) -> Result<Worked, StoreError> {
        let now = self.clock.now();
        let Some(job) = self.queue.claim(worker, now, now + self.lease).await? else {
            return Ok(Worked::Idle);
        };
        if self.retry.exhausted(job.attempts) {
            // its lease ran out that many times: each worker stopped mid-step
            let reason = format!(
                "its worker stopped before finishing a step {} times",
                job.attempts
            );
            if job.is_system() {
                self.recur_later(&job, &reason).await?;
            } else {
                self.give_up(&job, &reason).await?;
            }
            return Ok(Worked::Progress);
        }
        let Some(handler) = self.handlers.get(&job.kind) else {
            // a kind this process does not know (a newer process's): leave it
            // for another, counting the attempt so that it cannot loop
            self.failed(&job, &format!("no handler for jobs of kind '{}'", job.kind))
                .await?;
            return Ok(Worked::Progress);
        };
        match handler.step(&job).await {
            Ok(Step::More) => {
                self.settle(self.queue.release(&job.lease, self.clock.now()).await)?
            }
            Ok(Step::Again(every)) => {
                let due = self.after(every);
                self.settle(self.queue.release(&job.lease, due).await)?
            }
            Ok(Step::Done) => self.settle(self.queue.finish(&job.lease, Finished::Done).await)?,
            // the lease was lost: the worker that took the job over goes on
            Err(StoreError::NotFound) => {}
            Err(e) => self.failed(&job, &format!("{:#}", e.unexpected())).await?,
        }
        Ok(Worked::Progress)
    }

    /// Counts a failed attempt: retried after the back-off, or given up.
    async fn failed(&self, job: &JobClaim, error: &str) -> Result<(), StoreError> {
        let attempts = job.attempts.saturating_add(1);
        if self.retry.exhausted(attempts) {
            let reason = format!("{attempts} attempts failed; the last: {error}");
            if job.is_system() {
                return self.recur_later(job, &reason).await;
            }
            return self.give_up(job, &reason).await;
        }
        tracing::warn!(
            job = %job.lease.job,
            kind = %job.kind,
            account = %owner(job),
            attempts,
            error,
            "a job's step failed; it will be retried"
        );
        let due = self.clock.now() + self.retry.delay(attempts);
        self.settle(self.queue.retry(&job.lease, attempts, error, due).await)
    }

    /// Ends the job failed, its reason recorded on its subject first. A
    /// subject that cannot take the reason does not keep the job alive.
    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        tracing::error!(
            job = %job.lease.job,
            kind = %job.kind,
            account = %owner(job),
            subject = %job.subject,
            reason,
            "a job was given up"
        );
        if let Some(handler) = self.handlers.get(&job.kind)
            && let Err(e) = handler.give_up(job, reason).await
        {
            tracing::error!(
                job = %job.lease.job,
                error = %format!("{:#}", e.unexpected()),
                "a given-up job's subject could not record it"
            );
        }
        self.settle(
            self.queue
                .finish(&job.lease, Finished::Failed(reason.to_owned()))
                .await,
        )
    }

    /// A system job (a recurring sweep) is never given up: stopping it would
    /// stop the sweep for every account until an operator noticed. It is
    /// logged as an error and comes back after the longest back-off, its
    /// attempts cleared (the next failures back off again from the start);
    /// its reason stays its `last_error`.
    async fn recur_later(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError> {
        tracing::error!(
            job = %job.lease.job,
            kind = %job.kind,
            reason,
            later = %self.retry.cap,
            "a recurring system job keeps failing; it runs again later"
        );
        let due = self.clock.now() + self.retry.cap;
        self.settle(self.queue.retry(&job.lease, 0, reason, due).await)
    }

    /// When a job that answered [`Step::Again`] with `every` is due again
    /// (after the longest back-off should `every` not be a time).
    fn after(&self, every: std::time::Duration) -> OffsetDateTime {
        let now = self.clock.now();
        Duration::try_from(every)
            .ok()
            .and_then(|every| now.checked_add(every))
            .unwrap_or(now + self.retry.cap)
    }

    /// A lost lease is no failure of this worker: another holds the job.
    fn settle(&self, result: Result<(), StoreError>) -> Result<(), StoreError> {
        match result {
            Ok(()) | Err(StoreError::NotFound) => Ok(()),
            Err(e) => Err(e),
        }
    }
}

/// Whose job it is, for the logs: its account, or `system`.
fn owner(job: &JobClaim) -> String {
    job.account_id
        .map_or_else(|| "system".to_owned(), |a| a.to_string())
}

#[cfg(test)]
mod tests;
