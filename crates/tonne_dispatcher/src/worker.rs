//! The dispatcher loop: claim due streams, drive each one sequentially on its own
//! task (up to a concurrency bound), release them, repeat.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tonne_kernel::{Clock, SystemClock, UuidV7Generator};
use tonne_webhooks::ports::DeliveryStore;
use tonne_webhooks::{
    ClaimedStream, Deliverer, DeliveryPolicy, DeliverySettings, RetrySchedule, Step, TargetPolicy,
    random_jitter,
};

use crate::encoder::JsonEncoder;
use crate::metrics::{DispatchMetrics, attempt_result};
use crate::sender::HttpSender;

/// Settings of one dispatcher process.
#[derive(Debug, Clone)]
pub struct DispatcherConfig {
    /// Most events per request (`TONNE_WEBHOOK_BATCH_SIZE`, default 10).
    pub batch_size: usize,
    /// Per-request timeout (`TONNE_WEBHOOK_TIMEOUT_SECONDS`, default 30).
    pub timeout: Duration,
    /// Lease on a stream (`TONNE_WEBHOOK_LEASE_SECONDS`, default 60; must exceed the timeout).
    pub lease: Duration,
    /// Delays between attempts (`TONNE_WEBHOOK_RETRY_SCHEDULE`).
    pub schedule: RetrySchedule,
    /// Which targets may be reached (`TONNE_WEBHOOKS_ALLOW_PRIVATE`).
    pub targets: TargetPolicy,
    /// Streams delivered at once (`TONNE_WEBHOOK_CONCURRENCY`, default 64).
    pub concurrency: usize,
    /// How often to look for due streams when idle (default 100 ms).
    pub poll_interval: Duration,
    /// Batches one task sends before giving its stream back (fairness).
    pub batches_per_claim: usize,
}

impl Default for DispatcherConfig {
    fn default() -> Self {
        Self {
            batch_size: 10,
            timeout: Duration::from_secs(30),
            lease: Duration::from_secs(60),
            schedule: RetrySchedule::standard(),
            targets: TargetPolicy::default(),
            concurrency: 64,
            poll_interval: Duration::from_millis(100),
            batches_per_claim: 50,
        }
    }
}

/// A configuration that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(String);

impl DispatcherConfig {
    /// Checks the bounds: a lease must outlast a request by a margin.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.batch_size == 0 || self.batch_size > 1_000 {
            return Err(ConfigError(
                "TONNE_WEBHOOK_BATCH_SIZE must be between 1 and 1000".into(),
            ));
        }
        if self.timeout.is_zero() {
            return Err(ConfigError(
                "TONNE_WEBHOOK_TIMEOUT_SECONDS must be at least 1".into(),
            ));
        }
        if self.lease < self.timeout + Duration::from_secs(5) {
            return Err(ConfigError(format!(
                "TONNE_WEBHOOK_LEASE_SECONDS ({}) must exceed TONNE_WEBHOOK_TIMEOUT_SECONDS ({}) by at least 5 s, so that a lease outlasts every request",
                self.lease.as_secs(),
                self.timeout.as_secs()
            )));
        }
        if self.concurrency == 0 {
            return Err(ConfigError(
                "TONNE_WEBHOOK_CONCURRENCY must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// One dispatcher: run it with [`Dispatcher::run`].
pub struct Dispatcher {
    deliverer: Deliverer,
    store: Arc<dyn DeliveryStore>,
    metrics: DispatchMetrics,
    config: DispatcherConfig,
    owner: String,
}

impl Dispatcher {
    /// Wires a dispatcher over the delivery store, with the real HTTP client.
    pub fn new(
        store: Arc<dyn DeliveryStore>,
        config: DispatcherConfig,
        metrics: DispatchMetrics,
    ) -> anyhow::Result<Self> {
        config.validate()?;
        let owner = format!("{}-{}-{}", hostname(), std::process::id(), uuid_suffix());
        let sender = Arc::new(HttpSender::new(config.timeout, config.targets)?);
        let deliverer = Deliverer::new(
            Arc::clone(&store),
            sender,
            Arc::new(JsonEncoder),
            Arc::new(SystemClock),
            Arc::new(UuidV7Generator),
            Arc::new(random_jitter),
            DeliverySettings {
                policy: DeliveryPolicy {
                    schedule: config.schedule.clone(),
                },
                batch_size: config.batch_size,
                lease: config.lease,
                owner: owner.clone(),
            },
        );
        Ok(Self {
            deliverer,
            store,
            metrics,
            config,
            owner,
        })
    }

    /// This dispatcher's name in leases.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// Delivers until `shutdown` turns true, then lets in-flight requests finish
    /// (each within the request timeout) and gives its leases back.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        tracing::info!(owner = %self.owner, concurrency = self.config.concurrency, "webhook dispatcher started");
        let permits = Arc::new(Semaphore::new(self.config.concurrency));
        let mut tasks: JoinSet<()> = JoinSet::new();
        let mut last_backlog = std::time::Instant::now() - Duration::from_secs(60);
        let mut failures_in_a_row = 0_u32;
        loop {
            if *shutdown.borrow() {
                break;
            }
            let free = permits.available_permits();
            match self.deliverer.claim(free).await {
                Ok(streams) => {
                    failures_in_a_row = 0;
                    for stream in streams {
                        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
                            // cannot happen (claimed at most `free`), but never leak a lease
                            let _ = self.deliverer.release(&stream).await;
                            continue;
                        };
                        let deliverer = self.deliverer.clone();
                        let metrics = self.metrics.clone();
                        let batches = self.config.batches_per_claim;
                        let stop = shutdown.clone();
                        tasks.spawn(async move {
                            drive(deliverer, stream, metrics, batches, stop).await;
                            drop(permit);
                        });
                    }
                }
                Err(e) => {
                    failures_in_a_row = failures_in_a_row.saturating_add(1);
                    if failures_in_a_row == 1 || failures_in_a_row.is_multiple_of(50) {
                        tracing::warn!(error = %e, "webhook dispatcher cannot claim streams; retrying");
                    }
                }
            }
            if last_backlog.elapsed() >= Duration::from_secs(5) {
                last_backlog = std::time::Instant::now();
                match self.store.oldest_undelivered().await {
                    Ok(oldest) => self.metrics.backlog(&oldest, SystemClock.now()),
                    Err(e) => tracing::debug!(error = %e, "measuring webhook backlog"),
                }
            }
            let pause = if failures_in_a_row > 0 {
                Duration::from_secs(1)
            } else {
                self.config.poll_interval
            };
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                _ = shutdown.changed() => {}
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            }
        }
        tracing::info!(in_flight = tasks.len(), "webhook dispatcher stopping");
        let grace = self.config.timeout + Duration::from_secs(5);
        if tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} })
            .await
            .is_err()
        {
            tasks.abort_all();
        }
        tracing::info!("webhook dispatcher stopped");
    }
}

