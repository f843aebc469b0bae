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
use time::{Date, PrimitiveDateTime};
use tonne_ordering::{Order, OrderStatus};

use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::db::{Conn, KeepPrepared};
use crate::mapping::to_sql_time;
use crate::schema::{estimate_daily_counts, order_projects};

/// A UTC day as the rollups key it: `YYYY-MM-DD`, the order of text being the
/// order of days.
pub(crate) fn day_text(day: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

/// What one change adds to a row's figures (negative to take away).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Delta {
    placed_grams: i64,
    placed_minor: i64,
    completed_grams: i64,
    completed_minor: i64,
}

impl Delta {
    /// `grams` and `minor` counted `placed` times towards the placed figures
    /// and `completed` times towards the completed ones (each -1, 0 or 1).
    fn of(grams: i64, minor: i64, (placed, completed): (i64, i64)) -> Self {
        Self {
            placed_grams: grams.saturating_mul(placed),
            placed_minor: minor.saturating_mul(placed),
            completed_grams: grams.saturating_mul(completed),
            completed_minor: minor.saturating_mul(completed),
        }
    }

    fn plus(self, other: Self) -> Self {
        Self {
            placed_grams: self.placed_grams.saturating_add(other.placed_grams),
            placed_minor: self.placed_minor.saturating_add(other.placed_minor),
            completed_grams: self.completed_grams.saturating_add(other.completed_grams),
            completed_minor: self.completed_minor.saturating_add(other.completed_minor),
        }
    }

    fn is_zero(self) -> bool {
        self == Self::default()
    }
}

/// What an order in `status` counts towards: (placed, completed), each 0 or 1.
fn weights(status: OrderStatus) -> (i64, i64) {
    (
        i64::from(!matches!(
            status,
            OrderStatus::Cancelled | OrderStatus::Failed
        )),
        i64::from(status == OrderStatus::Complete),
    )
}

fn negated((placed, completed): (i64, i64)) -> (i64, i64) {
    (-placed, -completed)
}

/// One project row of an order: project id, grams, offset cost in minor units.
pub(crate) type Allocated = (String, i64, i64);

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

fn allocation_of(order: &Order) -> Vec<Allocated> {
    order
        .projects
        .iter()
        .map(|p| {
            (
                p.project_id.to_string(),
                p.quantity.grams(),
                p.offset_cost.minor(),
            )
        })
        .collect()
}

/// A UTC month as the monthly rollups key it: `YYYY-MM`, the first seven
/// characters of [`day_text`].
pub(crate) fn month_text(day: Date) -> String {
    format!("{:04}-{:02}", day.year(), u8::from(day.month()))
}

/// The account, day and month an order's figures belong to.
struct OrderKey {
    account: String,
    day: String,
    month: String,
}

impl OrderKey {
    fn of(order: &Order) -> Self {
        let day = to_sql_time(order.created_at).date();
        Self {
            account: order.account_id.to_string(),
            day: day_text(day),
            month: month_text(day),
        }
    }
}

/// The order's lines per bundle (in bundle order): the last line's name and
/// the lines' figures weighted by `weights`.
fn by_bundle(order: &Order, weights: (i64, i64)) -> BTreeMap<String, (String, Delta)> {
    let mut out: BTreeMap<String, (String, Delta)> = BTreeMap::new();
    for line in &order.lines {
        let delta = Delta::of(line.quantity.grams(), line.offset_cost.minor(), weights);
        let entry = out
            .entry(line.bundle_id.to_string())
            .or_insert_with(|| (line.bundle_name.clone(), Delta::default()));
        entry.0.clone_from(&line.bundle_name);
        entry.1 = entry.1.plus(delta);
    }
    out
}

/// Adds project rows, weighted, to per-project deltas.
fn add_projects(into: &mut BTreeMap<String, Delta>, rows: &[Allocated], weights: (i64, i64)) {
    for (project, grams, minor) in rows {
        let entry = into.entry(project.clone()).or_default();
        *entry = entry.plus(Delta::of(*grams, *minor, weights));
    }
}

/// One bundle's change: bundle id, the name on the order's line, the delta.
type BundleDelta = (String, String, Delta);

/// `INSERT … ON CONFLICT ($target) DO UPDATE SET $set` of every row of
/// `$values`: one statement on PostgreSQL (all of an order's rows, in key
/// order), one per row on SQLite (in process).
macro_rules! upsert_all {
    (pg $c:expr, $table:expr, $values:expr, $target:expr, $set:expr) => {
        diesel::insert_into($table)
            .values($values)
            .on_conflict($target)
            .do_update()
            .set($set)
            .kept()
            .execute(&mut &*$c)
            .await
            .map(drop)
    };
    (sqlite $c:expr, $table:expr, $values:expr, $target:expr, $set:expr) => {{
        for row in $values.iter() {
            diesel::insert_into($table)
                .values(row)
                .on_conflict($target)
                .do_update()
                .set($set)
                .kept()
                .execute(&mut *$c)
                .await?;
        }
        QueryResult::Ok(())
    }};
}

