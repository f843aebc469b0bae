//! A job row's `status` column: waiting to run, claimed by a worker, or failed
//! (each step retried until its attempts run out).

/// Due to run (at `run_at`).
pub(crate) const READY: &str = "ready";
/// Claimed by a worker, until its lease ends.
pub(crate) const RUNNING: &str = "running";
/// Out of attempts.
pub(crate) const FAILED: &str = "failed";
