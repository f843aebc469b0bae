//! Tonne's outbound webhook dispatcher (an adapter).
//!
//! [`Dispatcher::run`] leases due (webhook, account) streams from the
//! [`tonne_webhooks::ports::DeliveryStore`], drives each on its own task —
//! strictly one batch at a time, so per-account order holds — and gives them
//! back. The rules (what a batch is, signing, retries, disabling) are
//! `tonne_webhooks::Deliverer`'s; this crate supplies the runtime, the
//! SSRF-safe HTTP client ([`HttpSender`]), the JSON body ([`JsonEncoder`]),
//! registration-time DNS ([`SystemResolver`]) and Prometheus metrics.

mod encoder;
mod metrics;
mod pact;
mod sender;
mod worker;

pub use encoder::JsonEncoder;
pub use metrics::{DispatchMetrics, result_label};
pub use pact::PactGateway;
pub use sender::{HttpSender, MAX_RESPONSE_BYTES, SystemResolver, USER_AGENT};
pub use worker::{ConfigError, Dispatcher, DispatcherConfig};
