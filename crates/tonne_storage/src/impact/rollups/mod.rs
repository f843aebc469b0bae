//! The daily figures the impact domain reads (`order_daily_bundles`,
//! `order_daily_projects`, `estimate_daily_counts`) and their monthly
//! twins (`order_monthly_bundles`, `order_monthly_projects`: the same deltas
//! keyed by month), kept by the order and estimate stores in the transaction
//! of each change.
//!
//! A row is keyed by the account and the UTC day of the order's (or the
//! estimate's) creation. An order counts towards `placed_*` while it is not
//! cancelled or failed, and towards `completed_*` once complete: each change
//! adds the difference its status (or its project allocation) makes, with
//! `INSERT … ON CONFLICT … DO UPDATE SET col = col + excluded.col`. Rows are
//! written in key order (and, for orders, after the account's event sequence
//! row is locked), so concurrent writers never wait on each other in a cycle.

use std::collections::BTreeMap;

use diesel::prelude::*;
use diesel::upsert::excluded;
use time::PrimitiveDateTime;
use tonne_ordering::{Order, OrderStatus};

use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::db::{Conn, KeepPrepared};
use crate::schema::{estimate_daily_counts, order_projects};

mod deltas;
mod pg;
mod upserts;

pub(crate) use deltas::{Allocated, day_text, month_text};
pub(crate) use pg::order_placed_pg;

use deltas::{
    BundleDelta, Delta, OrderKey, add_projects, allocation_of, by_bundle, negated, placed_rows,
    weights,
};
use pg::{bump_bundles_pg, bump_projects_pg};
use upserts::{added_figures, bump_bundle_rows, bump_project_rows, upsert_all};

/// The order's stored project rows (read before they are replaced).
pub(crate) async fn allocated(conn: &mut Conn, order: &str) -> QueryResult<Vec<Allocated>> {
    on!(conn, |c| order_projects::table
        .filter(order_projects::order_id.eq(order))
        .select((
            order_projects::project_id,
            order_projects::quantity_grams,
            order_projects::offset_cost_minor,
        ))
        .load(c)
        .await)
}

/// A new order: its lines count towards the placed figures of its day (and
/// their bundle names become the rows' names).
pub(crate) async fn order_placed(conn: &mut Conn, order: &Order) -> QueryResult<()> {
    match conn {
        Conn::Pg(c) => order_placed_pg(c, order).await,
        Conn::Sqlite(c) => {
            let (key, rows) = placed_rows(order);
            let c = &mut **c;
            bump_bundle_rows!(sqlite c, order_daily_bundles, day = &key.day, &key.account, &rows, true)?;
            bump_bundle_rows!(sqlite c, order_monthly_bundles, month = &key.month, &key.account, &rows, true)
        }
    }
}

/// An order moved from `from` to its current status. `replaced` holds its
/// project rows from before the move when the move replaced them (their
/// figures are taken away as `from` counted them, the new ones added as the
/// new status counts them); otherwise the lines and project rows are counted
/// anew only where the status counts differently.
pub(crate) async fn order_moved(
    conn: &mut Conn,
    order: &Order,
    from: OrderStatus,
    replaced: Option<&[Allocated]>,
) -> QueryResult<()> {
    let key = OrderKey::of(order);
    let (before, after) = (weights(from), weights(order.status));
    let change = (after.0 - before.0, after.1 - before.1);
    let bundles: Vec<BundleDelta> = if change == (0, 0) {
        Vec::new()
    } else {
        by_bundle(order, change)
            .into_iter()
            .map(|(bundle, (name, delta))| (bundle, name, delta))
            .collect()
    };
    let mut projects: BTreeMap<String, Delta> = BTreeMap::new();
    match replaced {
        Some(old) => {
            add_projects(&mut projects, old, negated(before));
            add_projects(&mut projects, &allocation_of(order), after);
        }
        None => add_projects(&mut projects, &allocation_of(order), change),
    }
    let projects: Vec<(String, Delta)> = projects
        .into_iter()
        .filter(|(_, delta)| !delta.is_zero())
        .collect();
    match conn {
        Conn::Pg(c) => {
            let c: &AsyncPgConnection = c;
            crate::db::sent_together!(
                bump_bundles_pg(c, &key, &bundles, false),
                bump_projects_pg(c, &key, &projects)
            )
            .map(drop)
        }
        Conn::Sqlite(c) => {
            let c = &mut **c;
            if !bundles.is_empty() {
                bump_bundle_rows!(sqlite c, order_daily_bundles, day = &key.day, &key.account, &bundles, false)?;
                bump_bundle_rows!(sqlite c, order_monthly_bundles, month = &key.month, &key.account, &bundles, false)?;
            }
            if !projects.is_empty() {
                bump_project_rows!(sqlite c, order_daily_projects, day = &key.day, &key.account, &projects)?;
                bump_project_rows!(sqlite c, order_monthly_projects, month = &key.month, &key.account, &projects)?;
            }
            Ok(())
        }
    }
}

/// One stored estimate, as the counts see it.
pub(crate) struct CountedEstimate<'a> {
    /// Its account.
    pub account: &'a str,
    /// Its creation (UTC).
    pub created_at: PrimitiveDateTime,
    /// Its stored kind.
    pub kind: &'a str,
    /// How many it adds (1 for a new estimate, 0 for a changed one).
    pub count: i64,
    /// The grams it adds (its mass, or the change of its mass).
    pub grams: i64,
}

/// New or changed estimates: counts and masses added per account, day and kind.
pub(crate) async fn estimates_counted<'a>(
    conn: &mut crate::db::Conn,
    estimates: impl IntoIterator<Item = CountedEstimate<'a>>,
) -> QueryResult<()> {
    let mut sums: BTreeMap<(&str, String, &str), (i64, i64)> = BTreeMap::new();
    for e in estimates {
        let entry = sums
            .entry((e.account, day_text(e.created_at.date()), e.kind))
            .or_default();
        *entry = (
            entry.0.saturating_add(e.count),
            entry.1.saturating_add(e.grams),
        );
    }
    for ((account, day, kind), (count, grams)) in sums {
        if (count, grams) != (0, 0) {
            bump_estimates(&mut *conn, (account, &day, kind), count, grams).await?;
        }
    }
    Ok(())
}

async fn bump_estimates(
    conn: &mut crate::db::Conn,
    (account, day, kind): (&str, &str, &str),
    count: i64,
    grams: i64,
) -> QueryResult<()> {
    use estimate_daily_counts::dsl as e;
    let upsert = diesel::insert_into(e::estimate_daily_counts)
        .values((
            e::account_id.eq(account),
            e::day.eq(day),
            e::kind.eq(kind),
            e::estimates.eq(count),
            e::mass_grams.eq(grams),
        ))
        .on_conflict((e::account_id, e::day, e::kind))
        .do_update()
        .set((
            e::estimates.eq(e::estimates + excluded(e::estimates)),
            e::mass_grams.eq(e::mass_grams + excluded(e::mass_grams)),
        ))
        .kept();
    on!(conn, |c| upsert.execute(c).await)?;
    Ok(())
}
