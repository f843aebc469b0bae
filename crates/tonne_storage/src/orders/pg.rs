//! PostgreSQL's road for placing an order: the transaction's statements go
//! out in two round trips on the shared connection — the idempotency key's
//! check with the stock limits and the reservations, then the order, its
//! estimate's claim, its lines, its event and its daily figures together.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use tonne_ordering::{NewEvent, Order};

use super::placing::{claim_estimate, claimed, key_count, key_unused};
use super::reservations::{covered, stock_query, take};
use super::rows::{LineRow, OrderRow};
use crate::db::KeepPrepared;
use crate::impact::rollups;
use crate::outbox::append_event_pg;
use crate::schema::{bundles, order_lines, orders};

/// The first round trip: the idempotency key unused, and per line whether
/// its grams are covered (a refusal rolls the whole transaction back, the
/// stock taken with it).
pub(super) async fn reserve(
    s: &AsyncPgConnection,
    order: &Order,
    wanted: &[(String, i64)],
) -> QueryResult<Vec<bool>> {
    let (key, unlimited, taken) = crate::db::sent_together!(
        async {
            match key_count!(order) {
                Some(q) => q.get_result::<i64>(&mut &*s).await,
                None => Ok(0),
            }
        },
        stock_limits_pg(s, wanted),
        take_pg(s, wanted)
    )?;
    key_unused(key)?;
    covered(wanted, &unlimited, &taken)
}

/// The second round trip: the order, its estimate's claim, its lines, its
/// event and its daily figures.
pub(super) async fn write(
    s: &AsyncPgConnection,
    order: &Order,
    row: &OrderRow,
    lines: &[LineRow],
    estimate: Option<&str>,
    event: &NewEvent,
) -> QueryResult<()> {
    crate::db::sent_together!(
        diesel::insert_into(orders::table)
            .values(row)
            .execute(&mut &*s),
        async {
            match estimate {
                Some(e) => claimed(claim_estimate!(order, e).execute(&mut &*s).await?),
                None => Ok(()),
            }
        },
        async {
            if lines.is_empty() {
                return Ok(0);
            }
            // At most one line per bundle: a bounded set of texts.
            diesel::insert_into(order_lines::table)
                .values(lines)
                .kept()
                .execute(&mut &*s)
                .await
        },
        append_event_pg(s, order, event),
        rollups::order_placed_pg(s, order),
    )
    .map(drop)
}

/// [`stock_limits`](super::reservations::stock_limits) on PostgreSQL, on a shared connection: the statement can
/// go out with the transaction's others.
async fn stock_limits_pg(
    c: &AsyncPgConnection,
    lines: &[(String, i64)],
) -> QueryResult<HashMap<String, bool>> {
    let rows: Vec<(String, bool)> = stock_query!(lines).load(&mut &*c).await?;
    Ok(rows.into_iter().collect())
}

/// [`reserve`](super::reservations::reserve) on PostgreSQL, on a shared connection, without waiting for the
/// stock limits: every line's update goes out with the transaction's first
/// statements (an unlimited bundle's matches no row: `NULL >= grams` is not
/// true). [`covered`] then reads the result with the limits.
async fn take_pg(c: &AsyncPgConnection, lines: &[(String, i64)]) -> QueryResult<Vec<bool>> {
    crate::db::all_or_cause(
        futures_util::future::join_all(lines.iter().map(|(bundle, grams)| async move {
            Ok(take!(bundle, grams).execute(&mut &*c).await? == 1)
        }))
        .await,
    )
}
