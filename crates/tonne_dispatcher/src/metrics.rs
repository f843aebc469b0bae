//! The dispatcher's Prometheus metrics.

use prometheus::{GaugeVec, Histogram, HistogramOpts, IntCounterVec, Opts, Registry};
use time::OffsetDateTime;
use tonne_webhooks::{SendOutcome, WebhookId};

/// Attempts by outcome, commit→acknowledgement latency, request latency, and the
/// age of the oldest undelivered event per webhook.
#[derive(Clone)]
pub struct DispatchMetrics {
    attempts: IntCounterVec,
    delivery_latency: Histogram,
    request_latency: Histogram,
    oldest: GaugeVec,
}

impl DispatchMetrics {
    /// Creates the metrics and registers them.
    pub fn new(registry: &Registry) -> Result<Self, prometheus::Error> {
        let attempts = IntCounterVec::new(
            Opts::new(
                "webhook_attempts_total",
                "Webhook delivery attempts by outcome (delivered, failed, disabled) and result (2xx, 4xx, 5xx, timeout, network, refused)",
            ),
            &["outcome", "result"],
        )?;
        let buckets = vec![
            0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 3_600.0,
        ];
        let delivery_latency = Histogram::with_opts(
            HistogramOpts::new(
                "webhook_delivery_latency_seconds",
                "From an event's commit to its acknowledgement by the receiver",
            )
            .buckets(buckets.clone()),
        )?;
        let request_latency = Histogram::with_opts(
            HistogramOpts::new(
                "webhook_request_duration_seconds",
                "Duration of one webhook request",
            )
            .buckets(buckets),
        )?;
        let oldest = GaugeVec::new(
            Opts::new(
                "webhook_oldest_undelivered_event_age_seconds",
                "Age of the oldest event not yet acknowledged, per webhook",
            ),
            &["webhook_id"],
        )?;
        registry.register(Box::new(attempts.clone()))?;
        registry.register(Box::new(delivery_latency.clone()))?;
        registry.register(Box::new(request_latency.clone()))?;
        registry.register(Box::new(oldest.clone()))?;
        Ok(Self {
            attempts,
            delivery_latency,
            request_latency,
            oldest,
        })
    }

    pub(crate) fn attempt(&self, outcome: &str, result: &str, seconds: f64) {
        self.attempts.with_label_values(&[outcome, result]).inc();
        self.request_latency.observe(seconds);
    }

    pub(crate) fn delivered(&self, committed: &[OffsetDateTime], now: OffsetDateTime) {
        let h = &self.delivery_latency;
        for at in committed {
            h.observe((now - *at).as_seconds_f64().max(0.0));
        }
    }

    pub(crate) fn backlog(&self, oldest: &[(WebhookId, OffsetDateTime)], now: OffsetDateTime) {
        self.oldest.reset();
        for (id, at) in oldest {
            self.oldest
                .with_label_values(&[&id.to_string()])
                .set((now - *at).as_seconds_f64().max(0.0));
        }
    }
}

/// The `result` label of an outcome.
pub fn result_label(outcome: &SendOutcome) -> &'static str {
    match outcome {
        SendOutcome::Response { status, .. } => match status {
            200..=299 => "2xx",
            300..=399 => "3xx",
            400..=499 => "4xx",
            _ => "5xx",
        },
        SendOutcome::Timeout => "timeout",
        SendOutcome::Network(_) => "network",
        SendOutcome::Refused(_) => "refused",
    }
}

/// The `result` label of a recorded attempt.
pub(crate) fn attempt_result(status: Option<u16>, error: Option<&str>) -> &'static str {
    match (status, error) {
        (Some(s), _) => result_label(&SendOutcome::Response {
            status: s,
            retry_after: None,
            body_start: String::new(),
        }),
        (None, Some(e)) if e.starts_with("timeout") => "timeout",
        (None, Some(e)) if e.starts_with("refused") => "refused",
        _ => "network",
    }
}
