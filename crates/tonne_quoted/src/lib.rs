//! An estimate answered with its quote.
//!
//! Every estimate Tonne answers carries the quote of offsetting its mass. The
//! two halves belong to two independent domains: `tonne_estimation` computes
//! and stores the estimate, `tonne_ordering` prices the offset. This crate is
//! the use case that composes them through their driving ports
//! ([`EstimationService`] and [`OrderingService`]), the same way
//! `tonne_links` composes ordering: it depends on both domains' ports and types,
//! neither depends on it, and the kernel's `EstimateId` stays the only type the
//! two domains share. Adapters (the HTTP API today; the CLI or the hosted
//! pages tomorrow) call the one driving port [`QuotedEstimatesService`].
//!
//! A quote that cannot be made (no priced bundle, a selection that does not
//! price…) does not fail the estimate: it is the `Err` of
//! [`QuotedEstimate::quote`]. A failure of the store while quoting is not a
//! quoting problem: it fails the use case (`EstimationError::Unexpected`).

pub mod ports;
pub mod service;

pub use ports::{QuotedEstimate, QuotedEstimatesService};
pub use service::QuotedEstimates;
