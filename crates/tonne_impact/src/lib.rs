//! The impact domain of Tonne: what an account's orders and estimates add up
//! to, and the public sustainability page that shows it.
//!
//! - **Analytics** ([`ImpactService::cumulative_per_bundle`],
//!   [`ImpactService::metrics`], [`ImpactService::aggregated`],
//!   [`ImpactService::emission_calculations`]) over a checked [`DateRange`]
//!   (`time_range_invalid` when reversed or longer than [`MAX_RANGE_DAYS`]), in
//!   exact grams and minor units of the account's currency. They read daily
//!   figures ([`ImpactRepository`]) that the stores keep in the transaction of
//!   each order and estimate, so their cost follows the number of days, not of
//!   orders. An account's mode is its data's mode: test and live never mix.
//! - **Sustainability pages**: one per account ([`PageSettings`]: status, a
//!   [`Slug`] unique per mode, headline, description, sections), and the
//!   [`PublicPage`] it makes — completed orders only, only the sections the
//!   owner chose, served only while the page is enabled and the account's
//!   external pages are public.
//!
//! The crate is pure: no web framework, database or runtime.
//!
//! ```
//! use time::macros::date;
//! use tonne_impact::{DateRange, Interval, PageSettings, PageStatus, Section, Slug, TitleFormat};
//!
//! let range = DateRange::new(date!(2026 - 01 - 15), date!(2026 - 03 - 02)).unwrap();
//! assert_eq!(range.buckets(Interval::Month).len(), 3);
//!
//! let settings = PageSettings::new(
//!     PageStatus::Enabled,
//!     Slug::parse("acme").unwrap(),
//!     TitleFormat::ByVolume,
//!     None,
//!     Some("<b>not bold</b>".into()),
//!     vec![Section::Certificates, Section::BundlesBreakdown],
//! )
//! .unwrap();
//! assert!(settings.shows(Section::Certificates));
//! assert!(!settings.shows(Section::UnSdg));
//! // Each section once.
//! assert!(PageSettings::new(
//!     PageStatus::Enabled,
//!     Slug::parse("acme").unwrap(),
//!     TitleFormat::ByVolume,
//!     None,
//!     None,
//!     vec![Section::UnSdg, Section::UnSdg],
//! )
//! .is_err());
//! ```

mod analytics;
mod continents;
mod errors;
mod pages;
pub mod ports;
mod range;
mod service;
pub mod shipping;

pub use analytics::{
    Aggregates, BundleSeries, CountPoint, EstimateMetrics, Figures, KindTotal, Location, Metrics,
    Point, RegistryName, SdgCount, oxford_type,
};
pub use continents::continent_of;
pub use errors::{AnalyticsError, PageError, PageWriteError};
pub use pages::{
    BundleShare, CompletedOrder, Description, DescriptionFormat, MAX_CERTIFICATES,
    MAX_CUSTOM_DESCRIPTION, MAX_SLUG, PageHolder, PageSettings, PageStatus, ProjectShare,
    PublicPage, Section, Slug, SustainabilityPage, Title, TitleFormat,
};
pub use ports::{
    AskedRange, Basis, BundleDay, BundleTotal, EstimateDay, ImpactRepository, ImpactService,
    MonthTotal, PageHolders, ProjectSum, Viewer,
};
pub use range::{DEFAULT_RANGE_DAYS, DateRange, Interval, MAX_RANGE_DAYS, RangeError};
pub use service::Impact;
