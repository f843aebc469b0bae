//! The impact domain's storage: the daily figures it reads (kept by the order
//! and estimate stores, see [`rollups`]), an account's completed orders, and
//! sustainability pages.

mod pages;
pub(crate) mod rollups;

use async_trait::async_trait;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::RunQueryDsl;
use time::{Date, PrimitiveDateTime};
use tonne_impact::ports::{
    Basis, BundleDay, BundleTotal, EstimateDay, ImpactRepository, MonthTotal, ProjectSum,
};
use tonne_impact::{CompletedOrder, DateRange, PageWriteError, Slug, SustainabilityPage};
use tonne_kernel::{AccountId, AccountMode, Mass, StoreError};
use tonne_ordering::{BundleId, OrderId, OrderStatus, ProjectId};

use crate::db::error::store_error;
use crate::db::{Conn, Db, sqlite_placeholders};
use crate::mapping::{from_sql_time, parse_id};
use crate::schema::{
    estimate_daily_counts, order_daily_bundles, order_daily_projects, order_monthly_bundles,
    order_monthly_projects, orders, sustainability_pages,
};
use crate::stats::day_of;
use pages::PageRow;
use rollups::{day_text, month_text};

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

/// A span of days cut where the monthly rows can answer: the whole months
/// inside it (`YYYY-MM`, inclusive) and the days of the partial months at
/// either end (`YYYY-MM-DD`, inclusive).
#[derive(Debug, Default, PartialEq, Eq)]
struct Span {
    months: Option<(String, String)>,
    days: Vec<(String, String)>,
}

fn span(from: Date, through: Date) -> Span {
    let text = |a: Date, b: Date| (day_text(a), day_text(b));
    // The first day of a whole month inside, and the last.
    let first = if from.day() == 1 {
        Some(from)
    } else {
        next_month(from)
    };
    let last = match through.next_day() {
        Some(after) if after.day() == 1 => Some(through),
        Some(_) => through.replace_day(1).ok().and_then(Date::previous_day),
        None => Some(through),
    };
    match (first, last) {
        (Some(first), Some(last)) if first <= last => {
            let mut days = Vec::new();
            if let Some(eve) = first.previous_day().filter(|eve| from <= *eve) {
                days.push(text(from, eve));
            }
            if let Some(next) = last.next_day().filter(|next| *next <= through) {
                days.push(text(next, through));
            }
            Span {
                months: Some((month_text(first), month_text(last))),
                days,
            }
        }
        _ => Span {
            months: None,
            days: vec![text(from, through)],
        },
    }
}

/// The first day of the month after `day`'s.
fn next_month(day: Date) -> Option<Date> {
    let (year, month) = match day.month() {
        time::Month::December => (day.year().checked_add(1)?, time::Month::January),
        m => (day.year(), m.next()),
    };
    Date::from_calendar_date(year, month, 1).ok()
}

/// A row of `order_daily_bundles`: day, bundle, name, then placed and
/// completed grams and minor units.
type BundleRow = (String, String, String, i64, i64, i64, i64);

async fn bundle_rows(
    conn: &mut Conn,
    account: &str,
    (from, through): (&str, &str),
    basis: Basis,
) -> QueryResult<Vec<BundleRow>> {
    use order_daily_bundles::dsl as b;
    on!(conn, |c| {
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
            Basis::Placed => {
                q.filter(b::placed_grams.ne(0).or(b::placed_minor.ne(0)))
                    .load(c)
                    .await
            }
            Basis::Completed => {
                q.filter(b::completed_grams.ne(0).or(b::completed_minor.ne(0)))
                    .load(c)
                    .await
            }
        }
    })
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

/// One bundle's sums from one table: bundle, name, newest day (or month's
/// first day), grams, minor units.
type TotalRow = (String, String, Option<String>, i64, i64);

