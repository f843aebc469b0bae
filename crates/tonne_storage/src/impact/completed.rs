//! An account's completed orders, newest first (its sustainability page
//! lists their certificates).

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::PrimitiveDateTime;
use tonne_impact::CompletedOrder;
use tonne_kernel::Mass;
use tonne_ordering::{OrderId, OrderStatus};

use crate::db::Conn;
use crate::mapping::{from_sql_time, parse_id};
use crate::schema::orders;

pub(super) async fn completed_orders(
    conn: &mut Conn,
    account: &str,
    limit: u32,
) -> QueryResult<Vec<CompletedOrder>> {
    let rows: Vec<(String, PrimitiveDateTime, i64)> = on!(conn, |c| orders::table
        .filter(orders::account_id.eq(account))
        .filter(orders::status.eq(OrderStatus::Complete.as_str()))
        .order((orders::created_at.desc(), orders::id.desc()))
        .limit(i64::from(limit))
        .select((orders::id, orders::created_at, orders::quantity_grams))
        .load(c)
        .await)?;
    rows.into_iter()
        .map(|(id, created_at, grams)| {
            Ok(CompletedOrder {
                id: parse_id::<OrderId>("order id", &id)?,
                created_at: from_sql_time(created_at),
                quantity: Mass::from_grams(grams),
            })
        })
        .collect()
}
