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

/// Declares a typed identifier: a newtype over a UUID rendered as 32 lowercase
/// hex characters on the wire and in storage.
///
/// Domain crates use it for their own entities so that an `AccountId` can never
/// be passed where an `OrderId` is expected.
///
/// ```
/// tonne_kernel::define_id!(
///     /// Identifies a widget.
///     WidgetId
/// );
/// let id: WidgetId = "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f".parse().unwrap();
/// assert_eq!(id.to_string(), "0190c6f1a7b27c3e9f2d4b1a2c3d4e5f");
/// assert!("not-an-id".parse::<WidgetId>().is_err());
/// ```
#[macro_export]
macro_rules! define_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name($crate::__private::Uuid);

        impl $name {
            /// A fresh identifier from the given generator.
            pub fn generate(ids: &dyn $crate::IdGenerator) -> Self {
                Self(ids.new_uuid())
            }

            /// Wraps an existing UUID (used by storage adapters when reading rows).
            pub fn from_uuid(uuid: $crate::__private::Uuid) -> Self {
                Self(uuid)
            }

            /// The UUID inside.
            pub fn as_uuid(&self) -> $crate::__private::Uuid {
                self.0
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.0.simple(), f)
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::IdParseError;
            fn from_str(s: &str) -> ::std::result::Result<Self, Self::Err> {
                $crate::__private::parse_simple_uuid(s).map(Self)
            }
        }
    };
}

#[doc(hidden)]
pub mod __private {
    pub use uuid::Uuid;

    /// Parses exactly 32 lowercase or uppercase hex characters.
    pub fn parse_simple_uuid(s: &str) -> Result<Uuid, crate::IdParseError> {
        if s.len() != 32 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(crate::IdParseError);
        }
        Uuid::try_parse(s).map_err(|_| crate::IdParseError)
    }
}
