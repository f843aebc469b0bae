//! The catalogue on either backend.

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, AuditEntry, Cursor, Page, PageRequest, StoreError};
use tonne_ordering::ports::{Catalogue, CatalogueRepository, ImportSummary, Visibility};
use tonne_ordering::{
    Bundle, BundleEdit, BundleId, BundlePortfolio, BundlePortfolioId, Project, ProjectId,
    StockEntry, StockEntryId,
};

use crate::db::error::store_error;
use crate::db::{Db, announce, channel};
use crate::mapping::to_sql_time;
use crate::schema::{account_bundle_selections, accounts, bundle_portfolios, bundles, projects};

/// The statements that read bundles and an account's selection, written once
/// for both ways of running them (inside `on!` in a unit of work, and with
/// `load!`).
/// Each takes what it filters on by value or by reference.
macro_rules! bundles_by_id {
    ($ids:expr) => {
        crate::schema::bundles::table
            .filter(crate::schema::bundles::id.eq_any($ids))
            .select(crate::catalogue::rows::BundleRow::as_select())
    };
}

/// Bundles' prices as `PriceRow`s.
macro_rules! prices_of_bundles {
    ($ids:expr) => {{
        use crate::schema::bundle_prices as p;
        p::table
            .filter(p::bundle_id.eq_any($ids))
            .order((p::bundle_id.asc(), p::currency.asc()))
            .select((p::bundle_id, p::currency, p::unit_price_minor))
    }};
}

/// Bundles' projects as `MemberRow`s, in membership order.
macro_rules! projects_of_bundles {
    ($ids:expr) => {{
        use crate::schema::bundle_projects as m;
        m::table
            .filter(m::bundle_id.eq_any($ids))
            .order((m::bundle_id.asc(), m::position.asc()))
            .select((m::bundle_id, m::project_id))
    }};
}

/// A page of `projects` or `bundles` (their rows loaded by `$load`) by id,
/// those enabled and, if the visibility says since when, those disabled
/// since.
macro_rules! visible_page {
    ($db:expr, $table:ident, $row:ty, $load:ident, $visibility:expr, $page:expr, $what:literal) => {{
        let (after, limit) = crate::mapping::keyset($page);
        let since = $visibility.disabled_since.map(to_sql_time);
        $db.query(move |conn| {
            Box::pin(async move {
                let rows: Vec<$row> = on!(&mut *conn, |c| {
                    let mut q = $table::table.select(<$row>::as_select()).into_boxed();
                    q = match since {
                        Some(since) => {
                            q.filter($table::disabled.eq(false).or($table::disabled_at.ge(since)))
                        }
                        None => q.filter($table::disabled.eq(false)),
                    };
                    if let Some(after) = &after {
                        q = q.filter($table::id.gt(after.clone()));
                    }
                    q.order($table::id.asc())
                        .limit(i64::from(limit.get()) + 1)
                        .load(c)
                        .await
                })?;
                Ok(Page::from_overfetch($load(conn, rows).await?, limit))
            })
        })
        .await
        .map_err(|e| store_error(e, $what))
    }};
}

mod import;
mod perimeters;
mod rows;
mod selection;

use rows::{BundleRow, ProjectRow, load_bundles, load_portfolios, load_projects};

/// Projects, bundles, prices and memberships on either backend.
#[derive(Debug, Clone)]
pub struct CatalogueStore {
    db: Db,
}

/// Which projects to read.
enum Projects {
    Id(String),
    Slug(String),
    Ids(Vec<String>),
}

