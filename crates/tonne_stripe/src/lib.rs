//! Tonne's Stripe adapter: the calls a card payment needs, over Stripe's
//! HTTP API, and the check of the webhook events Stripe sends back.
//!
//! - [`StripeClient`]: PaymentIntents with **manual capture** (authorised
//!   on the hosted page by Stripe.js, captured when the order becomes
//!   `paid`, cancelled or refunded when it is `cancelled`); every write
//!   carries an `Idempotency-Key` the caller derives from what it does (so a
//!   retry after a crash repeats nothing), every request Stripe's API
//!   version [`API_VERSION`], pinned.
//! - [`verify_signature`]: a webhook body checked against its
//!   `Stripe-Signature` header (HMAC-SHA256 over `t.body`, any `v1`
//!   signature, within a tolerance of the signing time).
//! - [`Event`]: the envelope of a webhook event.
//!
//! The card itself never reaches Tonne: Stripe.js collects it in the
//! visitor's browser, and Tonne only ever holds the PaymentIntent's id.
//!
//! ```
//! use tonne_stripe::{StripeConfig, StripeClient};
//! // plain HTTP only to a loopback fake; Stripe itself over HTTPS
//! assert!(StripeConfig::new("sk_test_x", "http://127.0.0.1:8420").is_ok());
//! assert!(StripeConfig::new("sk_test_x", "http://stripe.example").is_err());
//! let config = StripeConfig::new("sk_test_x", tonne_stripe::STRIPE_API_URL).unwrap();
//! assert!(!format!("{config:?}").contains("sk_test_x"), "the key is never printed");
//! let _client = StripeClient::new(config);
//! ```

mod cards;
mod client;
mod config;
mod error;
mod event;
mod gateway;
mod payment_intents;
mod refunds;
mod setup_intents;
mod signature;

pub use cards::StripeCards;
pub use client::StripeClient;
pub use config::{API_VERSION, STRIPE_API_URL, StripeConfig, stripe_url};
pub use error::StripeError;
pub use event::{Event, EventData};
pub use gateway::StripeGateway;
pub use payment_intents::{IntentStatus, NewPaymentIntent, PaymentIntent};
pub use refunds::Refund;
pub use setup_intents::SetupIntent;
pub use signature::{DEFAULT_TOLERANCE, SignatureError, verify_signature};
