//! Rate limiting behind a port: GCRA per key, in this process's memory
//! ([`InProcessRateLimiter`], governor) or shared by every server process
//! through Redis ([`RedisRateLimiter`], one atomic script call per request,
//! failing open when Redis is unreachable).

mod in_process;
mod port;
mod redis;

pub use self::in_process::InProcessRateLimiter;
pub use self::port::{RateDecision, RateLimiter, RatePolicy, SWEEP_EVERY};
pub use self::redis::RedisRateLimiter;