impl CatalogueStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The projects `which` names (`what` says what for, in an error).
    async fn read_projects(
        &self,
        which: Projects,
        what: &'static str,
    ) -> Result<Vec<Project>, StoreError> {
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<ProjectRow> = on!(&mut *conn, |c| {
                        let q = projects::table.select(ProjectRow::as_select()).into_boxed();
                        match &which {
                            Projects::Id(id) => q.filter(projects::id.eq(id)),
                            Projects::Slug(slug) => q.filter(projects::slug.eq(slug)),
                            Projects::Ids(ids) => q.filter(projects::id.eq_any(ids)),
                        }
                        .load(c)
                        .await
                    })?;
                    load_projects(conn, rows).await
                })
            })
            .await
            .map_err(|e| store_error(e, what))
    }

    /// The portfolio of id `id`, or every portfolio by identifier.
    async fn read_portfolios(
        &self,
        id: Option<String>,
        what: &'static str,
    ) -> Result<Vec<BundlePortfolio>, StoreError> {
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<(String, String, String)> = on!(&mut *conn, |c| {
                        let mut q = bundle_portfolios::table
                            .order(bundle_portfolios::identifier.asc())
                            .select((
                                bundle_portfolios::id,
                                bundle_portfolios::identifier,
                                bundle_portfolios::label,
                            ))
                            .into_boxed();
                        if let Some(id) = &id {
                            q = q.filter(bundle_portfolios::id.eq(id));
                        }
                        q.load(c).await
                    })?;
                    load_portfolios(conn, rows).await
                })
            })
            .await
            .map_err(|e| store_error(e, what))
    }
}

