//! The impact domain's ports: [`ImpactService`] (driving) and what it drives,
//! [`ImpactRepository`] and [`PageHolders`]. The catalogue is read through the
//! ordering domain's `CatalogueRepository`.

use async_trait::async_trait;
use time::Date;
use tonne_kernel::{AccountId, AccountMode, Mass, OrganisationId, StoreError};
use tonne_ordering::{BundleId, ProjectId};

use crate::analytics::{Aggregates, BundleSeries, EstimateMetrics, Metrics};
use crate::errors::{AnalyticsError, PageError, PageWriteError};
use crate::pages::{
    CompletedOrder, PageHolder, PageSettings, PublicPage, Slug, SustainabilityPage,
};
use crate::range::{DateRange, Interval};

/// Who asks: the account a key acts as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewer {
    /// The acting account.
    pub account_id: AccountId,
    /// Its organisation.
    pub organisation_id: OrganisationId,
    /// Its mode: analytics read only this mode's accounts.
    pub mode: AccountMode,
    /// Whether the key is a client account's (which speaks for that account
    /// only, even with `all_accounts`).
    pub client_account: bool,
}

/// The dates a request names (`from`, `through`), before defaults and checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AskedRange {
    /// First day, if given.
    pub from: Option<Date>,
    /// Last day (inclusive), if given.
    pub through: Option<Date>,
}

/// Which orders a sum counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// Every order not cancelled or failed (analytics).
    Placed,
    /// Completed orders: what was retired (public pages).
    Completed,
}

/// One bundle's orders on one UTC day (by the order's creation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleDay {
    /// The day.
    pub day: Date,
    /// The bundle.
    pub bundle_id: BundleId,
    /// The bundle's name on the orders.
    pub bundle_name: String,
    /// Grams ordered.
    pub quantity: Mass,
    /// Their offset cost, in the account's minor units.
    pub value_minor: i64,
}

/// One bundle's orders over a span of days, summed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleTotal {
    /// The bundle.
    pub bundle_id: BundleId,
    /// The bundle's name on the newest day's orders.
    pub bundle_name: String,
    /// The newest day with orders of it — for a span answered by whole
    /// months, the first day of the newest month with orders of it (it only
    /// orders names: the newest wins).
    pub last_day: Date,
    /// Grams ordered.
    pub quantity: Mass,
    /// Their offset cost, in the account's minor units.
    pub value_minor: i64,
}

/// An account's orders of one calendar month (UTC), summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonthTotal {
    /// The month's first day.
    pub month: Date,
    /// Grams ordered.
    pub quantity: Mass,
    /// Their offset cost, in the account's minor units.
    pub value_minor: i64,
}

/// One project's allocated share of orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSum {
    /// The project.
    pub project_id: ProjectId,
    /// Grams allocated.
    pub quantity: Mass,
    /// Their offset cost, in the account's minor units.
    pub value_minor: i64,
}

/// Estimates of one kind on one UTC day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EstimateDay {
    /// The day.
    pub day: Date,
    /// The kind.
    pub kind: String,
    /// How many.
    pub count: u64,
    /// Their total mass.
    pub mass: Mass,
}