/// The account's figures per bundle over the days, summed in the database —
/// whole months from the monthly rows, the partial months' days from the
/// daily ones — one row per bundle and name it had (a renamed bundle has
/// several), merged here, the newest name kept.
async fn bundle_totals(
    conn: &mut Conn,
    account: &str,
    (from, through): (Date, Date),
    basis: Basis,
) -> QueryResult<Vec<BundleTotal>> {
    let (grams, minor) = sums(basis);
    let cut = span(from, through);
    let mut rows: Vec<TotalRow> = Vec::new();
    if let Some((first, last)) = &cut.months {
        use order_monthly_bundles::dsl as m;
        let monthly: Vec<TotalRow> = on!(&mut *conn, |c| m::order_monthly_bundles
            .filter(m::account_id.eq(account))
            .filter(m::month.ge(first))
            .filter(m::month.le(last))
            .group_by((m::bundle_id, m::bundle_name))
            .select((
                m::bundle_id,
                m::bundle_name,
                diesel::dsl::max(m::month),
                diesel::dsl::sql::<BigInt>(grams),
                diesel::dsl::sql::<BigInt>(minor),
            ))
            .load(c)
            .await)?;
        rows.extend(
            monthly
                .into_iter()
                .map(|(b, n, month, g, mi)| (b, n, month.map(|m| format!("{m}-01")), g, mi)),
        );
    }
    for (first, last) in &cut.days {
        use order_daily_bundles::dsl as b;
        let daily: Vec<TotalRow> = on!(&mut *conn, |c| b::order_daily_bundles
            .filter(b::account_id.eq(account))
            .filter(b::day.ge(first))
            .filter(b::day.le(last))
            .group_by((b::bundle_id, b::bundle_name))
            .select((
                b::bundle_id,
                b::bundle_name,
                diesel::dsl::max(b::day),
                diesel::dsl::sql::<BigInt>(grams),
                diesel::dsl::sql::<BigInt>(minor),
            ))
            .load(c)
            .await)?;
        rows.extend(daily);
    }
    let mut out: Vec<BundleTotal> = Vec::new();
    for (bundle, name, last, grams, minor) in rows {
        let Some(last) = last else { continue };
        let id = parse_id::<BundleId>("bundle id", &bundle)?;
        let last = day_of(&last)?;
        match out.iter_mut().find(|t| t.bundle_id == id) {
            Some(t) => {
                t.quantity = Mass::from_grams(t.quantity.grams().saturating_add(grams));
                t.value_minor = t.value_minor.saturating_add(minor);
                if last > t.last_day {
                    t.last_day = last;
                    t.bundle_name = name;
                }
            }
            None => out.push(BundleTotal {
                bundle_id: id,
                bundle_name: name,
                last_day: last,
                quantity: Mass::from_grams(grams),
                value_minor: minor,
            }),
        }
    }
    out.retain(|t| (t.quantity.grams(), t.value_minor) != (0, 0));
    out.sort_by_key(|t| t.bundle_id.to_string());
    Ok(out)
}

#[derive(QueryableByName)]
struct MonthRow {
    #[diesel(sql_type = Text)]
    month: String,
    #[diesel(sql_type = BigInt)]
    grams: i64,
    #[diesel(sql_type = BigInt)]
    minor: i64,
}

/// The account's figures per calendar month, from the monthly rows.
async fn month_totals(
    conn: &mut Conn,
    account: &str,
    basis: Basis,
) -> QueryResult<Vec<MonthTotal>> {
    let (grams, minor) = sums(basis);
    let sql = format!(
        "SELECT month, {grams} AS grams, {minor} AS minor \
         FROM order_monthly_bundles WHERE account_id = $1 GROUP BY month ORDER BY month"
    );
    let rows: Vec<MonthRow> = match conn {
        Conn::Pg(c) => {
            diesel::sql_query(sql)
                .bind::<Text, _>(account)
                .load(&mut **c)
                .await?
        }
        Conn::Sqlite(c) => {
            diesel::sql_query(sqlite_placeholders(&sql))
                .bind::<Text, _>(account)
                .load(&mut **c)
                .await?
        }
    };
    rows.into_iter()
        .filter(|r| (r.grams, r.minor) != (0, 0))
        .map(|r| {
            Ok(MonthTotal {
                month: day_of(&format!("{}-01", r.month))?,
                quantity: Mass::from_grams(r.grams),
                value_minor: r.minor,
            })
        })
        .collect()
}

