//! The stock an order holds: each line's grams taken from its bundle's
//! inventory when the order is placed (only while the bundle still has them:
//! `available >= wanted` in the same statement), and given back when it is
//! cancelled.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
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
pub(super) use stock_query;

/// The lines' bundles, unlimited or not (see `stock_query!`).
pub(super) async fn stock_limits(
    conn: &mut Conn,
    lines: &[(String, i64)],
) -> QueryResult<HashMap<String, bool>> {
    let rows: Vec<(String, bool)> = on!(conn, |c| stock_query!(lines).load(c).await)?;
    Ok(rows.into_iter().collect())
}

/// Takes a line's grams from its bundle's stock, only while the stock is
/// limited (`available_grams` set) and still holds them: one row or none.
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
pub(super) use take;

/// Takes each line's grams from its bundle's stock where the bundle's stock is
/// limited; `true` per line whose grams are covered (unlimited, or taken).
pub(super) async fn reserve(
    conn: &mut Conn,
    lines: &[(String, i64)],
    unlimited: &HashMap<String, bool>,
) -> QueryResult<Vec<bool>> {
    let limited = |bundle: &String| unlimited.get(bundle) == Some(&false);
    let mut taken = Vec::with_capacity(lines.len());
    for (bundle, grams) in lines {
        taken.push(
            limited(bundle) && on!(&mut *conn, |c| take!(bundle, grams).execute(c).await)? == 1,
        );
    }
    covered(lines, unlimited, &taken)
}

/// Per line, whether its grams are covered: its bundle's stock is unlimited,
/// or the line's grams were `taken`. A bundle that does not exist fails the
/// order (`NotFound`, and the transaction rolls back whatever was taken).
pub(super) fn covered(
    lines: &[(String, i64)],
    unlimited: &HashMap<String, bool>,
    taken: &[bool],
) -> QueryResult<Vec<bool>> {
    lines
        .iter()
        .zip(taken)
        .map(|((bundle, _), taken)| match unlimited.get(bundle) {
            None => Err(DieselError::NotFound),
            Some(unlimited) => Ok(*unlimited || *taken),
        })
        .collect()
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
