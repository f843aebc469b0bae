//! Reading orders back: one by id, or a scope's page, most recent first, each
//! with its lines and project allocations. On PostgreSQL the statements that
//! do not depend on one another go out together (one round trip for an order
//! by id, two for a page).

use std::collections::HashMap;

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::PrimitiveDateTime;
use tonne_kernel::{Limit, Page};
use tonne_ordering::Order;

use crate::db::Conn;
use crate::schema::{accounts, order_lines, order_projects, orders};

use super::rows::{LineRow, OrderRow, ProjectRow, into_order};

/// Which orders a queue or a list covers.
pub(super) enum Scope {
    /// Live orders in one of these statuses, of one organisation or all.
    Awaiting {
        statuses: Vec<&'static str>,
        organisation: Option<String>,
    },
    /// One organisation's orders of one mode.
    Organisation {
        organisation: String,
        mode: &'static str,
    },
}

/// The boxed query of a [`Scope`], built for the backend of the `on!` arm it is in.
macro_rules! scoped {
    ($scope:expr) => {{
        let mut q = orders::table.into_boxed();
        match $scope {
            Scope::Awaiting {
                statuses,
                organisation,
            } => {
                // The partial index `orders_awaiting` matches this predicate exactly.
                q = q
                    .filter(orders::mode.eq("live"))
                    .filter(orders::status.eq_any(statuses.clone()));
                if let Some(o) = organisation {
                    q = q.filter(
                        orders::account_id.eq_any(
                            accounts::table
                                .filter(accounts::organisation_id.eq(o.clone()))
                                .select(accounts::id),
                        ),
                    );
                }
            }
            Scope::Organisation { organisation, mode } => {
                q = q.filter(orders::mode.eq(*mode)).filter(
                    orders::account_id.eq_any(
                        accounts::table
                            .filter(accounts::organisation_id.eq(organisation.clone()))
                            .select(accounts::id),
                    ),
                );
            }
        }
        q
    }};
}

/// A page of a scope's orders, most recent first, after the order `after`.
pub(super) async fn newest_first(
    conn: &mut Conn,
    scope: Scope,
    after: Option<String>,
    limit: Limit,
) -> QueryResult<Page<Order>> {
    let position: Option<(PrimitiveDateTime, String)> = match &after {
        None => None,
        Some(after) => Some(on!(&mut *conn, |c| scoped!(&scope)
            .filter(orders::id.eq(after.clone()))
            .select((orders::created_at, orders::id))
            .first(c)
            .await)?),
    };
    let rows: Vec<OrderRow> = on!(&mut *conn, |c| {
        let q = scoped!(&scope).select(OrderRow::as_select());
        newest_first_page!(q, orders, &position, limit, c)
    })?;
    Ok(Page::from_overfetch(load_orders(conn, rows).await?, limit))
}

/// The lines and project rows of these orders (two statements, sent together
/// on PostgreSQL), each order whole.
pub(super) async fn load_orders(conn: &mut Conn, rows: Vec<OrderRow>) -> QueryResult<Vec<Order>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    // A `SelectBy` names its backend: each arm builds its own statements.
    macro_rules! lines {
        () => {
            order_lines::table
                .filter(order_lines::order_id.eq_any(ids.clone()))
                .order((order_lines::order_id.asc(), order_lines::position.asc()))
                .select(LineRow::as_select())
        };
    }
    macro_rules! projects {
        () => {
            order_projects::table
                .filter(order_projects::order_id.eq_any(ids.clone()))
                .order((
                    order_projects::order_id.asc(),
                    order_projects::position.asc(),
                ))
                .select(ProjectRow::as_select())
        };
    }
    let (line_rows, project_rows): (Vec<LineRow>, Vec<ProjectRow>) = match conn {
        Conn::Pg(c) => {
            let shared = &**c;
            crate::db::sent_together!(
                lines!().load(&mut &*shared),
                projects!().load(&mut &*shared)
            )?
        }
        Conn::Sqlite(c) => (
            lines!().load(&mut **c).await?,
            projects!().load(&mut **c).await?,
        ),
    };
    assemble(rows, line_rows, project_rows)
}

/// One order by id, whole (three statements, sent together on PostgreSQL).
pub(super) async fn load_order(conn: &mut Conn, id: &str) -> QueryResult<Option<Order>> {
    macro_rules! order {
        () => {
            orders::table
                .find(id.to_owned())
                .select(OrderRow::as_select())
        };
    }
    macro_rules! lines {
        () => {
            order_lines::table
                .filter(order_lines::order_id.eq(id.to_owned()))
                .order(order_lines::position.asc())
                .select(LineRow::as_select())
        };
    }
    macro_rules! projects {
        () => {
            order_projects::table
                .filter(order_projects::order_id.eq(id.to_owned()))
                .order(order_projects::position.asc())
                .select(ProjectRow::as_select())
        };
    }
    let (rows, line_rows, project_rows): (Vec<OrderRow>, Vec<LineRow>, Vec<ProjectRow>) = match conn
    {
        Conn::Pg(c) => {
            let shared = &**c;
            crate::db::sent_together!(
                order!().load(&mut &*shared),
                lines!().load(&mut &*shared),
                projects!().load(&mut &*shared)
            )?
        }
        Conn::Sqlite(c) => (
            order!().load(&mut **c).await?,
            lines!().load(&mut **c).await?,
            projects!().load(&mut **c).await?,
        ),
    };
    Ok(assemble(rows, line_rows, project_rows)?.into_iter().next())
}

fn assemble(
    rows: Vec<OrderRow>,
    line_rows: Vec<LineRow>,
    project_rows: Vec<ProjectRow>,
) -> QueryResult<Vec<Order>> {
    let mut by_order: HashMap<String, Vec<LineRow>> = HashMap::new();
    for line in line_rows {
        by_order
            .entry(line.order_id.clone())
            .or_default()
            .push(line);
    }
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