/// The account's figures per project over the days — whole months from the
/// monthly rows, the partial months' days from the daily ones.
async fn project_sums(
    conn: &mut Conn,
    account: &str,
    (from, through): (Date, Date),
    basis: Basis,
) -> QueryResult<Vec<ProjectSum>> {
    let (grams, minor) = sums(basis);
    let cut = span(from, through);
    let mut rows: Vec<(String, i64, i64)> = Vec::new();
    if let Some((first, last)) = &cut.months {
        use order_monthly_projects::dsl as m;
        rows.extend(on!(&mut *conn, |c| m::order_monthly_projects
            .filter(m::account_id.eq(account))
            .filter(m::month.ge(first))
            .filter(m::month.le(last))
            .group_by(m::project_id)
            .select((
                m::project_id,
                diesel::dsl::sql::<BigInt>(grams),
                diesel::dsl::sql::<BigInt>(minor),
            ))
            .load::<(String, i64, i64)>(c)
            .await)?);
    }
    for (first, last) in &cut.days {
        use order_daily_projects::dsl as p;
        rows.extend(on!(&mut *conn, |c| p::order_daily_projects
            .filter(p::account_id.eq(account))
            .filter(p::day.ge(first))
            .filter(p::day.le(last))
            .group_by(p::project_id)
            .select((
                p::project_id,
                diesel::dsl::sql::<BigInt>(grams),
                diesel::dsl::sql::<BigInt>(minor),
            ))
            .load::<(String, i64, i64)>(c)
            .await)?);
    }
    let mut merged: std::collections::BTreeMap<String, (i64, i64)> = Default::default();
    for (project, grams, minor) in rows {
        let e = merged.entry(project).or_default();
        *e = (e.0.saturating_add(grams), e.1.saturating_add(minor));
    }
    merged
        .into_iter()
        .filter(|(_, figures)| *figures != (0, 0))
        .map(|(project, (grams, minor))| {
            Ok(ProjectSum {
                project_id: parse_id::<ProjectId>("project id", &project)?,
                quantity: Mass::from_grams(grams),
                value_minor: minor,
            })
        })
        .collect()
}

async fn estimate_days(
    conn: &mut Conn,
    accounts: &[String],
    (from, through): (&str, &str),
) -> QueryResult<Vec<EstimateDay>> {
    use estimate_daily_counts::dsl as e;
    let rows: Vec<(String, String, i64, i64)> = on!(conn, |c| e::estimate_daily_counts
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
        .load(c)
        .await)?;
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

async fn completed_orders(
    conn: &mut Conn,
    account: &str,
    limit: u32,
) -> QueryResult<Vec<CompletedOrder>> {
    let rows: Vec<(String, PrimitiveDateTime, i64)> = on!(conn, |c| orders::table
        .filter(orders::account_id.eq(account))
        .filter(orders::status.eq(OrderStatus::Complete.as_str()))
        .order((orders::created_at.desc(), orders::id.desc()))
        .limit(i64::from(limit))
        .select((orders::id, orders::created_at, orders::quantity_grams))
        .load(c)
        .await)?;
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
        self.db
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| sustainability_pages::table
                        .find(account)
                        .select(PageRow::as_select())
                        .first(c)
                        .await)
                    .optional()?
                    .map(PageRow::into_domain)
                    .transpose()
                })
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
            .query(move |conn| {
                Box::pin(async move {
                    on!(conn, |c| sustainability_pages::table
                        .filter(sustainability_pages::mode.eq(mode.as_str()))
                        .filter(sustainability_pages::slug.eq(slug))
                        .select(PageRow::as_select())
                        .first(c)
                        .await)
                    .optional()?
                    .map(PageRow::into_domain)
                    .transpose()
                })
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

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn days(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn a_span_reads_whole_months_and_the_days_around_them() {
        assert_eq!(
            span(date!(2026 - 01 - 15), date!(2026 - 04 - 10)),
            Span {
                months: Some(("2026-02".into(), "2026-03".into())),
                days: days(&[("2026-01-15", "2026-01-31"), ("2026-04-01", "2026-04-10")]),
            }
        );
        assert_eq!(
            span(date!(2026 - 02 - 01), date!(2026 - 02 - 28)),
            Span {
                months: Some(("2026-02".into(), "2026-02".into())),
                days: vec![],
            }
        );
        // Within one month, or across a boundary without a whole month: days only.
        assert_eq!(
            span(date!(2026 - 02 - 02), date!(2026 - 02 - 28)).months,
            None
        );
        assert_eq!(
            span(date!(2026 - 01 - 20), date!(2026 - 02 - 10)),
            Span {
                months: None,
                days: days(&[("2026-01-20", "2026-02-10")]),
            }
        );
        // Everything: whole months from the first one, the current month's days.
        let all = span(Date::MIN, date!(2026 - 11 - 26));
        assert_eq!(all.months.as_ref().map(|m| m.1.as_str()), Some("2026-10"));
        assert_eq!(all.days, days(&[("2026-11-01", "2026-11-26")]));
        assert_eq!(span(Date::MIN, Date::MAX).days, vec![]);
    }
}
