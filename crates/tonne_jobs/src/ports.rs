//! The engine's ports: the queue it claims from ([`JobQueue`], driven) and
//! the use cases that do a kind's steps ([`JobHandler`]).

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{JobClaim, JobLease, Step, StoreError};

/// How a job ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finished {
    /// Its subject is finished.
    Done,
    /// It was given up, with the reason (kept for operators).
    Failed(String),
}

/// The durable queue of jobs.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait JobQueue: Send + Sync {
    /// Claims a due job for `worker` until `until`, or `None`. Due: waiting
    /// and due by `now`, or held under a lease that ran out (then claimed
    /// with one more attempt counted). Among the accounts with a due job,
    /// the one served least recently is served, its oldest job first; the
    /// account is recorded as served at `now`. A due system job (of no
    /// account) takes its turn by when it fell due: before the accounts
    /// last served after that, after those served before.
    async fn claim(
        &self,
        worker: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> Result<Option<JobClaim>, StoreError>;

    /// Puts a held job back in line, due at `due`, its attempts cleared (its
    /// step succeeded). `NotFound` when the lease is no longer held.
    async fn release(&self, lease: &JobLease, due: OffsetDateTime) -> Result<(), StoreError>;

    /// Records a failed attempt of a held job: `attempts` so far, the
    /// error, due again at `due`. `NotFound` when the lease is no longer held.
    async fn retry(
        &self,
        lease: &JobLease,
        attempts: u32,
        error: &str,
        due: OffsetDateTime,
    ) -> Result<(), StoreError>;

    /// Ends a held job. `NotFound` when the lease is no longer held.
    async fn finish(&self, lease: &JobLease, finished: Finished) -> Result<(), StoreError>;
}

/// The use cases of one kind of job.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait JobHandler: Send + Sync {
    /// Does one bounded step of the job (about 250 ms of work at most): its
    /// writes check the lease. `NotFound` means the lease was lost (another
    /// worker took the job over); any other error counts an attempt.
    async fn step(&self, job: &JobClaim) -> Result<Step, StoreError>;

    /// The job is given up: records `reason` on its subject where its owner
    /// will see it (a batch ends processed with its `batch_error`).
    async fn give_up(&self, job: &JobClaim, reason: &str) -> Result<(), StoreError>;
}
