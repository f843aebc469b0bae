//! Webhooks and what their delivery works with: owners, attempts, outbox
//! events, streams and recoveries.

use time::OffsetDateTime;
use tonne_kernel::{AccountId, AccountMode, OrganisationId};

use crate::events::{EventType, Subscription};
use crate::secret::WebhookSecret;
use crate::target::WebhookUrl;

tonne_kernel::define_id!(
    /// Identifies a webhook endpoint.
    WebhookId
);
tonne_kernel::define_id!(
    /// Identifies one recorded delivery attempt.
    AttemptId
);

/// Who owns webhooks: an organisation in one mode. A live webhook only ever
/// receives live events, a test webhook test events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Owner {
    /// The organisation.
    pub organisation_id: OrganisationId,
    /// The mode of the key that manages it.
    pub mode: AccountMode,
}

/// A registered webhook endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// Its id.
    pub id: WebhookId,
    /// Its organisation.
    pub organisation_id: OrganisationId,
    /// Live or test: which events it receives.
    pub mode: AccountMode,
    /// Where events are posted.
    pub url: WebhookUrl,
    /// Whether events are sent. A disabled webhook is paused: its streams keep their
    /// position and resume from it when it is enabled again.
    pub enabled: bool,
    /// Only these accounts' events; `None`: every account of the organisation and
    /// mode, including accounts created later.
    pub account_ids: Option<Vec<AccountId>>,
    /// Only events of these types (in [`EventType::ALL`]'s order); `None`:
    /// every type, including types added later.
    pub event_types: Option<Vec<EventType>>,
    /// The signing secret.
    pub secret: WebhookSecret,
    /// Why the dispatcher disabled it (410, schedule exhausted), if it did.
    pub disabled_reason: Option<String>,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
}

impl Webhook {
    /// Its owner.
    pub fn owner(&self) -> Owner {
        Owner {
            organisation_id: self.organisation_id,
            mode: self.mode,
        }
    }
}

/// `POST /webhooks` as the domain sees it (wire strings, validated by the service).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewWebhook {
    /// The URL.
    pub url: String,
    /// The optional account filter (at least one id when given).
    pub account_ids: Option<Vec<String>>,
    /// The optional event type filter (at least one name when given).
    pub event_types: Option<Vec<String>>,
}

/// `PUT /webhooks/{id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookChanges {
    /// The URL (required).
    pub url: String,
    /// `None` keeps the current value.
    pub enabled: Option<bool>,
    /// `None` keeps the current filter.
    pub account_ids: Option<Vec<String>>,
    /// `None` keeps the current event types; `Some(None)` is every type;
    /// `Some(Some(names))` only those (at least one).
    pub event_types: Option<Option<Vec<String>>>,
}

/// How a webhook is doing, for the operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookHealth {
    pub webhook: Webhook,
    /// The last attempt a receiver acknowledged, if any.
    pub last_success: Option<OffsetDateTime>,
    /// Streams (one per account) whose last attempt failed.
    pub failing_streams: u32,
    /// Creation time of the oldest event not yet delivered, if any.
    pub oldest_undelivered: Option<OffsetDateTime>,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// 2xx: acknowledged.
    Delivered,
    /// A failure that will be retried.
    Failed,
    /// A failure that disabled the webhook (410, or the schedule ran out).
    Disabled,
}

impl AttemptOutcome {
    /// `delivered`, `failed` or `disabled`.
    pub fn as_str(self) -> &'static str {
        match self {
            AttemptOutcome::Delivered => "delivered",
            AttemptOutcome::Failed => "failed",
            AttemptOutcome::Disabled => "disabled",
        }
    }

    /// The inverse of [`AttemptOutcome::as_str`].
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "delivered" => Some(AttemptOutcome::Delivered),
            "failed" => Some(AttemptOutcome::Failed),
            "disabled" => Some(AttemptOutcome::Disabled),
            _ => None,
        }
    }
}

/// One recorded delivery attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// Its id (time-ordered).
    pub id: AttemptId,
    /// The webhook.
    pub webhook_id: WebhookId,
    /// The account whose stream was delivered.
    pub account_id: AccountId,
    /// Sequence of the batch's first event.
    pub first_sequence: i64,
    /// Sequence of its last event.
    pub last_sequence: i64,
    /// Events in the batch.
    pub events: u32,
    /// When the request was sent.
    pub attempted_at: OffsetDateTime,
    /// The HTTP status, if the receiver answered.
    pub status: Option<u16>,
    /// What went wrong without an answer (timeout, connection, refused address).
    pub error: Option<String>,
    /// Time to the answer (or the failure), in milliseconds.
    pub latency_ms: u64,
    /// How it ended.
    pub outcome: AttemptOutcome,
    /// When the batch is tried again (failures only).
    pub next_attempt_at: Option<OffsetDateTime>,
    /// The first bytes of the receiver's answer, as text (empty when it did
    /// not answer, or for attempts stored before Tonne kept them).
    pub response: String,
}

/// One event of the outbox, as the dispatcher reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEvent {
    /// Stable across retries (receivers deduplicate on it).
    pub event_id: String,
    /// `order.received` … `order.completed`.
    pub event_type: String,
    /// The account it belongs to.
    pub account_id: AccountId,
    /// Gap-free, increasing per account.
    pub sequence: i64,
    /// The contract's `OrderEventDetails` as JSON text (`{"order": …}`), stored with the event.
    pub data_json: String,
    /// When the transition committed.
    pub created_at: OffsetDateTime,
    /// The W3C `traceparent` of the work that wrote it, when traces are
    /// exported: its delivery continues that trace.
    pub traceparent: Option<String>,
}

/// The wire form of a sequence number: 20 zero-padded digits, so that comparing the
/// strings lexicographically orders events as the numbers do.
///
/// ```
/// use tonne_webhooks::sequence_string;
/// assert_eq!(sequence_string(42), "00000000000000000042");
/// assert!(sequence_string(9) < sequence_string(10));
/// ```
pub fn sequence_string(sequence: i64) -> String {
    format!("{:020}", sequence.max(0))
}

/// A delivery stream: the events of one account for one webhook, delivered strictly in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StreamKey {
    /// The webhook.
    pub webhook_id: WebhookId,
    /// The account.
    pub account_id: AccountId,
}

/// A stream a dispatcher holds the lease of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedStream {
    /// Which stream.
    pub key: StreamKey,
    /// The last acknowledged (or skipped) sequence: delivery resumes after it.
    pub acked_sequence: i64,
    /// Failed attempts of the batch at the head of the stream.
    pub failures: u32,
    /// Which events it delivers, as of the claim.
    pub subscription: Subscription,
}

/// What the dispatcher needs to send to a webhook, read immediately before signing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The webhook's organisation (in the signature header).
    pub organisation_id: OrganisationId,
    /// The URL.
    pub url: WebhookUrl,
    /// The secret at this moment.
    pub secret: WebhookSecret,
    /// Whether it is enabled.
    pub enabled: bool,
}

/// What a recovery re-queued: how many streams moved back, and how many events
/// they will deliver again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Streams (one per account) moved back.
    pub streams: u64,
    /// Events already delivered that will be delivered again.
    pub events: u64,
}
