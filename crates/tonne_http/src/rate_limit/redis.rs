//! GCRA over Redis, so that every server process draws on one budget per key.
//!
//! One `EVALSHA` per request (the script is loaded once; `EVAL` when Redis
//! lost it): the script reads the key's theoretical arrival time (TAT), decides
//! on Redis's own clock (`TIME`, so the processes' clocks do not matter), and
//! writes the new TAT with an expiry — atomically, as scripts run alone.
//!
//! When Redis cannot answer within [`CALL_TIMEOUT`] the request is allowed
//! (fail-open: a limiter outage must not become an API outage), the failure is
//! counted in `tonne_rate_limit_store_failures_total`, a warning is logged at most
//! once per [`WARN_EVERY`], and Redis is left alone for [`BACKOFF`] before the
//! next try — so it recovers by itself when Redis returns.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use prometheus::{IntCounter, Registry};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::port::{RateDecision, RateLimiter, RatePolicy};

/// Longest one limiter call may take before the request goes on without it.
pub const CALL_TIMEOUT: Duration = Duration::from_millis(100);
/// After a failure, how long requests skip Redis (and are allowed).
pub const BACKOFF: Duration = Duration::from_secs(1);
/// At most one warning line per this interval while Redis fails.
pub const WARN_EVERY: Duration = Duration::from_secs(10);

/// KEYS[1]: the client's key. ARGV[1]: emission interval (µs), ARGV[2]: burst.
/// Returns {allowed (0/1), remaining, retry after (µs), reset (µs)}.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tolerance = interval * burst
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - tolerance
if allow_at > now then
  return {0, 0, allow_at - now, tat - now}
end
redis.call('SET', KEYS[1], new_tat, 'PX', math.floor((new_tat - now) / 1000) + 1)
return {1, math.floor((tolerance - (new_tat - now)) / interval), 0, new_tat - now}
";

/// GCRA per key in Redis (see the module documentation).
pub struct RedisRateLimiter {
    client: redis::Client,
    connection: Mutex<Option<ConnectionManager>>,
    connecting: AtomicBool,
    script: redis::Script,
    policy: RatePolicy,
    interval_us: u64,
    prefix: String,
    started: Instant,
    /// Milliseconds since `started` before which Redis is skipped.
    skip_until_ms: AtomicU64,
    /// Milliseconds since `started` of the last warning (0: none yet).
    warned_at_ms: AtomicU64,
    failures: IntCounter,
}

impl RedisRateLimiter {
    /// The failure counter, registered in `registry`; give it to every limiter
    /// of the process.
    pub fn failure_counter(registry: &Registry) -> Result<IntCounter, prometheus::Error> {
        let failures = IntCounter::new(
            "rate_limit_store_failures_total",
            "Rate limit decisions Redis could not make in time (the requests were allowed)",
        )?;
        registry.register(Box::new(failures.clone()))?;
        Ok(failures)
    }

    /// A limiter over the Redis at `url` (`redis://host:port/db`) counting its
    /// failures in `failures` ([`Self::failure_counter`]). Nothing is connected
    /// yet: the first request connects, so a server starts even while Redis is down.
    pub fn new(url: &str, policy: RatePolicy, failures: IntCounter) -> anyhow::Result<Self> {
        let client =
            redis::Client::open(url).map_err(|e| anyhow::anyhow!("redis URL `{url}`: {e}"))?;
        let per_second = u64::from(policy.per_second.max(1));
        Ok(Self {
            client,
            connection: Mutex::new(None),
            connecting: AtomicBool::new(false),
            script: redis::Script::new(GCRA),
            policy: RatePolicy {
                per_second: policy.per_second.max(1),
                burst: policy.burst.max(1),
            },
            interval_us: (1_000_000 / per_second).max(1),
            prefix: "tonne:rl:".into(),
            started: Instant::now(),
            skip_until_ms: AtomicU64::new(0),
            warned_at_ms: AtomicU64::new(0),
            failures,
        })
    }

