//! The impact domain's storage: the daily figures it reads (kept by the order
//! and estimate stores, see [`rollups`]), an account's completed orders, and
//! sustainability pages.

mod pages;
pub(crate) mod rollups;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use time::{Date, PrimitiveDateTime};
use tonne_impact::ports::{Basis, BundleDay, EstimateDay, ImpactRepository, ProjectSum};
use tonne_impact::{CompletedOrder, DateRange, PageWriteError, Slug, SustainabilityPage};
use tonne_kernel::{AccountId, AccountMode, Mass, StoreError};
use tonne_ordering::{BundleId, OrderId, OrderStatus, ProjectId};

use crate::db::{AnyConnection, Db};
use crate::error::store_error;
use crate::mapping::{from_sql_time, parse_id};
use crate::schema::{
    estimate_daily_counts, order_daily_bundles, order_daily_projects, orders, sustainability_pages,
};
use crate::stats::day_of;
use pages::PageRow;
use rollups::day_text;

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

/// The first and last day of `range` as stored, or every day when `None`.
fn days(range: Option<DateRange>) -> (String, String) {
    range.map_or_else(
        || (day_text(Date::MIN), day_text(Date::MAX)),
        |r| (day_text(r.from()), day_text(r.through())),
    )
}

/// A row of `order_daily_bundles`: day, bundle, name, then placed and
/// completed grams and minor units.
type BundleRow = (String, String, String, i64, i64, i64, i64);

fn bundle_rows(
    conn: &mut AnyConnection,
    account: &str,
    (from, through): (&str, &str),
    basis: Basis,
) -> QueryResult<Vec<BundleRow>> {
    use order_daily_bundles::dsl as b;
    let q = b::order_daily_bundles
        .filter(b::account_id.eq(account))
        .filter(b::day.ge(from))
        .filter(b::day.le(through))
        .select((
            b::day,
            b::bundle_id,
            b::bundle_name,
            b::placed_grams,
            b::placed_minor,
            b::completed_grams,
            b::completed_minor,
        ))
        .order((b::day.asc(), b::bundle_id.asc()));
    match basis {
        Basis::Placed => q
            .filter(b::placed_grams.ne(0).or(b::placed_minor.ne(0)))
            .load(conn),
        Basis::Completed => q
            .filter(b::completed_grams.ne(0).or(b::completed_minor.ne(0)))
            .load(conn),
    }
}

fn bundle_day(row: BundleRow, basis: Basis) -> QueryResult<BundleDay> {
    let (day, bundle, name, placed_grams, placed_minor, completed_grams, completed_minor) = row;
    let (grams, minor) = match basis {
        Basis::Placed => (placed_grams, placed_minor),
        Basis::Completed => (completed_grams, completed_minor),
    };
    Ok(BundleDay {
        day: day_of(&day)?,
        bundle_id: parse_id::<BundleId>("bundle id", &bundle)?,
        bundle_name: name,
        quantity: Mass::from_grams(grams),
        value_minor: minor,
    })
}

/// Sums of a figure column pair, as BIGINT on both backends.
fn sums(basis: Basis) -> (&'static str, &'static str) {
    match basis {
        Basis::Placed => (
            "CAST(COALESCE(SUM(placed_grams), 0) AS BIGINT)",
            "CAST(COALESCE(SUM(placed_minor), 0) AS BIGINT)",
        ),
        Basis::Completed => (
            "CAST(COALESCE(SUM(completed_grams), 0) AS BIGINT)",
            "CAST(COALESCE(SUM(completed_minor), 0) AS BIGINT)",
        ),
    }
}

fn project_sums(
    conn: &mut AnyConnection,
    account: &str,
    (from, through): (&str, &str),
    basis: Basis,
) -> QueryResult<Vec<ProjectSum>> {
    use order_daily_projects::dsl as p;
    let (grams, minor) = sums(basis);
    let rows: Vec<(String, i64, i64)> = p::order_daily_projects
        .filter(p::account_id.eq(account))
        .filter(p::day.ge(from))
        .filter(p::day.le(through))
        .group_by(p::project_id)
        .select((
            p::project_id,
            diesel::dsl::sql::<BigInt>(grams),
            diesel::dsl::sql::<BigInt>(minor),
        ))
        .order(p::project_id.asc())
        .load(conn)?;
    rows.into_iter()
        .filter(|(_, grams, minor)| (*grams, *minor) != (0, 0))
        .map(|(project, grams, minor)| {
            Ok(ProjectSum {
                project_id: parse_id::<ProjectId>("project id", &project)?,
                quantity: Mass::from_grams(grams),
                value_minor: minor,
            })
        })
        .collect()
}

