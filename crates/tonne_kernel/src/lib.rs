//! Value types shared by Tonne's domain crates.
//!
//! Nothing here knows about HTTP, SQL or an async runtime: these are plain
//! types with validating constructors, plus the two driven ports every domain
//! needs ([`Clock`] and [`IdGenerator`]).
//!
//! ```
//! use tonne_kernel::{AccountMode, Currency, Money};
//!
//! let price = Money::from_minor(1250, Currency::Gbp);
//! assert_eq!(price.to_decimal_string(), "12.50");
//! assert_eq!("live".parse::<AccountMode>(), Ok(AccountMode::Live));
//! ```
#![deny(clippy::float_arithmetic)]

mod audit;
mod clock;
mod ids;
mod jobs;
mod mass;
mod mode;
mod money;
mod page;
mod quota;
mod store;

pub use audit::{Actor, AuditEntry, AuditEntryId, AuditFilter, Snapshot};
pub use clock::{Clock, IdGenerator, SystemClock, UuidV7Generator};
#[cfg(any(test, feature = "mock"))]
pub use clock::{MockClock, MockIdGenerator};
#[doc(hidden)]
pub use ids::__private;
pub use ids::{AccountId, ApiKeyId, EstimateId, IdParseError, OrganisationId};
pub use jobs::{JobClaim, JobId, JobLease, Step};
pub use mass::{Mass, MassError, MassUnit};
pub use mode::{AccountMode, ParseModeError};
pub use money::{AmountError, Currency, Money, MoneyError, ParseCurrencyError};
pub use page::{Cursor, CursorError, Limit, LimitError, Page, PageRequest};
pub use quota::{
    BoundedWriteError, Bounds, Exceeded, LimitOverrides, Limits, PerLimit, Quota, Usage,
};
pub use store::{StoreError, Unavailable};

/// Splits a plain decimal string — the contract's `^[0-9]+(\.[0-9]+)?$` — into its
/// whole and fraction digits (`""` without a point), or `None` if it is anything else.
///
/// ```
/// use tonne_kernel::split_plain_decimal;
/// assert_eq!(split_plain_decimal("12.50"), Some(("12", "50")));
/// assert_eq!(split_plain_decimal("7"), Some(("7", "")));
/// for bad in ["", ".5", "5.", "-1", "1e3", "1,5", " 1"] {
///     assert_eq!(split_plain_decimal(bad), None, "{bad}");
/// }
/// ```
pub fn split_plain_decimal(value: &str) -> Option<(&str, &str)> {
    let (whole, fraction) = match value.split_once('.') {
        Some((w, f)) if !f.is_empty() => (w, f),
        Some(_) => return None,
        None => (value, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    (!whole.is_empty() && digits(whole) && digits(fraction)).then_some((whole, fraction))
}
