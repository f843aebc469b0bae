//! Ports of the webhooks domain.
//!
//! [`WebhooksService`] is the driving port (HTTP and the CLI call it). The driven
//! ports are implemented by adapters: [`WebhookRepository`] and [`DeliveryStore`]
//! by storage, [`AccountDirectory`] by the composition root over the accounts
//! store, [`HostResolver`], [`WebhookSender`] and [`EventEncoder`] by the
//! dispatcher. Each method documents the errors an adapter MUST return.

use std::net::IpAddr;

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Actor, AuditEntry, Cursor, Page, PageRequest};

use crate::errors::{
    AdminWebhookError, CreateWebhookError, InsertWebhookError, ListWebhooksError, RecoverError,
    UpdateWebhookError, WebhookError,
};
use crate::events::EventType;
use crate::models::{
    Attempt, ClaimedStream, NewWebhook, OutboxEvent, Owner, Recovery, StreamKey, Target, Webhook,
    WebhookChanges, WebhookHealth, WebhookId,
};
use crate::policy::SendOutcome;
use crate::secret::WebhookSecret;
use crate::target::WebhookUrl;

pub use tonne_kernel::StoreError;

/// Storage of webhook endpoints (secrets encrypted at rest by the adapter).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WebhookRepository: Send + Sync {
    /// Inserts a webhook unless its owner already has `limit` of them (checked in the
    /// same transaction, so concurrent creations cannot exceed it: MUST return
    /// `LimitReached` then). Also creates its delivery streams for the accounts it
    /// covers that already have events, positioned at their latest event, so that
    /// it receives what happens from now on.
    /// The audit entry is written in the same transaction.
    async fn insert(
        &self,
        webhook: &Webhook,
        limit: usize,
        audit: AuditEntry,
    ) -> Result<(), InsertWebhookError>;

    /// The webhook, or `None`.
    async fn get(&self, id: WebhookId) -> Result<Option<Webhook>, StoreError>;

    /// The owner's webhooks, oldest first.
    async fn list(&self, owner: Owner) -> Result<Vec<Webhook>, StoreError>;

    /// Replaces URL, `enabled`, `disabled_reason` and the account filter. Streams of
    /// accounts the new filter drops are deleted; accounts it adds get streams at
    /// their latest event. With `resume`, every stream's failure count and retry time
    /// are reset (re-enabling). MUST return `NotFound` if the webhook does not exist.
    /// `audit`, when given, is written in the same transaction.
    async fn update(
        &self,
        webhook: &Webhook,
        resume: bool,
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError>;

    /// Replaces the secret. MUST return `NotFound` if the webhook does not exist.
    /// The audit entry is written in the same transaction.
    async fn rotate_secret(
        &self,
        id: WebhookId,
        secret: &WebhookSecret,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;

    /// Deletes the webhook, its streams and attempts. MUST return `NotFound` if it does not exist.
    /// The audit entry is written in the same transaction.
    async fn delete(&self, id: WebhookId, audit: AuditEntry) -> Result<(), StoreError>;

    /// The webhook's attempts, most recent first, strictly after the cursor.
    async fn attempts(
        &self,
        id: WebhookId,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, StoreError>;

    /// Moves every stream of the webhook to its account's latest event (skipping the
    /// backlog) and clears failures. Returns how many events were skipped.
    /// The audit entry (with `skipped` added) is written in the same transaction.
    async fn skip_backlog(
        &self,
        id: WebhookId,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<u64, StoreError>;

    /// Moves each stream of the webhook (or only `account`'s) back to its
    /// account's first event created at or after `since`, if that is earlier
    /// than where the stream stands (never forward), clears its failures and
    /// makes it due at `at`; writes the audit entry; all in one transaction.
    async fn recover(
        &self,
        id: WebhookId,
        since: OffsetDateTime,
        account: Option<AccountId>,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<Recovery, StoreError>;

    /// Moves one stream back so that delivery resumes at `from_sequence` (re-sending).
    /// MUST return `NotFound` if the stream does not exist.
    /// The audit entry is written in the same transaction.
    async fn rewind(
        &self,
        key: StreamKey,
        from_sequence: i64,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;

    /// Every webhook of the installation in id order after the cursor, with
    /// its health. MUST return `NotFound` when the cursor names no webhook.
    async fn health(&self, page: &PageRequest<Cursor>) -> Result<Page<WebhookHealth>, StoreError>;

    /// One webhook with its health, or `None`.
    async fn health_of(&self, id: WebhookId) -> Result<Option<WebhookHealth>, StoreError>;

    /// Delivery attempts made at or after `since` across the installation, and
    /// how many of them failed (one grouped query).
    async fn attempt_counts(&self, since: OffsetDateTime) -> Result<(u64, u64), StoreError>;
}

/// Whose an account is, for checking `account_ids`.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AccountDirectory: Send + Sync {
    /// The owner (organisation and mode) of an account or client account, or `None`.
    async fn owner_of(&self, account: AccountId) -> Result<Option<Owner>, StoreError>;
}

/// DNS, for checking a webhook's host at registration.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait HostResolver: Send + Sync {
    /// Every address the host resolves to, or why it does not resolve.
    async fn resolve(&self, host: &str, port: u16) -> Result<Vec<IpAddr>, String>;
}

/// The dispatcher's view of storage: leased delivery streams over the outbox.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait DeliveryStore: Send + Sync {
    /// Creates the streams of accounts that now have events and are covered by an
    /// unfiltered webhook without having a stream yet (accounts created after the
    /// webhook); they start at the account's first event. Returns how many.
    async fn materialise_streams(&self, now: OffsetDateTime) -> Result<u64, StoreError>;

    /// Leases up to `limit` streams that have undelivered events, belong to an enabled
    /// webhook, are due (`next attempt ≤ now`) and are not leased by anyone else (or
    /// their lease expired), until `until`. On PostgreSQL several dispatchers call this
    /// at once: each stream goes to one of them (`FOR UPDATE SKIP LOCKED`).
    async fn claim(
        &self,
        owner: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
        limit: usize,
    ) -> Result<Vec<ClaimedStream>, StoreError>;

    /// Extends a lease this dispatcher holds. `false` if it no longer holds it.
    async fn renew(
        &self,
        key: StreamKey,
        owner: &str,
        until: OffsetDateTime,
    ) -> Result<bool, StoreError>;

    /// Gives a lease back (the stream is claimable again at once).
    async fn release(&self, key: StreamKey, owner: &str) -> Result<(), StoreError>;

    /// The account's events after `after_sequence`, oldest first, at most `limit`;
    /// with `only`, just the events of those types (none when it is empty);
    /// without, those of the contract's types (never an opt-in type:
    /// [`EventType::OPT_IN`]).
    async fn pending(
        &self,
        account: AccountId,
        after_sequence: i64,
        limit: usize,
        only: Option<Vec<EventType>>,
    ) -> Result<Vec<OutboxEvent>, StoreError>;

    /// Moves a leased stream standing at `after_sequence` past the events it
    /// does not deliver: to its account's latest event, in one statement and
    /// only if no event of a type in `only` follows `after_sequence` and this
    /// dispatcher still holds the lease. Answers the new position, or `None`
    /// when nothing moved.
    async fn pass(
        &self,
        owner: &str,
        key: StreamKey,
        after_sequence: i64,
        only: Vec<EventType>,
    ) -> Result<Option<i64>, StoreError>;

    /// The webhook's URL, current secret and state, or `None` if it was deleted.
    async fn target(&self, webhook: WebhookId) -> Result<Option<Target>, StoreError>;

    /// In one transaction: records the attempt and moves the stream to
    /// `attempt.last_sequence` with no failures — only if this dispatcher still holds
    /// the lease (`false` otherwise, and nothing is written).
    async fn acknowledge(&self, owner: &str, attempt: &Attempt) -> Result<bool, StoreError>;

    /// In one transaction: records the attempt, sets the stream's failure count and
    /// next attempt time and releases the lease — only if still held.
    async fn fail(
        &self,
        owner: &str,
        attempt: &Attempt,
        failures: u32,
        next_attempt_at: OffsetDateTime,
    ) -> Result<bool, StoreError>;

    /// In one transaction: records the attempt, disables the webhook with the reason,
    /// counts the failure and releases the lease — only if still held.
    async fn disable(
        &self,
        owner: &str,
        attempt: &Attempt,
        failures: u32,
        reason: &str,
    ) -> Result<bool, StoreError>;

    /// For each webhook with undelivered events, the creation time of its oldest one.
    async fn oldest_undelivered(&self) -> Result<Vec<(WebhookId, OffsetDateTime)>, StoreError>;
}

/// One signed request, ready to go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboundRequest {
    pub url: WebhookUrl,
    /// The `Lune-HMAC` header value.
    pub signature: String,
    /// The exact bytes signed.
    pub body: Vec<u8>,
    /// The trace the delivery continues (the first event's that has one).
    pub traceparent: Option<String>,
}

/// Sends a webhook request (the dispatcher's HTTP client).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WebhookSender: Send + Sync {
    /// POSTs the body with `Lune-HMAC`, `Content-Type: application/json` and a
    /// `User-Agent`; never follows redirects; connects only to addresses the target
    /// policy allows (checked on the resolved address actually connected to); gives
    /// up after the timeout; reads at most a small bounded part of the answer.
    async fn send(&self, request: &OutboundRequest) -> SendOutcome;
}

