//! The job engine: every background task of Tonne (shipment batches,
//! calculations, asynchronous transaction documents) is a durable job that
//! this engine claims, steps and ends.
//!
//! - **Durable.** A job is a row, written in the same transaction as the
//!   write that needs it (a batch and its job are stored together).
//! - **Leased.** A worker claims a job until a deadline; every write a step
//!   makes checks the lease in its own transaction, so a job taken over
//!   after a crash (`kill -9`) is never written twice, and several processes
//!   share the work.
//! - **Bounded steps.** A step does a bounded amount of work (one chunk of
//!   rows) and answers [`Step::More`]; the job then goes back in line.
//! - **Fair.** [`JobQueue::claim`] serves the account served least recently
//!   first, so one account's backlog delays another account's next step by
//!   about one step.
//! - **Attempts.** A step that fails, or a lease that ran out, counts an
//!   attempt; the job is retried after an exponential back-off
//!   ([`RetryPolicy`]) and, after [`RetryPolicy::max_attempts`], ended failed
//!   with its reason ([`JobHandler::give_up`] records it on the subject: a
//!   batch is processed with its `batch_error`). A failing job never blocks
//!   the others.
//! - **Recurring system jobs.** A job of no account (the server's sweeps:
//!   the test-order pipeline, the expiry of unconfirmed link orders) answers
//!   [`Step::Again`] with its interval and goes back in line due then. It
//!   takes its turn by the time it fell due, among the accounts by when each
//!   was last served, so neither starves the other. It is never given up:
//!   after its last attempt fails it is logged and comes back after the
//!   longest back-off, its attempts cleared.
//!
//! The engine is pure: its queue ([`JobQueue`], stored by `tonne_storage`)
//! and the use cases that do the steps ([`JobHandler`], one per kind) are
//! ports; the loop that calls [`JobEngine::work`] is the binary's.
//!
//! ```
//! use std::sync::Arc;
//! use time::OffsetDateTime;
//! use tonne_jobs::{Finished, JobClaim, JobEngine, JobLease, JobQueue, Worked};
//! use tonne_kernel::{StoreError, SystemClock};
//!
//! /// A queue with nothing in it.
//! struct Empty;
//!
//! #[async_trait::async_trait]
//! impl JobQueue for Empty {
//!     async fn claim(&self, _: &str, _: OffsetDateTime, _: OffsetDateTime)
//!         -> Result<Option<JobClaim>, StoreError> { Ok(None) }
//!     async fn release(&self, _: &JobLease, _: OffsetDateTime) -> Result<(), StoreError> { Ok(()) }
//!     async fn retry(&self, _: &JobLease, _: u32, _: &str, _: OffsetDateTime)
//!         -> Result<(), StoreError> { Ok(()) }
//!     async fn finish(&self, _: &JobLease, _: Finished) -> Result<(), StoreError> { Ok(()) }
//! }
//!
//! let engine = JobEngine::new(Arc::new(Empty), Arc::new(SystemClock));
//! let worked = tokio::runtime::Builder::new_current_thread()
//!     .build()
//!     .unwrap()
//!     .block_on(engine.work("w1"))
//!     .unwrap();
//! assert_eq!(worked, Worked::Idle);
//! ```

mod engine;
mod ports;
mod retry;

pub use engine::{JobEngine, Worked};
pub use ports::{Finished, JobHandler, JobQueue};
#[cfg(any(test, feature = "mock"))]
pub use ports::{MockJobHandler, MockJobQueue};
pub use retry::RetryPolicy;
pub use tonne_kernel::{JobClaim, JobId, JobLease, Step};
