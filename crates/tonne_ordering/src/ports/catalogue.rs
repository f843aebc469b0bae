//! The catalogue's storage port and what an import deals in.

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::StoreError;
use tonne_kernel::{AccountId, AuditEntry, Cursor, Page, PageRequest};

use crate::catalogue::{Bundle, BundleId, BundlePortfolio, BundlePortfolioId, Project, ProjectId};
use crate::perimeter::Perimeter;
use crate::stock::{BundleEdit, StockEntry, StockEntryId};

/// Which catalogue items a list returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    /// Also include items disabled at or after this instant (`recently_disabled=true`).
    pub disabled_since: Option<OffsetDateTime>,
}

/// A whole catalogue, as imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    pub projects: Vec<Project>,
    /// Bundles (their `project_ids` name projects of this catalogue).
    pub bundles: Vec<Bundle>,
    /// Bundle portfolios (their selections name bundles of this catalogue).
    pub portfolios: Vec<BundlePortfolio>,
    /// The perimeters of projects of this catalogue that have one; an
    /// imported project not named here has none (a previous one is removed).
    pub perimeters: Vec<(ProjectId, Perimeter)>,
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
    /// Bundle portfolios inserted.
    pub portfolios_created: usize,
    /// Bundle portfolios updated in place.
    pub portfolios_updated: usize,
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
    /// A project's perimeter, or `None` (no such project, or none recorded).
    async fn perimeter(&self, id: ProjectId) -> Result<Option<Perimeter>, StoreError>;
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
    /// The account's own default selection as `(bundle, share in hundredths)`, in
    /// its order; when it has none but follows a bundle portfolio that exists,
    /// that portfolio's selection; else empty.
    async fn account_selection(&self, account: AccountId)
    -> Result<Vec<(Bundle, u32)>, StoreError>;
    /// Replaces the account's default selection (empty clears it) and stops it
    /// following a bundle portfolio (its `bundle_portfolio_id` becomes null), in
    /// one transaction.
    /// The audit entry, when given, is written in the same transaction.
    async fn set_account_selection(
        &self,
        account: AccountId,
        selection: &[(BundleId, u32)],
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError>;
    /// Every bundle portfolio, in identifier order.
    async fn portfolios(&self) -> Result<Vec<BundlePortfolio>, StoreError>;
    /// A bundle portfolio by id, or `None`.
    async fn portfolio(&self, id: BundlePortfolioId)
    -> Result<Option<BundlePortfolio>, StoreError>;
    /// Makes the account follow the portfolio: clears its own selection and sets
    /// its `bundle_portfolio_id`, in one transaction. MUST return `NotFound` when
    /// the account does not exist.
    async fn set_account_portfolio(
        &self,
        account: AccountId,
        portfolio: BundlePortfolioId,
    ) -> Result<(), StoreError>;
    /// Whether the catalogue is empty.
    async fn is_empty(&self) -> Result<bool, StoreError>;
    /// In one transaction: changes a limited bundle's available grams by
    /// `entry.delta_grams` only if the result is not below zero, and writes the
    /// ledger row (its `available_after` as stored) and the audit entry (with
    /// `available` before and after added). `Ok(None)` when the bundle is
    /// unlimited or the change would go below zero (nothing written);
    /// `NotFound` when there is no such bundle.
    async fn adjust_stock(
        &self,
        entry: StockEntry,
        audit: AuditEntry,
    ) -> Result<Option<StockEntry>, StoreError>;
    /// A bundle's ledger, newest first, strictly older than the cursor.
    /// `NotFound` when the cursor names no row of this bundle.
    async fn stock_ledger(
        &self,
        bundle: BundleId,
        page: &PageRequest<StockEntryId>,
    ) -> Result<Page<StockEntry>, StoreError>;
    /// Sets a bundle's description and the price in each given currency (the
    /// bundle must already be sold in it), with the audit entry, in one
    /// transaction. `NotFound` when there is no such bundle.
    async fn update_bundle(
        &self,
        bundle: BundleId,
        edit: BundleEdit,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// Disables a bundle at `at` (`Some`) or enables it (`None`), with the audit
    /// entry, in one transaction. `NotFound` when there is no such bundle.
    async fn set_bundle_disabled(
        &self,
        bundle: BundleId,
        at: Option<OffsetDateTime>,
        audit: AuditEntry,
    ) -> Result<(), StoreError>;
    /// Inserts or updates every item in one transaction (idempotent: ids are stable).
    /// The audit entry, when given, is written in the same transaction with
    /// the summary's counts added.
    async fn import(
        &self,
        catalogue: &Catalogue,
        at: OffsetDateTime,
        audit: Option<AuditEntry>,
    ) -> Result<ImportSummary, StoreError>;
}
