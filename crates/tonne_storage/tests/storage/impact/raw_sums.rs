//! The raw order and estimate tables summed directly, and the impact store's
//! rolled-up figures to compare them with.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use time::Date;
use tonne_impact::DateRange;
use tonne_impact::ports::{Basis, ImpactRepository};
use tonne_kernel::AccountId;
use tonne_ordering::{BundleId, ProjectId};
use tonne_storage::{Conn, ImpactStore};
use tonne_test_support::TestDb;

// ---- the raw tables, summed directly ----

#[derive(QueryableByName)]
struct RawBundle {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = Text)]
    bundle_id: String,
    #[diesel(sql_type = BigInt)]
    grams: i64,
    #[diesel(sql_type = BigInt)]
    minor: i64,
}

#[derive(QueryableByName)]
struct RawProject {
    #[diesel(sql_type = Text)]
    project_id: String,
    #[diesel(sql_type = BigInt)]
    grams: i64,
    #[diesel(sql_type = BigInt)]
    minor: i64,
}

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct RawEstimates {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    grams: i64,
}

fn condition(basis: Basis) -> &'static str {
    match basis {
        Basis::Placed => "o.status NOT IN ('cancelled', 'failed')",
        Basis::Completed => "o.status = 'complete'",
    }
}

/// Runs `sql` with three text parameters (`$1`…`$3`, `?` on SQLite).
pub(super) async fn raw<R>(t: &TestDb, sql: String, params: [String; 3]) -> Vec<R>
where
    R: QueryableByName<diesel::pg::Pg> + QueryableByName<diesel::sqlite::Sqlite> + Send + 'static,
{
    t.db()
        .query(move |conn| {
            Box::pin(async move {
                let [a, b, c] = params;
                let sql = match conn {
                    Conn::Pg(_) => sql,
                    Conn::Sqlite(_) => sql.replace("$1", "?").replace("$2", "?").replace("$3", "?"),
                };
                let query = diesel::sql_query(sql)
                    .bind::<Text, _>(a)
                    .bind::<Text, _>(b)
                    .bind::<Text, _>(c);
                match conn {
                    Conn::Pg(conn) => diesel_async::RunQueryDsl::load(query, &mut **conn).await,
                    Conn::Sqlite(conn) => diesel_async::RunQueryDsl::load(query, &mut **conn).await,
                }
            })
        })
        .await
        .unwrap()
}

fn day_param(day: Date) -> String {
    day.to_string()
}

fn parse_day(day: &str) -> Date {
    Date::parse(
        day,
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .unwrap()
}

/// (day, bundle, grams, minor) of the account's order lines, by `basis`.
pub(super) async fn raw_bundles(
    t: &TestDb,
    account: AccountId,
    (from, through): (Date, Date),
    basis: Basis,
) -> Vec<(Date, BundleId, i64, i64)> {
    let sql = format!(
        "SELECT substr(CAST(o.created_at AS TEXT), 1, 10) AS day, l.bundle_id AS bundle_id, \
         CAST(SUM(l.quantity_grams) AS BIGINT) AS grams, \
         CAST(SUM(l.offset_cost_minor) AS BIGINT) AS minor \
         FROM orders o JOIN order_lines l ON l.order_id = o.id \
         WHERE o.account_id = $1 AND substr(CAST(o.created_at AS TEXT), 1, 10) >= $2 \
         AND substr(CAST(o.created_at AS TEXT), 1, 10) <= $3 AND {} \
         GROUP BY substr(CAST(o.created_at AS TEXT), 1, 10), l.bundle_id \
         ORDER BY 1, 2",
        condition(basis)
    );
    let params = [account.to_string(), day_param(from), day_param(through)];
    raw::<RawBundle>(t, sql, params)
        .await
        .into_iter()
        .map(|r| {
            let day = parse_day(&r.day);
            (day, r.bundle_id.parse().unwrap(), r.grams, r.minor)
        })
        .collect()
}

/// (project, grams, minor) of the account's order projects, by `basis`.
pub(super) async fn raw_projects(
    t: &TestDb,
    account: AccountId,
    (from, through): (Date, Date),
    basis: Basis,
) -> Vec<(ProjectId, i64, i64)> {
    let sql = format!(
        "SELECT p.project_id AS project_id, CAST(SUM(p.quantity_grams) AS BIGINT) AS grams, \
         CAST(SUM(p.offset_cost_minor) AS BIGINT) AS minor \
         FROM orders o JOIN order_projects p ON p.order_id = o.id \
         WHERE o.account_id = $1 AND substr(CAST(o.created_at AS TEXT), 1, 10) >= $2 \
         AND substr(CAST(o.created_at AS TEXT), 1, 10) <= $3 AND {} \
         GROUP BY p.project_id ORDER BY p.project_id",
        condition(basis)
    );
    let params = [account.to_string(), day_param(from), day_param(through)];
    raw::<RawProject>(t, sql, params)
        .await
        .into_iter()
        .map(|r| (r.project_id.parse().unwrap(), r.grams, r.minor))
        .collect()
}

pub(super) async fn rolled_bundles(
    impact: &ImpactStore,
    account: AccountId,
    from: Option<Date>,
    through: Date,
    basis: Basis,
) -> Vec<(Date, BundleId, i64, i64)> {
    impact
        .bundle_days(account, from, through, basis)
        .await
        .unwrap()
        .into_iter()
        .map(|d| (d.day, d.bundle_id, d.quantity.grams(), d.value_minor))
        .collect()
}

pub(super) async fn rolled_projects(
    impact: &ImpactStore,
    account: AccountId,
    range: Option<DateRange>,
    basis: Basis,
) -> Vec<(ProjectId, i64, i64)> {
    impact
        .project_sums(account, range, basis)
        .await
        .unwrap()
        .into_iter()
        .map(|p| (p.project_id, p.quantity.grams(), p.value_minor))
        .collect()
}

/// (day, kind, count, grams) of the accounts' estimates, summed.
pub(super) async fn raw_estimates(
    t: &TestDb,
    accounts: [AccountId; 2],
    (from, through): (Date, Date),
) -> Vec<(Date, String, u64, i64)> {
    let sql = "SELECT substr(CAST(created_at AS TEXT), 1, 10) AS day, kind, \
               CAST(COUNT(*) AS BIGINT) AS n, CAST(COALESCE(SUM(mass_grams), 0) AS BIGINT) AS grams \
               FROM estimates WHERE account_id IN ($1, $2) \
               AND substr(CAST(created_at AS TEXT), 1, 10) >= $3 GROUP BY 1, 2 ORDER BY 1, 2"
        .to_owned();
    let params = [
        accounts[0].to_string(),
        accounts[1].to_string(),
        day_param(from),
    ];
    raw::<RawEstimates>(t, sql, params)
        .await
        .into_iter()
        .map(|r| {
            let day = parse_day(&r.day);
            (day, r.kind, u64::try_from(r.n).unwrap(), r.grams)
        })
        .filter(|(day, ..)| *day <= through)
        .collect()
}

pub(super) async fn rolled_estimates(
    impact: &ImpactStore,
    accounts: Vec<AccountId>,
    range: DateRange,
) -> Vec<(Date, String, u64, i64)> {
    impact
        .estimate_days(accounts, range)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.day, e.kind, e.count, e.mass.grams()))
        .collect()
}
