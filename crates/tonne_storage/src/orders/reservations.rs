//! The stock an order holds: each line's grams taken from its bundle's
//! inventory when the order is placed, and given back when it is cancelled.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use tonne_ordering::Order;

use crate::db::AnyConnection;
use crate::schema::bundles;

/// Takes each line's grams from its bundle if it has them (never below zero).
/// Returns, line by line, whether it is covered: reserved, or the bundle's
/// inventory is unlimited. Which bundles are unlimited is read first, in one
/// statement that takes no lock, so that the row locks of the reservations
/// (held until the order's transaction ends, and wanted by every concurrent
/// order of the same bundles) are taken by one UPDATE per limited bundle and
/// nothing else. A bundle that does not exist fails the order, as before.
pub(super) fn reserve(conn: &mut AnyConnection, lines: &[(String, i64)]) -> QueryResult<Vec<bool>> {
    let ids: Vec<&str> = lines.iter().map(|(bundle, _)| bundle.as_str()).collect();
    let inventories: HashMap<String, bool> = bundles::table
        .filter(bundles::id.eq_any(&ids))
        .select((bundles::id, bundles::available_grams.is_null()))
        .load::<(String, bool)>(conn)?
        .into_iter()
        .collect();
    lines
        .iter()
        .map(|(bundle, grams)| match inventories.get(bundle) {
            None => Err(DieselError::NotFound),
            Some(true) => Ok(true),
            Some(false) => {
                let taken = diesel::update(
                    bundles::table
                        .filter(bundles::id.eq(bundle))
                        .filter(bundles::available_grams.ge(grams)),
                )
                .set(bundles::available_grams.eq(bundles::available_grams - grams))
                .execute(conn)?;
                Ok(taken == 1)
            }
        })
        .collect()
}

/// Gives each reserved line's grams back to its bundle (bundles of unlimited
/// inventory are left alone).
pub(super) fn release(conn: &mut AnyConnection, order: &Order) -> QueryResult<()> {
    for line in order
        .lines
        .iter()
        .filter(|l| !l.insufficient_available_quantity)
    {
        diesel::update(
            bundles::table
                .filter(bundles::id.eq(line.bundle_id.to_string()))
                .filter(bundles::available_grams.is_not_null()),
        )
        .set(bundles::available_grams.eq(bundles::available_grams + line.quantity.grams()))
        .execute(conn)?;
    }
    Ok(())
}