async fn drive(
    deliverer: Deliverer,
    mut stream: ClaimedStream,
    metrics: DispatchMetrics,
    batches: usize,
    shutdown: watch::Receiver<bool>,
) {
    for _ in 0..batches.max(1) {
        if *shutdown.borrow() {
            break;
        }
        match deliverer.step(&mut stream).await {
            Ok(Step::Delivered {
                attempt,
                committed_at,
                ..
            }) => {
                metrics.attempt(
                    "delivered",
                    attempt_result(attempt.status, None),
                    ms(attempt.latency_ms),
                );
                metrics.delivered(&committed_at, SystemClock.now());
            }
            Ok(Step::Failed { attempt }) => {
                metrics.attempt(
                    "failed",
                    attempt_result(attempt.status, attempt.error.as_deref()),
                    ms(attempt.latency_ms),
                );
                tracing::info!(webhook_id = %attempt.webhook_id, account_id = %attempt.account_id,
                    status = ?attempt.status, error = ?attempt.error, next = ?attempt.next_attempt_at,
                    "webhook attempt failed; will retry");
                return;
            }
            Ok(Step::Disabled { attempt, reason }) => {
                metrics.attempt(
                    "disabled",
                    attempt_result(attempt.status, attempt.error.as_deref()),
                    ms(attempt.latency_ms),
                );
                tracing::warn!(webhook_id = %attempt.webhook_id, %reason, "webhook disabled");
                return;
            }
            Ok(Step::Idle) => break,
            Ok(Step::LeaseLost) => return,
            Err(e) => {
                tracing::warn!(error = %e, webhook_id = %stream.key.webhook_id, "webhook delivery: storage failed");
                break;
            }
        }
    }
    if let Err(e) = deliverer.release(&stream).await {
        tracing::debug!(error = %e, "releasing a stream (its lease will expire)");
    }
}

#[allow(clippy::as_conversions, clippy::cast_precision_loss)]
fn ms(millis: u64) -> f64 {
    millis as f64 / 1_000.0
}

fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "dispatcher".into())
}

fn uuid_suffix() -> String {
    use tonne_kernel::IdGenerator as _;
    UuidV7Generator
        .new_uuid()
        .simple()
        .to_string()
        .chars()
        .rev()
        .take(8)
        .collect()
}
