//! Prometheus metrics, one registry per server (no global state).
//!
//! Every label takes its values from a bounded set, whatever a client sends:
//! `method` is one of [`METHODS`] or `other` ([`method_label`]; the `observe`
//! middleware refuses any other method with 501 before routing), `route` is
//! the pattern a request matched or `unmatched`, never its path, and `status`
//! a three-digit code. So junk requests add to existing series, never new ones.

use std::time::Duration;

use prometheus::{
    Encoder as _, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, Opts, Registry, TextEncoder,
};

/// Request counters, a latency histogram and pool gauges.
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    pool_connections: IntGauge,
    pool_idle: IntGauge,
    pool_max: IntGauge,
}

impl Metrics {
    /// A fresh registry with Tonne's metrics.
    pub fn new() -> Result<Self, prometheus::Error> {
        let registry = Registry::new_custom(Some("tonne".into()), None)?;
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "HTTP requests by method, route pattern and status",
            ),
            &["method", "route", "status"],
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "http_request_duration_seconds",
                "HTTP request latency by method and route pattern",
            )
            .buckets(vec![
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
            ]),
            &["method", "route"],
        )?;
        let pool_connections = IntGauge::new("db_pool_connections", "Open database connections")?;
        let pool_idle = IntGauge::new("db_pool_idle_connections", "Idle database connections")?;
        let pool_max = IntGauge::new(
            "db_pool_max_connections",
            "Configured maximum database connections",
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        registry.register(Box::new(pool_connections.clone()))?;
        registry.register(Box::new(pool_idle.clone()))?;
        registry.register(Box::new(pool_max.clone()))?;
        Ok(Self {
            registry,
            requests,
            latency,
            pool_connections,
            pool_idle,
            pool_max,
        })
    }

    /// The registry, for other components of the process (the dispatcher) to register into.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Records one finished request. `method` is a [`method_label`], `route`
    /// the matched pattern (or `unmatched`), never the raw path.
    pub fn observe(&self, method: &'static str, route: &str, status: u16, elapsed: Duration) {
        self.requests
            .with_label_values(&[method, route, &status.to_string()])
            .inc();
        self.latency
            .with_label_values(&[method, route])
            .observe(elapsed.as_secs_f64());
    }

    /// The text exposition format, with the pool's state sampled now.
    pub fn render(&self, pool: PoolGauge) -> String {
        self.pool_connections.set(i64::from(pool.connections));
        self.pool_idle.set(i64::from(pool.idle));
        self.pool_max.set(i64::from(pool.max_size));
        let mut out = Vec::new();
        if let Err(e) = TextEncoder::new().encode(&self.registry.gather(), &mut out) {
            tracing::error!(error = %e, "encoding metrics");
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The methods the server answers: the `method` label's values besides
/// [`OTHER_METHOD`].
pub const METHODS: [&str; 7] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/// The `method` label of any method not in [`METHODS`].
pub const OTHER_METHOD: &str = "other";

/// A method's label: itself when it is one of [`METHODS`], else `None`
/// (labelled [`OTHER_METHOD`] and refused). Compares without allocating,
/// whatever the method's length.
pub fn method_label(method: &actix_web::http::Method) -> Option<&'static str> {
    let name = method.as_str();
    METHODS.into_iter().find(|known| *known == name)
}

/// The connection pool as `/metrics` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolGauge {
    /// Open connections.
    pub connections: u32,
    /// Idle connections.
    pub idle: u32,
    pub max_size: u32,
}
