//! The limiter port: the budget, one decision, and the trait every limiter implements.

use std::time::Duration;

/// The configured budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatePolicy {
    /// Sustained requests per second.
    pub per_second: u32,
    /// Requests allowed at once after a quiet period.
    pub burst: u32,
}

/// The answer for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateDecision {
    /// Whether the request may proceed.
    pub allowed: bool,
    /// Requests left in the burst right now.
    pub remaining: u32,
    /// Seconds until the budget is whole again.
    pub reset_secs: u64,
    /// When refused: seconds to wait before a retry can succeed (at least 1).
    pub retry_after_secs: u64,
}

impl RateDecision {
    /// An allowed request with the whole budget left: what a limiter answers
    /// when it cannot decide (fail-open).
    pub fn unlimited(policy: RatePolicy) -> Self {
        Self {
            allowed: true,
            remaining: policy.burst,
            reset_secs: 0,
            retry_after_secs: 0,
        }
    }
}

/// Decides whether a request of a given client may proceed.
#[async_trait::async_trait]
pub trait RateLimiter: Send + Sync {
    /// Counts one request of `key` (an API key id, or `ip:<addr>`).
    async fn check(&self, key: &str) -> RateDecision;
    /// The budget, for the `RateLimit-Policy` header.
    fn policy(&self) -> RatePolicy;
    /// Forgets clients whose budget is whole again (bounded memory).
    fn sweep(&self);
}

/// How often a server should call [`RateLimiter::sweep`].
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);
