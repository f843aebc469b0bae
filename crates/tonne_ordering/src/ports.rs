//! Ports of the ordering domain.

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, Currency, Cursor, Money, Page, PageRequest};

pub use tonne_kernel::StoreError;

use crate::catalogue::{Bundle, BundleId, Project, ProjectId};
use crate::errors::{CatalogueError, QuoteError};
use crate::quote::Quote;
use crate::service::{MassRequest, ValueRequest};
use crate::views::{BundleView, ProjectView};

/// Which catalogue items a list returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    /// Also include items disabled at or after this instant (`recently_disabled=true`).
    pub disabled_since: Option<OffsetDateTime>,
}

/// A whole catalogue, as imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    /// Projects.
    pub projects: Vec<Project>,
    /// Bundles (their `project_ids` name projects of this catalogue).
    pub bundles: Vec<Bundle>,
}

/// What an import changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportSummary {
    /// Projects inserted.
    pub projects_created: usize,
    /// Projects updated in place.
    pub projects_updated: usize,
    /// Bundles inserted.
    pub bundles_created: usize,
    /// Bundles updated in place.
    pub bundles_updated: usize,
}

/// Storage of the catalogue.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait CatalogueRepository: Send + Sync {
    /// Projects in id order after the cursor: enabled ones, plus disabled ones per `visibility`.
    async fn list_projects(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Project>, StoreError>;
    /// A project by id (disabled included), or `None`.
    async fn project(&self, id: ProjectId) -> Result<Option<Project>, StoreError>;
    /// A project by slug (disabled included), or `None`.
    async fn project_by_slug(&self, slug: &str) -> Result<Option<Project>, StoreError>;
    /// Bundles in id order after the cursor, as for projects.
    async fn list_bundles(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Bundle>, StoreError>;
    /// The projects with these ids that exist (disabled included), in any order.
    async fn projects(&self, ids: &[ProjectId]) -> Result<Vec<Project>, StoreError>;
    /// The bundles with these ids that exist (disabled included), in any order.
    async fn bundles(&self, ids: &[BundleId]) -> Result<Vec<Bundle>, StoreError>;
    /// The catalogue's default selection: enabled bundles with a default share.
    async fn default_selection(&self) -> Result<Vec<Bundle>, StoreError>;
    /// Whether the catalogue is empty.
    async fn is_empty(&self) -> Result<bool, StoreError>;
    /// Inserts or updates every item in one transaction (idempotent: ids are stable).
    async fn import(
        &self,
        catalogue: &Catalogue,
        at: OffsetDateTime,
    ) -> Result<ImportSummary, StoreError>;
}

/// What ordering needs to know about accounts.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AccountDirectory: Send + Sync {
    /// The account's currency, or `None` if there is no such account.
    async fn currency(&self, account: AccountId) -> Result<Option<Currency>, StoreError>;
}

/// The ordering use cases.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OrderingService: Send + Sync {
    /// Projects (`recently_disabled` adds those disabled in the last 30 days).
    async fn list_projects(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<ProjectView>, CatalogueError>;
    /// A project by id.
    async fn project(&self, id: &str) -> Result<ProjectView, CatalogueError>;
    /// A project by slug.
    async fn project_by_slug(&self, slug: &str) -> Result<ProjectView, CatalogueError>;
    /// Bundles, as for projects.
    async fn list_bundles(
        &self,
        recently_disabled: bool,
        page: PageRequest<Cursor>,
    ) -> Result<Page<BundleView>, CatalogueError>;
    /// A bundle by id.
    async fn bundle(&self, id: &str) -> Result<BundleView, CatalogueError>;
    /// A bundle's price per tonne in a currency, and with commission, if it is sold in it.
    fn display_price(&self, bundle: &Bundle, currency: Currency) -> Option<(Money, Money)>;
    /// Prices an order by mass for an account, storing nothing.
    async fn quote_by_mass(
        &self,
        account: AccountId,
        request: MassRequest,
    ) -> Result<Quote, QuoteError>;
    /// Prices an order by value for an account, storing nothing.
    async fn quote_by_value(
        &self,
        account: AccountId,
        request: ValueRequest,
    ) -> Result<Quote, QuoteError>;
    /// Imports a catalogue (operator).
    async fn import_catalogue(&self, catalogue: Catalogue)
    -> Result<ImportSummary, CatalogueError>;
}