/// Renders a batch as the contract's `WebhookRequest` JSON (`{"events":[…]}`).
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
pub trait EventEncoder: Send + Sync {
    /// The body. Each event: `api_version` `v1`, `account_id`, `event_id`,
    /// `event_type`, `sequence` ([`crate::sequence_string`]) and `data`.
    fn encode(&self, events: &[OutboxEvent]) -> Vec<u8>;
}

/// The webhook use cases, as HTTP and the CLI drive them.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait WebhooksService: Send + Sync {
    /// Registers a webhook; the answer carries the whole secret (shown only now and on rotation).
    async fn create(
        &self,
        owner: Owner,
        new: NewWebhook,
        by: &Actor,
    ) -> Result<Webhook, CreateWebhookError>;

    /// The owner's webhooks, oldest first; with account ids, those that push events
    /// for any of them (unfiltered webhooks included).
    async fn list(
        &self,
        owner: Owner,
        account_ids: Vec<String>,
    ) -> Result<Vec<Webhook>, ListWebhooksError>;

    /// One webhook of the owner.
    async fn get(&self, owner: Owner, id: &str) -> Result<Webhook, WebhookError>;

    /// Changes URL, `enabled` and the filter. Enabling a disabled webhook resumes its
    /// streams where they stopped.
    async fn update(
        &self,
        owner: Owner,
        id: &str,
        changes: WebhookChanges,
        by: &Actor,
    ) -> Result<Webhook, UpdateWebhookError>;

    /// Deletes a webhook: no request is sent to it from now on.
    async fn delete(&self, owner: Owner, id: &str, by: &Actor) -> Result<(), WebhookError>;

    /// A new secret; the old one signs nothing from now on.
    async fn rotate_secret(
        &self,
        owner: Owner,
        id: &str,
        by: &Actor,
    ) -> Result<Webhook, WebhookError>;

    /// The webhook's delivery attempts, most recent first.
    async fn attempts(
        &self,
        owner: Owner,
        id: &str,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, WebhookError>;

    /// Re-sends, in order per account, every event of the webhook's accounts (or
    /// of one of them) created at or after `since`. `since` in the future, or an
    /// account the webhook does not cover, is `Invalid`. Audited as done `by`.
    async fn recover(
        &self,
        owner: Owner,
        id: &str,
        since: OffsetDateTime,
        account: Option<AccountId>,
        by: &Actor,
    ) -> Result<Recovery, RecoverError>;

    /// Sends a test event for one of the webhook's accounts now, signed with
    /// its current secret (see [`crate::TEST_EVENT_TYPE`]), and returns what
    /// the receiver answered. It is sent even when the webhook is disabled, is
    /// not retried and moves no stream. `account` must be one the webhook
    /// sends events for (`Invalid`, field `account`, otherwise).
    async fn send_test(
        &self,
        owner: Owner,
        id: &str,
        account: AccountId,
    ) -> Result<crate::TestDelivery, crate::TestEventError>;

    /// Operator: any webhook's attempts.
    async fn admin_attempts(
        &self,
        id: WebhookId,
        page: PageRequest<Cursor>,
    ) -> Result<Page<Attempt>, AdminWebhookError>;

    /// Operator: skips every undelivered event of the webhook (audited as done
    /// `by`). Returns how many.
    async fn skip_backlog(&self, id: WebhookId, by: &Actor) -> Result<u64, AdminWebhookError>;

    /// Operator: re-sends one account's events from a sequence number on.
    async fn redeliver(
        &self,
        id: WebhookId,
        account: AccountId,
        from_sequence: i64,
        by: &Actor,
    ) -> Result<(), AdminWebhookError>;

    /// Operator: every webhook of the installation with its health, by cursor.
    async fn health(
        &self,
        page: PageRequest<Cursor>,
    ) -> Result<Page<WebhookHealth>, AdminWebhookError>;

    /// Operator: delivery attempts since a time across the installation, and
    /// how many failed.
    async fn attempt_counts(&self, since: OffsetDateTime) -> Result<(u64, u64), AdminWebhookError>;

    /// Operator: one webhook with its health.
    async fn health_of(&self, id: WebhookId) -> Result<WebhookHealth, AdminWebhookError>;

    /// Operator: re-sends every event of the webhook's accounts since `since`
    /// (the use case of `recover`, for any webhook).
    async fn admin_recover(
        &self,
        id: WebhookId,
        since: OffsetDateTime,
        by: &Actor,
    ) -> Result<Recovery, RecoverError>;

    /// Operator: enables a disabled webhook; its streams resume where they
    /// stopped. Enabling an enabled webhook changes nothing.
    async fn admin_enable(&self, id: WebhookId, by: &Actor) -> Result<Webhook, AdminWebhookError>;
}
