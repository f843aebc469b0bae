//! The figures the impact domain reads, summed in the database: per bundle
//! by day and in total, per month, per project, estimates per day.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::RunQueryDsl;
use time::Date;
use tonne_impact::ports::{Basis, BundleDay, BundleTotal, EstimateDay, MonthTotal, ProjectSum};
use tonne_kernel::Mass;
use tonne_ordering::{BundleId, ProjectId};

use super::span::span;
use crate::db::{Conn, sqlite_placeholders};
use crate::mapping::parse_id;
use crate::schema::{
    estimate_daily_counts, order_daily_bundles, order_daily_projects, order_monthly_bundles,
    order_monthly_projects,
};
use crate::stats::day_of;

/// A row of `order_daily_bundles`: day, bundle, name, then placed and
/// completed grams and minor units.
type BundleRow = (String, String, String, i64, i64, i64, i64);

pub(super) async fn bundle_rows(
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

pub(super) fn bundle_day(row: BundleRow, basis: Basis) -> QueryResult<BundleDay> {
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
pub(super) async fn bundle_totals(
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
pub(super) async fn month_totals(
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
pub(super) async fn project_sums(
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

pub(super) async fn estimate_days(
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
