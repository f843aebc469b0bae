//! The delivery use case: one step of one leased stream — the next batch of its
//! account's events, signed with the secret read at that moment, sent, and the
//! verdict recorded. The dispatcher adapter runs many streams concurrently; each
//! stream is strictly sequential (head-of-line blocking inside it, never across).

use std::sync::Arc;
use std::time::{Duration, Instant};

use time::OffsetDateTime;
use tonne_kernel::{Clock, IdGenerator};

use crate::models::{Attempt, AttemptId, AttemptOutcome, ClaimedStream};
use crate::policy::{DeliveryPolicy, SendOutcome, Verdict};
use crate::ports::{DeliveryStore, EventEncoder, OutboundRequest, StoreError, WebhookSender};
use crate::signature;

/// Settings of a dispatcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliverySettings {
    /// Retries and when to give up.
    pub policy: DeliveryPolicy,
    /// Most events per request (`TONNE_WEBHOOK_BATCH_SIZE`).
    pub batch_size: usize,
    /// How long a claimed stream stays this dispatcher's without renewal
    /// (`TONNE_WEBHOOK_LEASE_SECONDS`); it must exceed the request timeout.
    pub lease: Duration,
    /// This dispatcher's name in leases (unique per process).
    pub owner: String,
}

/// What one step did.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A batch was acknowledged; `more` if the account has further events now.
    Delivered {
        /// The attempt.
        attempt: Attempt,
        /// When each delivered event was committed (for commit→ack latency).
        committed_at: Vec<OffsetDateTime>,
        /// Whether a full batch was sent (more may be waiting).
        more: bool,
    },
    /// The attempt failed; the stream is released until `attempt.next_attempt_at`.
    Failed {
        /// The attempt.
        attempt: Attempt,
    },
    /// The attempt disabled the webhook.
    Disabled {
        /// The attempt.
        attempt: Attempt,
        reason: String,
    },
    /// Nothing to send: no pending events, or the webhook was deleted or disabled.
    Idle,
    /// Another dispatcher holds the stream now (this one's lease expired).
    LeaseLost,
}

/// One stream step at a time, over the delivery ports.
///
/// `Deliverer::new` takes the fields in order; `jitter` returns per-mille
/// samples in `-1000..=1000` ([`random_jitter`] in production).
#[derive(Clone, derive_more::Constructor)]
pub struct Deliverer {
    store: Arc<dyn DeliveryStore>,
    sender: Arc<dyn WebhookSender>,
    encoder: Arc<dyn EventEncoder>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    jitter: Arc<dyn Fn() -> i64 + Send + Sync>,
    settings: DeliverySettings,
}

/// A jitter sample from the thread's CSPRNG: uniform in `-1000..=1000`.
pub fn random_jitter() -> i64 {
    use rand::Rng as _;
    rand::rng().random_range(-1_000..=1_000)
}

impl Deliverer {
    /// The settings.
    pub fn settings(&self) -> &DeliverySettings {
        &self.settings
    }

    fn lease_until(&self, now: OffsetDateTime) -> OffsetDateTime {
        now + time::Duration::try_from(self.settings.lease).unwrap_or(time::Duration::minutes(1))
    }

    /// Creates streams for new accounts, then leases up to `limit` due streams.
    pub async fn claim(&self, limit: usize) -> Result<Vec<ClaimedStream>, StoreError> {
        let now = self.clock.now();
        self.store.materialise_streams(now).await?;
        if limit == 0 {
            return Ok(Vec::new());
        }
        self.store
            .claim(&self.settings.owner, now, self.lease_until(now), limit)
            .await
    }

    /// Gives a stream back.
    pub async fn release(&self, stream: &ClaimedStream) -> Result<(), StoreError> {
        self.store.release(stream.key, &self.settings.owner).await
    }

