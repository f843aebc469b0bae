//! The value types of durable background jobs, shared by the job engine
//! (`tonne_jobs`), the domains whose use cases do a job's steps, and the
//! storage that holds them.
//!
//! A job belongs to an account, names its kind (which use case steps it) and
//! its subject (the batch, calculation or document it works on). A *system
//! job* belongs to no account: a recurring sweep over every account's rows
//! (the test-order pipeline, the expiry of unconfirmed link orders), whose
//! every step answers [`Step::Again`] and which is never given up. A worker
//! holds a job under a [`JobLease`]; every write a step makes checks, in its
//! own transaction, that the lease is still held, so a job taken over after a
//! crash is never written twice.
//!
//! ```
//! use tonne_kernel::{AccountId, JobClaim, JobId, JobLease, Step};
//!
//! let job = JobClaim {
//!     lease: JobLease { job: "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap(), worker: "w1".into() },
//!     kind: "shipment_batch".into(),
//!     account_id: Some("0190c6f1a7b27c3e9f2d4b1a2c3d4e60".parse().unwrap()),
//!     subject: "0190c6f1a7b27c3e9f2d4b1a2c3d4e61".into(),
//!     attempts: 0,
//! };
//! assert_eq!(job.lease.worker, "w1");
//! assert!(!job.is_system());
//! assert_ne!(Step::More, Step::Done);
//! ```

use crate::ids::AccountId;
use crate::store::StoreError;

crate::define_id!(
    /// A durable background job.
    JobId
);

/// Which worker holds which job: the proof a step's writes present.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobLease {
    pub job: JobId,
    /// The worker's name, unique per process and start.
    pub worker: String,
}

/// A job as a worker claimed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobClaim {
    pub lease: JobLease,
    /// Which use case steps it (a domain's constant, e.g. `shipment_batch`).
    pub kind: String,
    /// The account it works for: claims are fair across accounts. `None`
    /// for a system job (a recurring sweep, see [`JobClaim::is_system`]).
    pub account_id: Option<AccountId>,
    /// What it works on (a batch's, calculation's or document's id).
    pub subject: String,
    /// Failed attempts so far (a step that failed, or a lease that ran out).
    pub attempts: u32,
}

impl JobClaim {
    /// Whether it is a system job: no account's, recurring (each step
    /// answers [`Step::Again`]), never given up — after its last attempt
    /// fails it is logged and tried again later, its attempts cleared.
    pub fn is_system(&self) -> bool {
        self.account_id.is_none()
    }

    /// The id the job works on, as its type; a subject that does not parse
    /// is an unexpected error (the job is retried, then given up).
    ///
    /// ```
    /// use tonne_kernel::{AccountId, JobClaim, JobLease};
    ///
    /// let job = JobClaim {
    ///     lease: JobLease { job: "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap(), worker: "w".into() },
    ///     kind: "k".into(),
    ///     account_id: Some("0190c6f1a7b27c3e9f2d4b1a2c3d4e60".parse().unwrap()),
    ///     subject: "0190c6f1a7b27c3e9f2d4b1a2c3d4e61".into(),
    ///     attempts: 0,
    /// };
    /// let id: AccountId = job.parsed_subject().unwrap();
    /// assert_eq!(id.to_string(), job.subject);
    /// assert!(job.parsed_subject::<u8>().is_err());
    /// ```
    pub fn parsed_subject<T: std::str::FromStr>(&self) -> Result<T, StoreError> {
        self.subject.parse().map_err(|_| {
            StoreError::Unexpected(anyhow::anyhow!(
                "job {} of kind {} names no valid subject: {}",
                self.lease.job,
                self.kind,
                self.subject
            ))
        })
    }
}

/// What one step of a job left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Work remains: the job goes back in line behind other accounts' jobs.
    More,
    /// The job's subject is finished (or was already).
    Done,
    /// Nothing left for now: the job comes back after this interval (a
    /// recurring system job's sweep), its attempts cleared.
    Again(std::time::Duration),
}
