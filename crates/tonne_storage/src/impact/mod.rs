//! The impact domain's storage: the daily figures it reads (kept by the order
//! and estimate stores, see [`rollups`]), an account's completed orders, and
//! sustainability pages.

mod completed;
mod figures;
mod pages;
pub(crate) mod rollups;
mod span;

use async_trait::async_trait;
use diesel::prelude::*;
use time::Date;
use tonne_impact::ports::{
    Basis, BundleDay, BundleTotal, EstimateDay, ImpactRepository, MonthTotal, ProjectSum,
};
use tonne_impact::{CompletedOrder, DateRange, PageWriteError, Slug, SustainabilityPage};
use tonne_kernel::{AccountId, AccountMode, StoreError};

use crate::db::error::store_error;
use crate::db::{Db, first_row};
use crate::schema::sustainability_pages;
use completed::completed_orders;
use figures::{bundle_day, bundle_rows, bundle_totals, estimate_days, month_totals, project_sums};
use pages::PageRow;
use rollups::day_text;
use span::days;

/// The impact domain's figures and pages on either backend.
#[derive(Debug, Clone)]
pub struct ImpactStore {
    db: Db,
}

impl ImpactStore {
    /// A repository over a pool.
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[async_trait]
impl ImpactRepository for ImpactStore {
    async fn bundle_days(
        &self,
        account: AccountId,
        from: Option<Date>,
        through: Date,
        basis: Basis,
    ) -> Result<Vec<BundleDay>, StoreError> {
        let account = account.to_string();
        let (from, through) = (day_text(from.unwrap_or(Date::MIN)), day_text(through));
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    bundle_rows(conn, &account, (&from, &through), basis)
                        .await?
                        .into_iter()
                        .map(|row| bundle_day(row, basis))
                        .collect()
                })
            })
            .await
            .map_err(|e| store_error(e, "reading orders per day and bundle"))
    }

    async fn bundle_totals(
        &self,
        account: AccountId,
        from: Option<Date>,
        through: Date,
        basis: Basis,
    ) -> Result<Vec<BundleTotal>, StoreError> {
        let account = account.to_string();
        let from = from.unwrap_or(Date::MIN);
        self.db
            .query(move |conn| {
                Box::pin(async move { bundle_totals(conn, &account, (from, through), basis).await })
            })
            .await
            .map_err(|e| store_error(e, "reading orders per bundle"))
    }

    async fn month_totals(
        &self,
        account: AccountId,
        basis: Basis,
    ) -> Result<Vec<MonthTotal>, StoreError> {
        let account = account.to_string();
        self.db
            .query(move |conn| Box::pin(async move { month_totals(conn, &account, basis).await }))
            .await
            .map_err(|e| store_error(e, "reading orders per month"))
    }

    async fn project_sums(
        &self,
        account: AccountId,
        range: Option<DateRange>,
        basis: Basis,
    ) -> Result<Vec<ProjectSum>, StoreError> {
        let account = account.to_string();
        let (from, through) = range.map_or((Date::MIN, Date::MAX), |r| (r.from(), r.through()));
        self.db
            .query(move |conn| {
                Box::pin(async move { project_sums(conn, &account, (from, through), basis).await })
            })
            .await
            .map_err(|e| store_error(e, "reading orders per project"))
    }

    async fn estimate_days(
        &self,
        accounts: Vec<AccountId>,
        range: DateRange,
    ) -> Result<Vec<EstimateDay>, StoreError> {
        let accounts: Vec<String> = accounts.iter().map(ToString::to_string).collect();
        let (from, through) = days(Some(range));
        self.db
            .query(move |conn| {
                Box::pin(async move { estimate_days(conn, &accounts, (&from, &through)).await })
            })
            .await
            .map_err(|e| store_error(e, "reading estimates per day and kind"))
    }

    async fn completed_orders(
        &self,
        account: AccountId,
        limit: u32,
    ) -> Result<Vec<CompletedOrder>, StoreError> {
        let account = account.to_string();
        self.db
            .query(move |conn| {
                Box::pin(async move { completed_orders(conn, &account, limit).await })
            })
            .await
            .map_err(|e| store_error(e, "reading an account's completed orders"))
    }

    async fn page(&self, account: AccountId) -> Result<Option<SustainabilityPage>, StoreError> {
        let account = account.to_string();
        let rows = load!(self.db, (account) => sustainability_pages::table
            .find(account)
            .select(PageRow::as_select())
            .limit(1))
        .await;
        first_row(rows, PageRow::into_domain)
            .map_err(|e| store_error(e, "reading a sustainability page"))
    }

    async fn page_by_slug(
        &self,
        mode: AccountMode,
        slug: &Slug,
    ) -> Result<Option<SustainabilityPage>, StoreError> {
        let slug = slug.as_str().to_owned();
        let mode = mode.as_str();
        let rows = load!(self.db, (mode, slug) => sustainability_pages::table
            .filter(sustainability_pages::mode.eq(mode))
            .filter(sustainability_pages::slug.eq(slug))
            .select(PageRow::as_select())
            .limit(1))
        .await;
        first_row(rows, PageRow::into_domain)
            .map_err(|e| store_error(e, "reading a sustainability page by slug"))
    }

    async fn save_page(
        &self,
        page: &SustainabilityPage,
        create: bool,
    ) -> Result<(), PageWriteError> {
        let row = PageRow::from_domain(page);
        self.db
            .transaction(move |conn| {
                Box::pin(async move {
                    if create {
                        pages::create(conn, &row).await
                    } else {
                        pages::update(conn, &row).await
                    }
                })
            })
            .await
            .map_err(pages::write_error)
    }
}
