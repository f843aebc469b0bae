//! The webhooks domain of Tonne.
//!
//! A **webhook** is an HTTPS endpoint an organisation registers for one mode
//! (live or test), optionally filtered to some accounts. Every order transition
//! is written to an outbox in the same transaction as the change; the dispatcher
//! turns the outbox into signed `POST`s of `{"events":[…]}`, **at least once and
//! in order per account**: per (webhook, account) **stream**, a batch is sent
//! only after the previous one was acknowledged by a 2xx.
//!
//! This crate is pure (no HTTP client, database or runtime): it owns the rules —
//! URL and address policy ([`target`]), secrets ([`WebhookSecret`]), the
//! `Lune-HMAC` signature ([`signature`], [`verify`]), the retry policy
//! ([`DeliveryPolicy`]) — and the use cases ([`Webhooks`] for the API,
//! [`Deliverer`] for the dispatcher) over the ports in [`ports`].
//!
//! # For receivers
//!
//! A Rust service receiving Tonne's webhooks can depend on this crate for
//! [`verify`]:
//!
//! ```
//! use time::{Duration, OffsetDateTime};
//! use tonne_webhooks::{signature, verify};
//!
//! // What your handler gets: the raw body bytes and the Lune-HMAC header.
//! let secret = "whsec_0123456789012345678901234567890123456789012";
//! let body = br#"{"events":[]}"#;
//! let now = OffsetDateTime::now_utc();
//! # let org = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
//! # let header = signature::header_value(secret, org, now.unix_timestamp(), body);
//! verify(secret, &header, body, now, Duration::minutes(5)).expect("a genuine request");
//! ```

mod delivery;
mod errors;
mod events;
mod models;
pub mod policy;
pub mod ports;
mod secret;
mod service;
pub mod signature;
pub mod target;
mod test_event;

pub use delivery::{Deliverer, DeliverySettings, Step, is_network_failure, random_jitter};
pub use errors::{
    AdminWebhookError, CreateWebhookError, InsertWebhookError, InvalidField, ListWebhooksError,
    RecoverError, TestEventError, UpdateWebhookError, WebhookError,
};
pub use events::{ALLOCATION_EVENTS_SINCE, EventType, Subscription, parse_event_types};
pub use models::{
    Attempt, AttemptId, AttemptOutcome, ClaimedStream, NewWebhook, OutboxEvent, Owner, Recovery,
    StreamKey, Target, Webhook, WebhookChanges, WebhookHealth, WebhookId, sequence_string,
};
pub use policy::{
    BODY_START_BYTES, DeliveryPolicy, RetrySchedule, SendOutcome, Verdict, body_start,
};
pub use ports::WebhooksService;
#[cfg(any(test, feature = "mock"))]
pub use ports::{
    MockAccountDirectory, MockDeliveryStore, MockEventEncoder, MockHostResolver,
    MockWebhookRepository, MockWebhookSender, MockWebhooksService,
};
pub use secret::WebhookSecret;
pub use service::{DEFAULT_WEBHOOK_LIMIT, MAX_FILTER_ACCOUNTS, Outbound, Settings, Webhooks};
pub use signature::{VerifyError, verify};
pub use target::{TargetPolicy, WebhookUrl};
pub use test_event::{TEST_EVENT_TYPE, TEST_MESSAGE, TestDelivery};
