//! The Redis server of the shared-rate-limit tests.

/// The environment variable naming a Redis server for tests, e.g.
/// `redis://127.0.0.1:6379`. Tests use keys under a unique prefix each.
pub const REDIS_ENV: &str = "TONNE_TEST_REDIS_URL";

/// The Redis URL, if configured. Without one the Redis tests skip, except under
/// `CI=true`, where this panics: a skipped Redis suite is a failure there.
pub fn redis_url() -> Option<String> {
    let url = std::env::var(REDIS_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty());
    if url.is_none() {
        assert!(
            !crate::db::require_postgres(),
            "CI=true but {REDIS_ENV} is not set: the Redis suite must run"
        );
        eprintln!("note: {REDIS_ENV} is not set; skipping a Redis test");
    }
    url
}

/// A key prefix no other test uses.
pub fn unique_prefix() -> String {
    format!("tonne-test-{}:", uuid::Uuid::new_v4().simple())
}