    /// Keys under `prefix` instead of `tonne:rl:` (separate budgets on one Redis,
    /// e.g. the hosted pages' limiter, or isolated tests).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// The connection; `Ok(None)` while another task is connecting (the request
    /// goes on without the limiter, and that is not a failure).
    async fn connection(&self) -> Result<Option<ConnectionManager>, String> {
        if let Some(c) = self.lock().as_ref() {
            return Ok(Some(c.clone()));
        }
        if self.connecting.swap(true, Ordering::AcqRel) {
            return Ok(None);
        }
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CALL_TIMEOUT))
            .set_response_timeout(Some(CALL_TIMEOUT))
            .set_number_of_retries(1);
        let made = ConnectionManager::new_with_config(self.client.clone(), config).await;
        self.connecting.store(false, Ordering::Release);
        let made = made.map_err(|e| e.to_string())?;
        *self.lock() = Some(made.clone());
        Ok(Some(made))
    }

    /// Connects and asks Redis for `PONG`, once (at start, so that a Redis
    /// that does not answer is said at once rather than by the first request's
    /// warning). A failure leaves the limiter as it was: requests are allowed
    /// until Redis answers.
    pub async fn probe(&self) -> Result<(), String> {
        let connect = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(1)))
            .set_response_timeout(Some(Duration::from_secs(1)))
            .set_number_of_retries(0);
        let mut conn = ConnectionManager::new_with_config(self.client.clone(), connect)
            .await
            .map_err(|e| e.to_string())?;
        let pong: String = redis::cmd("PING")
            .query_async(&mut conn)
            .await
            .map_err(|e| e.to_string())?;
        if pong == "PONG" {
            Ok(())
        } else {
            Err(format!("PING answered {pong:?}"))
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<ConnectionManager>> {
        self.connection.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn decide(&self, key: &str) -> Result<RateDecision, String> {
        let Some(mut conn) = self.connection().await? else {
            return Ok(RateDecision::unlimited(self.policy));
        };
        let mut call = self.script.prepare_invoke();
        call.key(format!("{}{key}", self.prefix))
            .arg(self.interval_us)
            .arg(self.policy.burst);
        let answer: Vec<i64> =
            match actix_web::rt::time::timeout(CALL_TIMEOUT, call.invoke_async(&mut conn)).await {
                Ok(Ok(v)) => v,
                Ok(Err(e)) => return Err(e.to_string()),
                Err(_) => return Err(format!("no answer within {CALL_TIMEOUT:?}")),
            };
        let field = |i: usize| -> Result<u64, String> {
            answer
                .get(i)
                .and_then(|v| u64::try_from(*v).ok())
                .ok_or_else(|| format!("unexpected script answer {answer:?}"))
        };
        let secs = |us: u64| us.div_ceil(1_000_000);
        let allowed = field(0)? == 1;
        Ok(RateDecision {
            allowed,
            remaining: u32::try_from(field(1)?).unwrap_or(u32::MAX),
            reset_secs: secs(field(3)?),
            retry_after_secs: if allowed { 0 } else { secs(field(2)?).max(1) },
        })
    }

    fn failed(&self, reason: &str) {
        self.failures.inc();
        let now = self.now_ms().max(1);
        self.skip_until_ms.store(
            now.saturating_add(u64::try_from(BACKOFF.as_millis()).unwrap_or(u64::MAX)),
            Ordering::Release,
        );
        let last = self.warned_at_ms.load(Ordering::Acquire);
        let quiet = u64::try_from(WARN_EVERY.as_millis()).unwrap_or(u64::MAX);
        if (last == 0 || now.saturating_sub(last) >= quiet)
            && self
                .warned_at_ms
                .compare_exchange(last, now, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            tracing::warn!(
                reason,
                "the shared rate limit is unavailable (Redis); requests are allowed until it answers again"
            );
        }
    }
}

#[async_trait::async_trait]
impl RateLimiter for RedisRateLimiter {
    async fn check(&self, key: &str) -> RateDecision {
        if self.now_ms() < self.skip_until_ms.load(Ordering::Acquire) {
            return RateDecision::unlimited(self.policy);
        }
        match self.decide(key).await {
            Ok(decision) => decision,
            Err(reason) => {
                self.failed(&reason);
                RateDecision::unlimited(self.policy)
            }
        }
    }

    fn policy(&self) -> RatePolicy {
        self.policy
    }

    fn sweep(&self) {
        // Every key expires in Redis once its budget is whole again.
    }
}
