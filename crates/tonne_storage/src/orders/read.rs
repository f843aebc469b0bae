//! Reading orders back: one by id, or a scope's page, most recent first, each
//! with its lines and project allocations (two statements for a whole page).

use std::collections::HashMap;

use diesel::prelude::*;
use time::PrimitiveDateTime;
use tonne_kernel::{Limit, Page};
use tonne_ordering::Order;

use crate::db::AnyConnection;
use crate::schema::{order_lines, order_projects, orders};

use super::rows::{LineRow, OrderRow, ProjectRow, into_order};

/// A scope's orders, most recent first, strictly after the cursor order, which
/// must be in the scope (`NotFound` otherwise). `scope` builds the filtered
/// query afresh for each statement. `created_at <= at` bounds the index range
/// scan and the `OR` only breaks ties at the boundary, so a deep page costs
/// what the first one does.
pub(super) fn newest_first(
    conn: &mut AnyConnection,
    scope: impl Fn() -> orders::BoxedQuery<'static, <AnyConnection as diesel::Connection>::Backend>,
    after: Option<String>,
    limit: Limit,
) -> QueryResult<Page<Order>> {
    let position: Option<(PrimitiveDateTime, String)> = match after {
        None => None,
        Some(after) => Some(
            scope()
                .filter(orders::id.eq(after))
                .select((orders::created_at, orders::id))
                .first(conn)?,
        ),
    };
    let mut q = scope().select(OrderRow::as_select());
    if let Some((at, id)) = position {
        q = q
            .filter(orders::created_at.le(at))
            .filter(orders::created_at.lt(at).or(orders::id.lt(id)));
    }
    let rows: Vec<OrderRow> = q
        .order((orders::created_at.desc(), orders::id.desc()))
        .limit(i64::from(limit.get()) + 1)
        .load(conn)?;
    Ok(Page::from_overfetch(load_orders(conn, rows)?, limit))
}

pub(super) fn load_orders(
    conn: &mut AnyConnection,
    rows: Vec<OrderRow>,
) -> QueryResult<Vec<Order>> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let line_rows: Vec<LineRow> = order_lines::table
        .filter(order_lines::order_id.eq_any(&ids))
        .order((order_lines::order_id.asc(), order_lines::position.asc()))
        .select(LineRow::as_select())
        .load(conn)?;
    let mut by_order: HashMap<String, Vec<LineRow>> = HashMap::new();
    for line in line_rows {
        by_order
            .entry(line.order_id.clone())
            .or_default()
            .push(line);
    }
    let project_rows: Vec<ProjectRow> = order_projects::table
        .filter(order_projects::order_id.eq_any(&ids))
        .order((
            order_projects::order_id.asc(),
            order_projects::position.asc(),
        ))
        .select(ProjectRow::as_select())
        .load(conn)?;
    let mut allocations: HashMap<String, Vec<ProjectRow>> = HashMap::new();
    for p in project_rows {
        allocations.entry(p.order_id.clone()).or_default().push(p);
    }
    rows.into_iter()
        .map(|r| {
            let lines = by_order.remove(&r.id).unwrap_or_default();
            let allocated = allocations.remove(&r.id).unwrap_or_default();
            into_order(r, lines, allocated)
        })
        .collect()
}

pub(super) fn load_order(conn: &mut AnyConnection, id: &str) -> QueryResult<Option<Order>> {
    let rows: Vec<OrderRow> = orders::table
        .find(id)
        .select(OrderRow::as_select())
        .load(conn)?;
    Ok(load_orders(conn, rows)?.into_iter().next())
}
