//! PostgreSQL's road for the rollups: an order's day and month rows written
//! by statements that go out together on a shared connection, with the
//! transaction's others.

use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use tonne_ordering::Order;

use super::deltas::{BundleDelta, Delta, OrderKey, placed_rows};
use super::upserts::{added_figures, bump_bundle_rows, bump_project_rows, upsert_all};
use crate::db::KeepPrepared;

/// [`order_placed`](super::order_placed) on PostgreSQL, on a shared connection: its statements
/// can go out with the transaction's others.
pub(crate) async fn order_placed_pg(c: &AsyncPgConnection, order: &Order) -> QueryResult<()> {
    let (key, rows) = placed_rows(order);
    bump_bundles_pg(c, &key, &rows, true).await
}

/// Adds each delta to its bundle's day and month rows (created if absent),
/// both statements sent together; `rename` sets the rows' names to the
/// lines' (a new order), else the rows keep theirs.
pub(super) async fn bump_bundles_pg(
    c: &AsyncPgConnection,
    key: &OrderKey,
    rows: &[BundleDelta],
    rename: bool,
) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    crate::db::sent_together!(
        async { bump_bundle_rows!(pg c, order_daily_bundles, day = &key.day, &key.account, rows, rename) },
        async { bump_bundle_rows!(pg c, order_monthly_bundles, month = &key.month, &key.account, rows, rename) }
    )
    .map(drop)
}

/// Adds each delta to its project's day and month rows (created if absent),
/// both statements sent together.
pub(super) async fn bump_projects_pg(
    c: &AsyncPgConnection,
    key: &OrderKey,
    rows: &[(String, Delta)],
) -> QueryResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    crate::db::sent_together!(
        async {
            bump_project_rows!(pg c, order_daily_projects, day = &key.day, &key.account, rows)
        },
        async {
            bump_project_rows!(pg c, order_monthly_projects, month = &key.month, &key.account, rows)
        }
    )
    .map(drop)
}