#[async_trait]
impl CatalogueRepository for CatalogueStore {
    async fn list_projects(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Project>, StoreError> {
        visible_page!(
            self.db,
            projects,
            ProjectRow,
            load_projects,
            visibility,
            page,
            "listing projects"
        )
    }

    async fn project(&self, id: ProjectId) -> Result<Option<Project>, StoreError> {
        let read = self.read_projects(Projects::Id(id.to_string()), "reading a project");
        Ok(read.await?.into_iter().next())
    }

    async fn project_by_slug(&self, slug: &str) -> Result<Option<Project>, StoreError> {
        let read = self.read_projects(Projects::Slug(slug.to_owned()), "reading a project by slug");
        Ok(read.await?.into_iter().next())
    }

    async fn perimeter(
        &self,
        id: ProjectId,
    ) -> Result<Option<tonne_ordering::Perimeter>, StoreError> {
        self.db
            .query(move |conn| Box::pin(async move { perimeters::read(conn, id).await }))
            .await
            .map_err(|e| store_error(e, "reading a project's perimeter"))
    }

    async fn list_bundles(
        &self,
        visibility: Visibility,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Bundle>, StoreError> {
        visible_page!(
            self.db,
            bundles,
            BundleRow,
            load_bundles,
            visibility,
            page,
            "listing bundles"
        )
    }

    async fn projects(&self, ids: &[ProjectId]) -> Result<Vec<Project>, StoreError> {
        let ids = ids.iter().map(ToString::to_string).collect();
        self.read_projects(Projects::Ids(ids), "reading projects")
            .await
    }

    async fn bundles(&self, ids: &[BundleId]) -> Result<Vec<Bundle>, StoreError> {
        let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<BundleRow> =
                        on!(&mut *conn, |c| bundles_by_id!(&ids).load(c).await)?;
                    load_bundles(conn, rows).await
                })
            })
            .await
            .map_err(|e| store_error(e, "reading bundles"))
    }

    async fn default_selection(&self) -> Result<Vec<Bundle>, StoreError> {
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    let rows: Vec<BundleRow> = on!(&mut *conn, |c| bundles::table
                        .filter(bundles::default_share.is_not_null())
                        .filter(bundles::disabled.eq(false))
                        .order(bundles::id.asc())
                        .select(BundleRow::as_select())
                        .load(c)
                        .await)?;
                    load_bundles(conn, rows).await
                })
            })
            .await
            .map_err(|e| store_error(e, "reading the default selection"))
    }

    async fn account_selection(
        &self,
        account: AccountId,
    ) -> Result<Vec<(Bundle, u32)>, StoreError> {
        selection::of_account(&self.db, account.to_string())
            .await
            .map_err(|e| store_error(e, "reading an account's selection"))
    }

    async fn set_account_selection(
        &self,
        account: AccountId,
        selection: &[(BundleId, u32)],
        audit: Option<AuditEntry>,
    ) -> Result<(), StoreError> {
        let account = account.to_string();
        let changed = account.clone();
        let rows: Vec<(String, i32)> = selection
            .iter()
            .map(|(id, share)| (id.to_string(), i32::try_from(*share).unwrap_or(0)))
            .collect();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    on!(&mut *conn, |c| diesel::delete(
                        account_bundle_selections::table
                            .filter(account_bundle_selections::account_id.eq(&account)),
                    )
                    .execute(c)
                    .await)?;
                    on!(&mut *conn, |c| diesel::update(
                        accounts::table.find(&account)
                    )
                    .set(accounts::bundle_portfolio_id.eq(None::<String>))
                    .execute(c)
                    .await)?;
                    announce(&mut *conn, channel::ACCOUNT_CHANGED, &account).await?;
                    for (position, (bundle, share)) in rows.iter().enumerate() {
                        on!(&mut *conn, |c| diesel::insert_into(
                            account_bundle_selections::table
                        )
                        .values((
                            account_bundle_selections::account_id.eq(&account),
                            account_bundle_selections::bundle_id.eq(bundle),
                            account_bundle_selections::position
                                .eq(i32::try_from(position).unwrap_or(i32::MAX)),
                            account_bundle_selections::share.eq(share),
                        ))
                        .execute(c)
                        .await)?;
                    }
                    crate::audit::record(conn, &audit).await
                })
            })
            .await
            .map_err(|e| store_error(e, "setting an account's selection"))?;
        self.db.announced(channel::ACCOUNT_CHANGED, &changed);
        Ok(())
    }

    async fn portfolios(&self) -> Result<Vec<BundlePortfolio>, StoreError> {
        self.read_portfolios(None, "listing bundle portfolios")
            .await
    }

    async fn portfolio(
        &self,
        id: BundlePortfolioId,
    ) -> Result<Option<BundlePortfolio>, StoreError> {
        let read = self.read_portfolios(Some(id.to_string()), "reading a bundle portfolio");
        Ok(read.await?.into_iter().next())
    }

    async fn set_account_portfolio(
        &self,
        account: AccountId,
        portfolio: BundlePortfolioId,
    ) -> Result<(), StoreError> {
        let account = account.to_string();
        let changed = account.clone();
        let portfolio = portfolio.to_string();
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    let updated = on!(&mut *conn, |c| diesel::update(
                        accounts::table.find(&account)
                    )
                    .set(accounts::bundle_portfolio_id.eq(Some(&portfolio)))
                    .execute(c)
                    .await)?;
                    if updated == 0 {
                        return Err(DieselError::NotFound);
                    }
                    on!(&mut *conn, |c| diesel::delete(
                        account_bundle_selections::table
                            .filter(account_bundle_selections::account_id.eq(&account)),
                    )
                    .execute(c)
                    .await)?;
                    announce(conn, channel::ACCOUNT_CHANGED, &account).await
                })
            })
            .await
            .map_err(|e| store_error(e, "setting an account's bundle portfolio"))?;
        self.db.announced(channel::ACCOUNT_CHANGED, &changed);
        Ok(())
    }

    async fn adjust_stock(
        &self,
        entry: StockEntry,
        audit: AuditEntry,
    ) -> Result<Option<StockEntry>, StoreError> {
        crate::stock::adjust(&self.db, entry, audit).await
    }

    async fn stock_ledger(
        &self,
        bundle: BundleId,
        page: &PageRequest<StockEntryId>,
    ) -> Result<Page<StockEntry>, StoreError> {
        crate::stock::ledger(&self.db, bundle, page).await
    }

    async fn update_bundle(
        &self,
        bundle: BundleId,
        edit: BundleEdit,
        at: OffsetDateTime,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        crate::stock::update(&self.db, bundle, edit, at, audit).await
    }

    async fn set_bundle_disabled(
        &self,
        bundle: BundleId,
        at: Option<OffsetDateTime>,
        audit: AuditEntry,
    ) -> Result<(), StoreError> {
        crate::stock::set_disabled(&self.db, bundle, at, audit).await
    }

    async fn is_empty(&self) -> Result<bool, StoreError> {
        self.db
            .query(|conn| {
                Box::pin(async move {
                    on!(conn, |c| diesel::select(diesel::dsl::not(
                        diesel::dsl::exists(bundles::table.select(bundles::id),)
                    ))
                    .get_result(c)
                    .await)
                })
            })
            .await
            .map_err(|e| store_error(e, "checking the catalogue"))
    }

    async fn import(
        &self,
        catalogue: &Catalogue,
        at: OffsetDateTime,
        audit: Option<AuditEntry>,
    ) -> Result<ImportSummary, StoreError> {
        import::import(&self.db, catalogue, at, audit).await
    }
}
