//! The Redis rate limiter against real Redis servers: one budget for several
//! limiters (processes), fail-open while Redis is unreachable, and recovery by
//! itself when it returns.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use prometheus::{IntCounter, Registry};
use tonne_http::rate_limit::{RateLimiter as _, RatePolicy, RedisRateLimiter};
use tonne_test_support::{redis_url, require_postgres, unique_prefix};

const POLICY: RatePolicy = RatePolicy {
    per_second: 1,
    burst: 3,
};

fn counter() -> IntCounter {
    RedisRateLimiter::failure_counter(&Registry::new()).unwrap()
}

fn limiter(url: &str, prefix: &str, failures: IntCounter) -> RedisRateLimiter {
    RedisRateLimiter::new(url, POLICY, failures)
        .unwrap()
        .with_prefix(prefix.to_owned())
}

#[tokio::test]
async fn limiters_of_two_processes_draw_on_one_budget() {
    let Some(url) = redis_url() else { return };
    let prefix = unique_prefix();
    let failures = counter();
    let (a, b) = (
        limiter(&url, &prefix, failures.clone()),
        limiter(&url, &prefix, failures.clone()),
    );
    let first = a.check("key:1").await;
    assert!(first.allowed);
    assert_eq!((first.remaining, first.reset_secs), (2, 1));
    let second = b.check("key:1").await;
    assert!(second.allowed);
    assert_eq!(second.remaining, 1);
    assert!(a.check("key:1").await.allowed);
    let refused = b.check("key:1").await;
    assert!(!refused.allowed);
    assert_eq!(refused.remaining, 0);
    assert_eq!(refused.retry_after_secs, 1);
    assert_eq!(refused.reset_secs, 3);
    assert!(
        a.check("key:2").await.allowed,
        "another key has its own budget"
    );
    assert_eq!(failures.get(), 0);
    // A token comes back after 1/per_second.
    tokio::time::sleep(Duration::from_millis(1_050)).await;
    assert!(b.check("key:1").await.allowed);
    assert!(!a.check("key:1").await.allowed);
}

#[tokio::test]
async fn an_unreachable_redis_lets_requests_through_and_counts_it() {
    let failures = counter();
    // Nothing listens on port 1.
    let limiter = limiter("redis://127.0.0.1:1/", &unique_prefix(), failures.clone());
    let started = Instant::now();
    for _ in 0..10 {
        let d = limiter.check("key:1").await;
        assert!(d.allowed);
        assert_eq!(d.remaining, POLICY.burst);
    }
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // One failure, then Redis is left alone for the back-off.
    assert_eq!(failures.get(), 1);
}

struct RedisServer {
    child: Child,
}

impl RedisServer {
    fn start(port: u16) -> Option<Self> {
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => {
                assert!(
                    !require_postgres(),
                    "CI=true but redis-server cannot start: {e}"
                );
                eprintln!("note: redis-server is not installed; skipping");
                return None;
            }
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Self { child })
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test]
async fn the_limit_comes_back_by_itself_when_redis_returns() {
    let port = free_port();
    let Some(server) = RedisServer::start(port) else {
        return;
    };
    let failures = counter();
    let limiter = limiter(
        &format!("redis://127.0.0.1:{port}/"),
        "t:",
        failures.clone(),
    );
    for _ in 0..3 {
        assert!(limiter.check("key:1").await.allowed);
    }
    assert!(
        !limiter.check("key:1").await.allowed,
        "enforced while Redis runs"
    );

    drop(server);
    let d = limiter.check("key:1").await;
    assert!(d.allowed, "fail-open while Redis is down");
    assert!(failures.get() >= 1);

    let _server = RedisServer::start(port).unwrap();
    // Past the back-off, the limiter uses Redis again (a fresh server: a whole budget).
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut refused = false;
    while Instant::now() < deadline && !refused {
        tokio::time::sleep(Duration::from_millis(200)).await;
        refused = !limiter.check("key:1").await.allowed;
    }
    assert!(refused, "the limit is enforced again after Redis returned");
}
