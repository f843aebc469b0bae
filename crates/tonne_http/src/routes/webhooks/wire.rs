//! The webhook wire types: `Webhook` (secret masked or whole), the create,
//! update and recover requests, delivery attempts, and their rendering.

use serde::{Deserialize, Serialize};
use tonne_kernel::AccountMode;
use tonne_webhooks::{Attempt, Webhook};
use utoipa::{IntoResponses, ToSchema};

use crate::wire::{AccountType, ErrorsResponse, paginated, rfc3339};

/// The contract's `WebhookBase` fields.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = WebhookBaseBody)]
pub struct WebhookBaseResponse {
    /// The webhook's id.
    pub id: String,
    /// Where events are posted.
    pub url: String,
    /// Whether events are sent (false: paused; the backlog is kept).
    pub enabled: bool,
    /// The mode of the events it receives.
    pub account_type: AccountType,
    /// The account filter; absent when every account of the organisation and mode is covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_ids: Option<Vec<String>>,
    /// Tonne's extension: the event types it receives; absent when it receives
    /// every type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_types: Option<Vec<String>>,
    /// Creation time (RFC 3339).
    pub created_at: String,
}

/// The contract's `Webhook`: the secret's last 4 characters only.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = WebhookBody)]
pub struct WebhookResponse {
    #[serde(flatten)]
    base: WebhookBaseResponse,
    /// The last 4 characters of the signing secret.
    secret: String,
}

/// The contract's `WebhookFullSecret`: on create and rotate only.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = WebhookFullSecretBody)]
pub struct WebhookFullSecretResponse {
    #[serde(flatten)]
    base: WebhookBaseResponse,
    /// The whole signing secret (the HMAC key, as shown).
    secret: String,
}

/// The contract's `CreateWebhookRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateWebhookRequest {
    /// An `https://` URL on a public host.
    pub(super) url: String,
    /// Only these accounts' events (at least one id).
    #[schema(nullable = false, min_items = 1)]
    pub(super) account_ids: Option<Vec<String>>,
    /// Tonne's extension: only events of these types (at least one of
    /// `order.received`, `order.placed`, `order.paid`, `order.retiring`,
    /// `order.completed`, `order.cancelled`, `order.failed`, `allocation.new`,
    /// `allocation.retired`); absent: every type.
    #[schema(nullable = false, min_items = 1)]
    pub(super) event_types: Option<Vec<String>>,
}

/// The contract's `UpdateWebhookRequest`.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateWebhookRequest {
    /// An `https://` URL on a public host.
    pub(super) url: String,
    /// Whether events are sent; absent keeps the current value. `true` on a disabled
    /// webhook resumes delivery from the last acknowledged event.
    #[schema(nullable = false)]
    pub(super) enabled: Option<bool>,
    /// Replaces the account filter; absent keeps it.
    #[schema(nullable = false, min_items = 1)]
    pub(super) account_ids: Option<Vec<String>>,
    /// Tonne's extension: replaces the event types (at least one); absent
    /// keeps them; `null` is every type again.
    #[schema(value_type = Option<Vec<String>>, min_items = 1)]
    pub(super) event_types: Option<Option<Vec<String>>>,
}

/// One delivery attempt (Tonne's extension).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = AttemptBody)]
pub struct AttemptResponse {
    /// The attempt's id.
    id: String,
    /// The account whose events were sent.
    account_id: String,
    /// Sequence of the first event of the batch (as in the events).
    first_sequence: String,
    /// Sequence of the last event of the batch.
    last_sequence: String,
    /// Events in the batch.
    events: u32,
    /// When the request was sent (RFC 3339).
    attempted_at: String,
    /// The receiver's HTTP status, if it answered.
    status_code: Option<u16>,
    /// What went wrong without an answer (timeout, network, refused address).
    error: Option<String>,
    /// Milliseconds to the answer or the failure.
    latency_ms: u64,
    /// `delivered`, `failed` (retried at `next_attempt_at`) or `disabled`.
    outcome: String,
    /// When the batch is tried again.
    next_attempt_at: Option<String>,
}

paginated! {
    /// A page of attempts, most recent first.
    PaginatedAttempts of AttemptResponse
}

pub(super) fn base(w: &Webhook) -> WebhookBaseResponse {
    WebhookBaseResponse {
        id: w.id.to_string(),
        url: w.url.as_str().to_owned(),
        enabled: w.enabled,
        account_type: match w.mode {
            AccountMode::Live => AccountType::Live,
            AccountMode::Test => AccountType::Test,
        },
        account_ids: w
            .account_ids
            .as_ref()
            .map(|ids| ids.iter().map(ToString::to_string).collect()),
        event_types: w
            .event_types
            .as_ref()
            .map(|types| types.iter().map(|t| t.as_str().to_owned()).collect()),
        created_at: rfc3339(w.created_at),
    }
}

pub(super) fn body(w: &Webhook) -> WebhookResponse {
    WebhookResponse {
        base: base(w),
        secret: w.secret.last4(),
    }
}

pub(super) fn full(w: &Webhook) -> WebhookFullSecretResponse {
    WebhookFullSecretResponse {
        base: base(w),
        secret: w.secret.expose().to_owned(),
    }
}

pub(super) fn attempt_body(a: &Attempt) -> AttemptResponse {
    AttemptResponse {
        id: a.id.to_string(),
        account_id: a.account_id.to_string(),
        first_sequence: tonne_webhooks::sequence_string(a.first_sequence),
        last_sequence: tonne_webhooks::sequence_string(a.last_sequence),
        events: a.events,
        attempted_at: rfc3339(a.attempted_at),
        status_code: a.status,
        error: a.error.clone(),
        latency_ms: a.latency_ms,
        outcome: a.outcome.as_str().to_owned(),
        next_attempt_at: a.next_attempt_at.map(rfc3339),
    }
}

/// `POST /v1/webhooks/{id}/recover`: which events to send again.
#[tonne_http_macros::request]
#[derive(Debug, Deserialize, ToSchema)]
pub struct RecoverWebhookRequest {
    /// RFC 3339: re-send every event created at or after this time.
    pub(super) since: String,
    /// Only this account's events (one the webhook delivers for).
    pub(super) account_id: Option<String>,
}

/// What a recovery re-queued.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookRecoveryResponse {
    pub(super) webhook_id: String,
    /// As sent, normalised to RFC 3339 UTC.
    pub(super) since: String,
    /// Accounts whose delivery moved back.
    pub(super) accounts: u64,
    /// Events already delivered that will be delivered again.
    pub(super) events: u64,
}

/// 404 of a route on one webhook.
#[derive(IntoResponses)]
pub enum NoSuchWebhook {
    /// No webhook of this organisation and mode has this id
    #[response(status = 404)]
    NotFound(ErrorsResponse),
}
