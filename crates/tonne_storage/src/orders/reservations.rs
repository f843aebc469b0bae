//! The stock an order holds: each line's grams taken from its bundle's
//! inventory when the order is placed (only while the bundle still has them:
//! `available >= wanted` in the same statement), and given back when it is
//! cancelled.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use tonne_ordering::Order;

use crate::db::{Conn, KeepPrepared};
use crate::schema::bundles;

/// Whether each of the lines' bundles has unlimited stock (`true` when
/// `available_grams` is not set); a bundle missing from the map does not exist.
macro_rules! stock_query {
    ($lines:expr) => {
        bundles::table
            .filter(
                bundles::id.eq_any(
                    $lines
                        .iter()
                        .map(|(bundle, _)| bundle.clone())
                        .collect::<Vec<String>>(),
                ),
            )
            .select((bundles::id, bundles::available_grams.is_null()))
    };
}

/// The lines' bundles, unlimited or not (see `stock_query!`).
pub(super) async fn stock_limits(
    conn: &mut Conn,
    lines: &[(String, i64)],
) -> QueryResult<HashMap<String, bool>> {
    let rows: Vec<(String, bool)> = on!(conn, |c| stock_query!(lines).load(c).await)?;
    Ok(rows.into_iter().collect())
}

/// [`stock_limits`] on PostgreSQL, on a shared connection: the statement can
/// go out with the transaction's others.
pub(super) async fn stock_limits_pg(
    c: &AsyncPgConnection,
    lines: &[(String, i64)],
) -> QueryResult<HashMap<String, bool>> {
    let rows: Vec<(String, bool)> = stock_query!(lines).load(&mut &*c).await?;
    Ok(rows.into_iter().collect())
}

/// Takes each line's grams from its bundle's stock where the bundle's stock is
/// limited; `true` per line whose grams are covered (unlimited, or taken). On
/// PostgreSQL the lines' updates go out together.
pub(super) async fn reserve(
    conn: &mut Conn,
    lines: &[(String, i64)],
    unlimited: &HashMap<String, bool>,
) -> QueryResult<Vec<bool>> {
    if lines
        .iter()
        .any(|(bundle, _)| !unlimited.contains_key(bundle))
    {
        return Err(DieselError::NotFound);
    }
    let limited = |bundle: &String| unlimited.get(bundle) == Some(&false);
    macro_rules! take {
        ($bundle:expr, $grams:expr) => {
            diesel::update(
                bundles::table
                    .filter(bundles::id.eq($bundle))
                    .filter(bundles::available_grams.ge($grams)),
            )
            .set(bundles::available_grams.eq(bundles::available_grams - $grams))
            .kept()
        };
    }
    match conn {
        Conn::Pg(c) => {
            let s: &AsyncPgConnection = c;
            futures_util::future::try_join_all(lines.iter().map(|(bundle, grams)| async move {
                if !limited(bundle) {
                    return Ok(true);
                }
                Ok(take!(bundle, grams).execute(&mut &*s).await? == 1)
            }))
            .await
        }
        Conn::Sqlite(c) => {
            let mut covered = Vec::with_capacity(lines.len());
            for (bundle, grams) in lines {
                covered
                    .push(!limited(bundle) || take!(bundle, grams).execute(&mut **c).await? == 1);
            }
            Ok(covered)
        }
    }
}

/// Gives the order's covered lines back to their bundles' stock.
pub(super) async fn release(conn: &mut Conn, order: &Order) -> QueryResult<()> {
    for line in order
        .lines
        .iter()
        .filter(|l| !l.insufficient_available_quantity)
    {
        let bundle = line.bundle_id.to_string();
        let grams = line.quantity.grams();
        on!(&mut *conn, |c| diesel::update(
            bundles::table
                .filter(bundles::id.eq(&bundle))
                .filter(bundles::available_grams.is_not_null()),
        )
        .set(bundles::available_grams.eq(bundles::available_grams + grams))
        .kept()
        .execute(c)
        .await)?;
    }
    Ok(())
}