fn estimate_days(
    conn: &mut AnyConnection,
    accounts: &[String],
    (from, through): (&str, &str),
) -> QueryResult<Vec<EstimateDay>> {
    use estimate_daily_counts::dsl as e;
    let rows: Vec<(String, String, i64, i64)> = e::estimate_daily_counts
        .filter(e::account_id.eq_any(accounts))
        .filter(e::day.ge(from))
        .filter(e::day.le(through))
        .group_by((e::day, e::kind))
        .select((
            e::day,
            e::kind,
            diesel::dsl::sql::<BigInt>("CAST(COALESCE(SUM(estimates), 0) AS BIGINT)"),
            diesel::dsl::sql::<BigInt>("CAST(COALESCE(SUM(mass_grams), 0) AS BIGINT)"),
        ))
        .order((e::day.asc(), e::kind.asc()))
        .load(conn)?;
    rows.into_iter()
        .filter(|(_, _, count, grams)| (*count, *grams) != (0, 0))
        .map(|(day, kind, count, grams)| {
            Ok(EstimateDay {
                day: day_of(&day)?,
                kind,
                count: u64::try_from(count).unwrap_or(0),
                mass: Mass::from_grams(grams),
            })
        })
        .collect()
}

fn completed_orders(
    conn: &mut AnyConnection,
    account: &str,
    limit: u32,
) -> QueryResult<Vec<CompletedOrder>> {
    let rows: Vec<(String, PrimitiveDateTime, i64)> = orders::table
        .filter(orders::account_id.eq(account))
        .filter(orders::status.eq(OrderStatus::Complete.as_str()))
        .order((orders::created_at.desc(), orders::id.desc()))
        .limit(i64::from(limit))
        .select((orders::id, orders::created_at, orders::quantity_grams))
        .load(conn)?;
    rows.into_iter()
        .map(|(id, created_at, grams)| {
            Ok(CompletedOrder {
                id: parse_id::<OrderId>("order id", &id)?,
                created_at: from_sql_time(created_at),
                quantity: Mass::from_grams(grams),
            })
        })
        .collect()
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
            .read(move |conn| {
                bundle_rows(conn, &account, (&from, &through), basis)?
                    .into_iter()
                    .map(|row| bundle_day(row, basis))
                    .collect()
            })
            .await
            .map_err(|e| store_error(e, "reading orders per day and bundle"))
    }

    async fn project_sums(
        &self,
        account: AccountId,
        range: Option<DateRange>,
        basis: Basis,
    ) -> Result<Vec<ProjectSum>, StoreError> {
        let account = account.to_string();
        let (from, through) = days(range);
        self.db
            .read(move |conn| project_sums(conn, &account, (&from, &through), basis))
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
            .read(move |conn| estimate_days(conn, &accounts, (&from, &through)))
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
            .read(move |conn| completed_orders(conn, &account, limit))
            .await
            .map_err(|e| store_error(e, "reading an account's completed orders"))
    }

    async fn page(&self, account: AccountId) -> Result<Option<SustainabilityPage>, StoreError> {
        let account = account.to_string();
        self.db
            .read(move |conn| {
                sustainability_pages::table
                    .find(account)
                    .select(PageRow::as_select())
                    .first(conn)
                    .optional()?
                    .map(PageRow::into_domain)
                    .transpose()
            })
            .await
            .map_err(|e| store_error(e, "reading a sustainability page"))
    }

    async fn page_by_slug(
        &self,
        mode: AccountMode,
        slug: &Slug,
    ) -> Result<Option<SustainabilityPage>, StoreError> {
        let slug = slug.as_str().to_owned();
        self.db
            .read(move |conn| {
                sustainability_pages::table
                    .filter(sustainability_pages::mode.eq(mode.as_str()))
                    .filter(sustainability_pages::slug.eq(slug))
                    .select(PageRow::as_select())
                    .first(conn)
                    .optional()?
                    .map(PageRow::into_domain)
                    .transpose()
            })
            .await
            .map_err(|e| store_error(e, "reading a sustainability page by slug"))
    }

    async fn save_page(
        &self,
        page: &SustainabilityPage,
        create: bool,
    ) -> Result<(), PageWriteError> {
        let row = PageRow::from_domain(page);
        self.db
            .write(move |conn| {
                if create {
                    pages::create(conn, &row)
                } else {
                    pages::update(conn, &row)
                }
            })
            .await
            .map_err(pages::write_error)
    }
}