/// The four figure columns of rollup table `$t`, each plus the incoming value.
macro_rules! added_figures {
    ($t:ident) => {
        (
            $t::placed_grams.eq($t::placed_grams + excluded($t::placed_grams)),
            $t::placed_minor.eq($t::placed_minor + excluded($t::placed_minor)),
            $t::completed_grams.eq($t::completed_grams + excluded($t::completed_grams)),
            $t::completed_minor.eq($t::completed_minor + excluded($t::completed_minor)),
        )
    };
}

/// Adds the deltas to a bundle rollup (`$table`, keyed by account, `$period`
/// and bundle) on `$c` of backend `$backend` (`pg` or `sqlite`); with
/// `$rename` the rows take the lines' names.
macro_rules! bump_bundle_rows {
    ($backend:ident $c:expr, $table:ident, $period:ident = $at:expr, $account:expr, $rows:expr, $rename:expr) => {{
        use crate::schema::$table::dsl as t;
        let values: Vec<_> = $rows
            .iter()
            .map(|(bundle, name, delta)| {
                (
                    t::account_id.eq($account),
                    t::$period.eq($at),
                    t::bundle_id.eq(bundle),
                    t::bundle_name.eq(name),
                    t::placed_grams.eq(delta.placed_grams),
                    t::placed_minor.eq(delta.placed_minor),
                    t::completed_grams.eq(delta.completed_grams),
                    t::completed_minor.eq(delta.completed_minor),
                )
            })
            .collect();
        let target = (t::account_id, t::$period, t::bundle_id);
        if $rename {
            upsert_all!(
                $backend $c,
                t::$table,
                &values,
                target,
                (
                    t::bundle_name.eq(excluded(t::bundle_name)),
                    added_figures!(t)
                )
            )
        } else {
            upsert_all!($backend $c, t::$table, &values, target, added_figures!(t))
        }
    }};
}

/// Adds the deltas to a project rollup (`$table`, keyed by account,
/// `$period` and project).
macro_rules! bump_project_rows {
    ($backend:ident $c:expr, $table:ident, $period:ident = $at:expr, $account:expr, $rows:expr) => {{
        use crate::schema::$table::dsl as t;
        let values: Vec<_> = $rows
            .iter()
            .map(|(project, delta)| {
                (
                    t::account_id.eq($account),
                    t::$period.eq($at),
                    t::project_id.eq(project),
                    t::placed_grams.eq(delta.placed_grams),
                    t::placed_minor.eq(delta.placed_minor),
                    t::completed_grams.eq(delta.completed_grams),
                    t::completed_minor.eq(delta.completed_minor),
                )
            })
            .collect();
        let target = (t::account_id, t::$period, t::project_id);
        upsert_all!($backend $c, t::$table, &values, target, added_figures!(t))
    }};
}

// PostgreSQL's road: after the macros, which it uses too.
mod pg;
pub(crate) use pg::order_placed_pg;
use pg::{bump_bundles_pg, bump_projects_pg};

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

fn placed_rows(order: &Order) -> (OrderKey, Vec<BundleDelta>) {
    let rows = by_bundle(order, weights(order.status))
        .into_iter()
        .filter(|(_, (_, delta))| !delta.is_zero())
        .map(|(bundle, (name, delta))| (bundle, name, delta))
        .collect();
    (OrderKey::of(order), rows)
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

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn days_are_iso_dates_ordered_as_text() {
        assert_eq!(day_text(date!(2026 - 03 - 04)), "2026-03-04");
        assert!(day_text(Date::MIN) < day_text(date!(0001 - 01 - 01)));
        assert!(day_text(date!(2026 - 12 - 31)) < day_text(Date::MAX));
    }

    #[test]
    fn a_status_counts_once_towards_what_it_is() {
        assert_eq!(weights(OrderStatus::Received), (1, 0));
        assert_eq!(weights(OrderStatus::Retiring), (1, 0));
        assert_eq!(weights(OrderStatus::Complete), (1, 1));
        assert_eq!(weights(OrderStatus::Cancelled), (0, 0));
        assert_eq!(weights(OrderStatus::Failed), (0, 0));
        assert!(Delta::of(5, 7, (0, 0)).is_zero());
        assert_eq!(
            Delta::of(5, 7, (-1, 1)),
            Delta {
                placed_grams: -5,
                placed_minor: -7,
                completed_grams: 5,
                completed_minor: 7
            }
        );
    }
}
