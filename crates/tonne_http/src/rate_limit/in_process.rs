//! GCRA per key in this process's memory (governor): the limit is per process.

use std::num::NonZeroU32;

use governor::clock::{Clock as _, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter as Governor};

use super::port::{RateDecision, RateLimiter, RatePolicy};

type Keyed =
    Governor<String, DefaultKeyedStateStore<String>, DefaultClock, StateInformationMiddleware>;

/// GCRA per key, in this process's memory.
pub struct InProcessRateLimiter {
    limiter: Keyed,
    policy: RatePolicy,
}

impl InProcessRateLimiter {
    /// A limiter of `per_second` sustained with bursts of `burst` (both at least 1).
    pub fn new(policy: RatePolicy) -> Self {
        let per_second = NonZeroU32::new(policy.per_second).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(policy.burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::per_second(per_second).allow_burst(burst);
        let limiter = Governor::keyed(quota).with_middleware::<StateInformationMiddleware>();
        Self {
            limiter,
            policy: RatePolicy {
                per_second: per_second.get(),
                burst: burst.get(),
            },
        }
    }

    fn secs_to_refill(&self, missing: u32) -> u64 {
        u64::from(missing).div_ceil(u64::from(self.policy.per_second.max(1)))
    }
}

#[async_trait::async_trait]
impl RateLimiter for InProcessRateLimiter {
    async fn check(&self, key: &str) -> RateDecision {
        match self.limiter.check_key(&key.to_owned()) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                RateDecision {
                    allowed: true,
                    remaining,
                    reset_secs: self.secs_to_refill(self.policy.burst.saturating_sub(remaining)),
                    retry_after_secs: 0,
                }
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let retry = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                RateDecision {
                    allowed: false,
                    remaining: 0,
                    reset_secs: self.secs_to_refill(self.policy.burst).max(retry),
                    retry_after_secs: retry.max(1),
                }
            }
        }
    }

    fn policy(&self) -> RatePolicy {
        self.policy
    }

    fn sweep(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn a_burst_is_allowed_then_refused_with_a_retry_hint_per_key() {
        let limiter = InProcessRateLimiter::new(RatePolicy {
            per_second: 2,
            burst: 3,
        });
        let mut decisions = Vec::new();
        for _ in 0..4 {
            decisions.push(limiter.check("a").await);
        }
        assert_eq!(decisions.iter().filter(|d| d.allowed).count(), 3);
        assert_eq!(decisions.first().map(|d| d.remaining), Some(2));
        let refused = decisions.last().copied().unwrap_or(decisions[0]);
        assert!(!refused.allowed);
        assert_eq!(refused.retry_after_secs, 1);
        assert!(
            limiter.check("b").await.allowed,
            "another key has its own budget"
        );
        limiter.sweep();
    }
}