    /// Sends the next batch of a leased stream and records the verdict; on success
    /// `stream` moves forward.
    pub async fn step(&self, stream: &mut ClaimedStream) -> Result<Step, StoreError> {
        let owner = self.settings.owner.as_str();
        // The webhook's event types and its organisation's version decide
        // which events are taken from the outbox at all.
        let only = stream.subscription.only();
        let events = self
            .store
            .pending(
                stream.key.account_id,
                stream.acked_sequence,
                self.settings.batch_size.max(1),
                only.clone(),
            )
            .await?;
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            // What follows is only of types this webhook does not receive: the
            // stream moves past it, so it neither waits nor counts as backlog.
            if let Some(only) = only
                && let Some(moved) = self
                    .store
                    .pass(owner, stream.key, stream.acked_sequence, only)
                    .await?
            {
                stream.acked_sequence = moved;
            }
            return Ok(Step::Idle);
        };
        let (first_sequence, last_sequence) = (first.sequence, last.sequence);
        // The lease must outlast the request: renew it before every send.
        let now = self.clock.now();
        if !self
            .store
            .renew(stream.key, owner, self.lease_until(now))
            .await?
        {
            return Ok(Step::LeaseLost);
        }
        // Read URL and secret immediately before signing: a rotation or a deletion
        // that committed before this read is obeyed.
        let Some(target) = self.store.target(stream.key.webhook_id).await? else {
            return Ok(Step::Idle);
        };
        if !target.enabled {
            return Ok(Step::Idle);
        }
        let body = self.encoder.encode(&events);
        let attempted_at = self.clock.now();
        let request = OutboundRequest {
            signature: signature::header_value(
                target.secret.expose(),
                target.organisation_id,
                attempted_at.unix_timestamp(),
                &body,
            ),
            url: target.url,
            body,
            traceparent: events.iter().find_map(|e| e.traceparent.clone()),
        };
        let started = Instant::now();
        let outcome = self.sender.send(&request).await;
        let latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let verdict = self
            .settings
            .policy
            .verdict(&outcome, stream.failures, (self.jitter)());
        let mut attempt = Attempt {
            id: AttemptId::generate(self.ids.as_ref()),
            webhook_id: stream.key.webhook_id,
            account_id: stream.key.account_id,
            first_sequence,
            last_sequence,
            events: u32::try_from(events.len()).unwrap_or(u32::MAX),
            attempted_at,
            status: outcome.status(),
            error: outcome.error(),
            latency_ms,
            outcome: AttemptOutcome::Delivered,
            next_attempt_at: None,
            response: match &outcome {
                SendOutcome::Response { body_start, .. } => body_start.clone(),
                _ => String::new(),
            },
        };
        let failures = stream.failures.saturating_add(1);
        match verdict {
            Verdict::Delivered => {
                if !self.store.acknowledge(owner, &attempt).await? {
                    return Ok(Step::LeaseLost);
                }
                stream.acked_sequence = last_sequence;
                stream.failures = 0;
                Ok(Step::Delivered {
                    more: events.len() >= self.settings.batch_size.max(1),
                    committed_at: events.iter().map(|e| e.created_at).collect(),
                    attempt,
                })
            }
            Verdict::RetryAfter(delay) => {
                let next = self.clock.now()
                    + time::Duration::try_from(delay).unwrap_or(time::Duration::days(1));
                attempt.outcome = AttemptOutcome::Failed;
                attempt.next_attempt_at = Some(next);
                if !self.store.fail(owner, &attempt, failures, next).await? {
                    return Ok(Step::LeaseLost);
                }
                stream.failures = failures;
                Ok(Step::Failed { attempt })
            }
            Verdict::Disable(reason) => {
                attempt.outcome = AttemptOutcome::Disabled;
                if !self
                    .store
                    .disable(owner, &attempt, failures, &reason)
                    .await?
                {
                    return Ok(Step::LeaseLost);
                }
                stream.failures = failures;
                Ok(Step::Disabled { attempt, reason })
            }
        }
    }
}

/// Whether an outcome is worth a warning in the logs (everything but an answer).
pub fn is_network_failure(outcome: &SendOutcome) -> bool {
    !matches!(outcome, SendOutcome::Response { .. })
}

#[cfg(test)]
mod tests;
