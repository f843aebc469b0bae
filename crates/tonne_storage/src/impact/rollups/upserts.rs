//! The rollups' statements: each change added to its rows with
//! `INSERT … ON CONFLICT … DO UPDATE`, written once for both backends (the
//! caller names its backend and brings `diesel::prelude`, `excluded`,
//! `RunQueryDsl` and `KeepPrepared` into scope).

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
pub(super) use upsert_all;

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
pub(super) use added_figures;

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
pub(super) use bump_bundle_rows;

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
pub(super) use bump_project_rows;
