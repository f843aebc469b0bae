//! A test event: one signed request sent at once, outside the account streams,
//! so that a person can see whether a receiver accepts Tonne's requests.
//!
//! It is not an order event: its `event_type` is [`TEST_EVENT_TYPE`], its
//! `sequence` is zero (below every real event's), and its `data` names the
//! webhook. It is signed with the webhook's current secret like every request,
//! is sent even when the webhook is disabled (to check a receiver before
//! enabling it again), is never retried, and changes no stream's position.

use time::OffsetDateTime;
use tonne_kernel::AccountId;

use crate::models::{OutboxEvent, Webhook};

/// The `message` of a test event's `data`.
pub const TEST_MESSAGE: &str = "A test event sent by a person from the Tonne console. It is not an order event: acknowledge it with any 2xx.";

/// The `event_type` of a test event.
pub const TEST_EVENT_TYPE: &str = "webhook.test";

/// What the receiver made of a test event.
///
/// ```
/// use tonne_webhooks::TestDelivery;
/// # let at = time::OffsetDateTime::UNIX_EPOCH;
/// # let account_id = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
/// let answer = TestDelivery {
///     event_id: "test_0190c6f1a7b27c3e9f2d4b1a2c3d4e60".into(),
///     account_id,
///     attempted_at: at,
///     status: Some(204),
///     error: None,
///     latency_ms: 12,
///     response: String::new(),
/// };
/// assert!(answer.acknowledged());
/// assert!(!TestDelivery { status: Some(500), ..answer }.acknowledged());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestDelivery {
    /// The event's id (`test_…`).
    pub event_id: String,
    /// The account the event was sent for.
    pub account_id: AccountId,
    /// When the request was sent.
    pub attempted_at: OffsetDateTime,
    /// The HTTP status, if the receiver answered.
    pub status: Option<u16>,
    /// What went wrong without an answer (timeout, connection, refused address).
    pub error: Option<String>,
    /// Time to the answer (or the failure), in milliseconds.
    pub latency_ms: u64,
    /// The first bytes of the receiver's answer, as text.
    pub response: String,
}

impl TestDelivery {
    /// Whether the receiver acknowledged it (any 2xx), as it must every event.
    pub fn acknowledged(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// The test event of a webhook for one of its accounts.
pub(crate) fn event(
    webhook: &Webhook,
    account_id: AccountId,
    event_id: String,
    now: OffsetDateTime,
) -> OutboxEvent {
    // the id is 32 hexadecimal characters and the message has no character
    // JSON escapes: the text is valid JSON as written
    let data = format!(
        r#"{{"webhook_id":"{}","message":"{TEST_MESSAGE}"}}"#,
        webhook.id
    );
    OutboxEvent {
        event_id,
        event_type: TEST_EVENT_TYPE.to_owned(),
        account_id,
        sequence: 0,
        data_json: data,
        created_at: now,
        traceparent: None,
    }
}
