//! When a failed job runs again, and when it is given up.

use time::Duration;

/// Attempts and back-off.
///
/// ```
/// use time::Duration;
/// use tonne_jobs::RetryPolicy;
///
/// let p = RetryPolicy::default();
/// assert_eq!(p.max_attempts, 5);
/// assert_eq!(p.delay(1), Duration::seconds(2));
/// assert_eq!(p.delay(2), Duration::seconds(4));
/// assert_eq!(p.delay(30), Duration::minutes(5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Failed attempts after which a job is given up.
    pub max_attempts: u32,
    /// The wait after the first failure; it doubles with each further one.
    pub base: Duration,
    /// The longest wait.
    pub cap: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 5,
            base: Duration::seconds(2),
            cap: Duration::minutes(5),
        }
    }
}

impl RetryPolicy {
    /// The wait after the `attempts`-th failure: `base × 2^(attempts−1)`, at
    /// most `cap`.
    pub fn delay(&self, attempts: u32) -> Duration {
        let doublings = attempts.saturating_sub(1).min(30);
        let factor = 1_i32.checked_shl(doublings).unwrap_or(i32::MAX);
        self.base
            .checked_mul(factor)
            .map_or(self.cap, |d| d.min(self.cap))
    }

    /// Whether a job that failed `attempts` times is given up.
    pub fn exhausted(&self, attempts: u32) -> bool {
        attempts >= self.max_attempts
    }
}