/// Storage of the figures (kept by the order and estimate stores in the
/// transaction of each change) and of the pages.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ImpactRepository: Send + Sync {
    /// The account's orders per day and bundle, from `from` (or the first) to
    /// `through`, by `basis`; days without orders are absent.
    async fn bundle_days(
        &self,
        account: AccountId,
        from: Option<Date>,
        through: Date,
        basis: Basis,
    ) -> Result<Vec<BundleDay>, StoreError>;

    /// The account's orders per bundle from `from` (or the first day) to
    /// `through`, summed in storage, by `basis`; bundles without figures are
    /// absent.
    async fn bundle_totals(
        &self,
        account: AccountId,
        from: Option<Date>,
        through: Date,
        basis: Basis,
    ) -> Result<Vec<BundleTotal>, StoreError>;

    /// The account's orders per calendar month, oldest first, summed in
    /// storage, by `basis`; months without figures are absent.
    async fn month_totals(
        &self,
        account: AccountId,
        basis: Basis,
    ) -> Result<Vec<MonthTotal>, StoreError>;

    /// The account's orders by project over `range` (all time when `None`), by
    /// `basis`; orders not yet allocated to projects are not in it.
    async fn project_sums(
        &self,
        account: AccountId,
        range: Option<DateRange>,
        basis: Basis,
    ) -> Result<Vec<ProjectSum>, StoreError>;

    /// The accounts' estimates per day and kind over `range`.
    async fn estimate_days(
        &self,
        accounts: Vec<AccountId>,
        range: DateRange,
    ) -> Result<Vec<EstimateDay>, StoreError>;

    /// The account's newest completed orders, at most `limit`.
    async fn completed_orders(
        &self,
        account: AccountId,
        limit: u32,
    ) -> Result<Vec<CompletedOrder>, StoreError>;

    /// The account's page.
    async fn page(&self, account: AccountId) -> Result<Option<SustainabilityPage>, StoreError>;

    /// The page of `mode` with `slug`.
    async fn page_by_slug(
        &self,
        mode: AccountMode,
        slug: &Slug,
    ) -> Result<Option<SustainabilityPage>, StoreError>;

    /// Inserts the page (`create`) or replaces the account's (`!create`).
    /// MUST return `SlugTaken` when another page of the mode has the slug, and
    /// `Conflict` when the account has a page (create) or has none (update).
    async fn save_page(
        &self,
        page: &SustainabilityPage,
        create: bool,
    ) -> Result<(), PageWriteError>;
}

/// What the impact domain reads of accounts.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PageHolders: Send + Sync {
    /// An account.
    async fn holder(&self, account: AccountId) -> Result<Option<PageHolder>, StoreError>;
    /// The account of the organisation and mode with `handle`.
    async fn by_handle(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
        handle: &str,
    ) -> Result<Option<PageHolder>, StoreError>;
    /// Every account of the organisation in `mode` (client accounts included).
    async fn accounts(
        &self,
        organisation: OrganisationId,
        mode: AccountMode,
    ) -> Result<Vec<AccountId>, StoreError>;
}

/// The impact use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait ImpactService: Send + Sync {
    /// `GET /analytics/cumulative-per-bundle`.
    async fn cumulative_per_bundle(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Vec<BundleSeries>, AnalyticsError>;
    /// `GET /analytics/metrics`.
    async fn metrics(&self, viewer: Viewer, asked: AskedRange) -> Result<Metrics, AnalyticsError>;
    /// `GET /analytics/aggregated-by-property`.
    async fn aggregated(
        &self,
        viewer: Viewer,
        asked: AskedRange,
    ) -> Result<Aggregates, AnalyticsError>;
    /// `GET /analytics/emission-calculations`.
    async fn emission_calculations(
        &self,
        viewer: Viewer,
        asked: AskedRange,
        interval: Interval,
        all_accounts: bool,
    ) -> Result<EstimateMetrics, AnalyticsError>;
    /// `GET /analytics/shipping/public/{account_id}`: the account (its
    /// name, mode and logo) and the checked range, only while its external
    /// pages are public (`NotPublic` otherwise, and for an unknown or
    /// malformed id); the caller adds up its shipments ([`crate::shipping`]).
    async fn public_shipping(
        &self,
        account: &str,
        asked: AskedRange,
    ) -> Result<(PageHolder, DateRange), AnalyticsError>;
    /// `POST /sustainability-pages`.
    async fn create_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError>;
    /// `PUT /sustainability-pages`.
    async fn update_page(
        &self,
        viewer: Viewer,
        settings: PageSettings,
    ) -> Result<SustainabilityPage, PageError>;
    /// `GET /sustainability-pages/current-account`.
    async fn current_page(&self, viewer: Viewer) -> Result<SustainabilityPage, PageError>;
    /// `GET /sustainability-pages/public/{type}/{slug}`.
    async fn public_by_slug(&self, mode: AccountMode, slug: &str) -> Result<PublicPage, PageError>;
    /// `GET /sustainability-pages/public/{organisation_id}/{type}/{handle}`.
    async fn public_by_handle(
        &self,
        organisation: &str,
        mode: AccountMode,
        handle: &str,
    ) -> Result<PublicPage, PageError>;
}
