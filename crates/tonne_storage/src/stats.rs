//! Figures for the operator's overview, grouped in the database (one query
//! each, however many rows): live orders and tonnes per day and revenue per
//! currency, estimates per day, webhook attempts and failures.
//!
//! Days are UTC: the first ten characters of the timestamp as text, the same
//! on both backends. Bound parameters are written `$1`, and `?` for SQLite.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};
use diesel_async::RunQueryDsl;
use time::{Date, OffsetDateTime};
use tonne_kernel::{Currency, Mass, Money, StoreError};
use tonne_ordering::{DailyOrders, OrderStats};

use crate::db::error::{corrupt, store_error};
use crate::db::{Conn, Db, sqlite_placeholders};
use crate::mapping::to_sql_time;

const DAILY_ORDERS: &str = "SELECT substr(CAST(created_at AS TEXT), 1, 10) AS day, \
     COUNT(*) AS n, CAST(SUM(quantity_grams) AS BIGINT) AS grams \
     FROM orders WHERE mode = 'live' AND status NOT IN ('cancelled', 'failed') \
     AND created_at >= $1 GROUP BY 1 ORDER BY 1";

const REVENUE: &str = "SELECT currency AS code, CAST(SUM(total_cost_minor) AS BIGINT) AS minor \
     FROM orders WHERE mode = 'live' AND status NOT IN ('cancelled', 'failed') \
     AND created_at >= $1 GROUP BY currency ORDER BY currency";

const DAILY_ESTIMATES: &str = "SELECT substr(CAST(created_at AS TEXT), 1, 10) AS day, \
     COUNT(*) AS n, CAST(0 AS BIGINT) AS grams FROM estimates \
     WHERE created_at >= $1 GROUP BY 1 ORDER BY 1";

const ATTEMPTS: &str = "SELECT COUNT(*) AS total, \
     CAST(COALESCE(SUM(CASE WHEN outcome = 'delivered' THEN 0 ELSE 1 END), 0) AS BIGINT) AS failed \
     FROM webhook_attempts WHERE attempted_at >= $1";

#[derive(QueryableByName)]
struct DayRow {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = diesel::sql_types::Nullable<BigInt>)]
    grams: Option<i64>,
}

#[derive(QueryableByName)]
struct RevenueRow {
    #[diesel(sql_type = Text)]
    code: String,
    #[diesel(sql_type = diesel::sql_types::Nullable<BigInt>)]
    minor: Option<i64>,
}

#[derive(QueryableByName)]
struct AttemptsRow {
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = BigInt)]
    failed: i64,
}

/// Runs `sql` with one timestamp parameter on either backend.
async fn since_query<R>(conn: &mut Conn, sql: &str, since: OffsetDateTime) -> QueryResult<Vec<R>>
where
    R: QueryableByName<diesel::pg::Pg> + QueryableByName<diesel::sqlite::Sqlite> + Send + 'static,
{
    let at = to_sql_time(since);
    match conn {
        Conn::Pg(c) => {
            diesel::sql_query(sql)
                .bind::<Timestamp, _>(at)
                .load(&mut **c)
                .await
        }
        Conn::Sqlite(c) => {
            diesel::sql_query(sqlite_placeholders(sql))
                .bind::<Timestamp, _>(at)
                .load(&mut **c)
                .await
        }
    }
}

pub(crate) fn day_of(text: &str) -> QueryResult<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text, format).map_err(|_| corrupt("day", text))
}

fn days(rows: Vec<DayRow>) -> QueryResult<Vec<DailyOrders>> {
    rows.into_iter()
        .map(|r| {
            Ok(DailyOrders {
                day: day_of(&r.day)?,
                orders: u64::try_from(r.n).unwrap_or(0),
                quantity: Mass::from_grams(r.grams.unwrap_or(0)),
            })
        })
        .collect()
}

/// Live orders since a time: per day (sparse) and revenue per currency.
pub(crate) async fn orders(db: &Db, since: OffsetDateTime) -> Result<OrderStats, StoreError> {
    db.query(move |conn| {
        Box::pin(async move {
            let daily = days(since_query(conn, DAILY_ORDERS, since).await?)?;
            let revenue = since_query::<RevenueRow>(conn, REVENUE, since)
                .await?
                .into_iter()
                .map(|r| {
                    let currency: Currency =
                        r.code.parse().map_err(|_| corrupt("currency", &r.code))?;
                    Ok(Money::from_minor(r.minor.unwrap_or(0), currency))
                })
                .collect::<QueryResult<Vec<_>>>()?;
            Ok(OrderStats { daily, revenue })
        })
    })
    .await
    .map_err(|e| store_error(e, "counting orders"))
}

/// Estimates created per day since a time (sparse).
pub(crate) async fn estimates(
    db: &Db,
    since: OffsetDateTime,
) -> Result<Vec<(Date, u64)>, StoreError> {
    db.query(move |conn| {
        Box::pin(async move {
            Ok(days(since_query(conn, DAILY_ESTIMATES, since).await?)?
                .into_iter()
                .map(|d| (d.day, d.orders))
                .collect())
        })
    })
    .await
    .map_err(|e| store_error(e, "counting estimates"))
}

/// Webhook attempts since a time, and how many of them failed.
pub(crate) async fn attempts(db: &Db, since: OffsetDateTime) -> Result<(u64, u64), StoreError> {
    db.query(move |conn| {
        Box::pin(async move {
            let rows: Vec<AttemptsRow> = since_query(conn, ATTEMPTS, since).await?;
            let row = rows.into_iter().next();
            Ok(row.map_or((0, 0), |r| {
                (
                    u64::try_from(r.total).unwrap_or(0),
                    u64::try_from(r.failed).unwrap_or(0),
                )
            }))
        })
    })
    .await
    .map_err(|e| store_error(e, "counting webhook attempts"))
}
