//! The offset links domain of Tonne.
//!
//! An **offset link** is what a client hands its own customers — a campaign, a
//! "make it carbon neutral" checkout link, an employee programme — so that they
//! can fund a bundle of the client's choice without the client writing any UI.
//! A link names 1–24 bundles, optionally a fixed amount, an email allow-list, an
//! expiry and whether the customer pays by card. Its hosted page (an adapter)
//! drives the checkout use cases here: [`OffsetLinksService::open`],
//! [`OffsetLinksService::quote`] and [`OffsetLinksService::place`], which price
//! and place real orders through the ordering domain's `OrderingService`.
//!
//! This crate is pure (no web framework, database or runtime). Visitors are
//! counted by a keyed hash with a daily salt ([`PageKey::visitor`]); the raw
//! address never reaches a port.
//!
//! ```
//! use time::macros::datetime;
//! use tonne_kernel::{AccountMode, Currency, Money};
//! use tonne_links::{Email, LinkStatus, OffsetLink};
//!
//! let link = OffsetLink {
//!     id: "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap(),
//!     account_id: "0190c6f1a7b27c3e9f2d4b1a2c3d4e60".parse().unwrap(),
//!     mode: AccountMode::Test,
//!     name: "Checkout, winter 2026".into(),
//!     title: Some("Make your order carbon neutral".into()),
//!     description: None,
//!     bundle_ids: vec!["0190c6f1a7b27c3e9f2d4b1a2c3d4e61".parse().unwrap()],
//!     value: Some(Money::from_minor(500, Currency::Gbp)),
//!     currency: Currency::Gbp,
//!     emails: vec![Email::parse("jane@example.org").unwrap()],
//!     expires_at: Some(datetime!(2027-01-01 0:00 UTC)),
//!     use_logo: false,
//!     require_payment: false,
//!     switched_off: false,
//!     limits: tonne_links::LinkLimits::defaults(&Default::default(), Currency::Gbp),
//!     created_at: datetime!(2026-11-22 9:00 UTC),
//!     updated_at: datetime!(2026-11-22 9:00 UTC),
//! };
//! assert_eq!(link.status(datetime!(2026-12-24 12:00 UTC)), LinkStatus::Enabled);
//! assert_eq!(link.status(datetime!(2027-01-01 0:00 UTC)), LinkStatus::Disabled);
//! assert!(link.allows(&Email::parse("JANE@example.org").unwrap()));
//! assert!(!link.allows(&Email::parse("john@example.org").unwrap()));
//! ```

mod checkout;
mod claims;
mod errors;
mod keys;
mod limits;
mod models;
pub mod pay;
pub mod ports;
mod service;

pub use checkout::{Amount, Checkout, Choice, Confirmed, PublicLink};
pub use claims::{Claim, ClaimOutcome};
pub use errors::{CheckoutError, LinkError};
pub use keys::{MAX_ANALYTICS_VALIDITY_SECS, PageKey};
pub use limits::{
    DefaultLimits, LimitProblem, LimitReached, LimitsDraft, LinkLimits, MAX_DAILY_ORDERS,
    parse_limits,
};
pub use models::{
    AccountProfile, Analytics, DailyFigures, Email, LinkChanges, LinkDetails, LinkDraft, LinkOrder,
    LinkStatus, MAX_BUNDLES, MAX_DESCRIPTION, MAX_EMAILS, MAX_NAME, MAX_TITLE, OffsetLink,
    OffsetLinkId, VisitorHash,
};
pub use ports::{Card, CardForm, CardOutcome, OffsetLinksService, ProcessorForm};
#[cfg(any(test, feature = "mock"))]
pub use ports::{
    MockAccountDirectory, MockCardPayments, MockOffsetLinkRepository, MockOffsetLinksService,
};
pub use service::{MAX_ANALYTICS_ORDERS, OffsetLinks, Settings};
