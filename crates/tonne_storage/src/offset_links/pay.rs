//! Lune Pay's rows: an account's allowed return origins, and its payments'
//! temporary ids (one per order).

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, StoreError};
use tonne_ordering::OrderId;

use crate::db::Db;
use crate::db::error::store_error;
use crate::mapping::{parse_id, to_sql_time};
use crate::schema::{account_pay_origins, pay_temporary_ids};

pub(super) async fn origins(db: &Db, account: AccountId) -> Result<Vec<String>, StoreError> {
    let account = account.to_string();
    db.query(move |conn| {
        Box::pin(async move {
            on!(conn, |c| account_pay_origins::table
                .filter(account_pay_origins::account_id.eq(&account))
                .order(account_pay_origins::origin)
                .select(account_pay_origins::origin)
                .load(c)
                .await)
        })
    })
    .await
    .map_err(|e| store_error(e, "reading an account's Lune Pay origins"))
}

pub(super) async fn set_origins(
    db: &Db,
    account: AccountId,
    origins: &[String],
) -> Result<(), StoreError> {
    let account = account.to_string();
    let rows: Vec<_> = origins
        .iter()
        .map(|o| {
            (
                account_pay_origins::account_id.eq(account.clone()),
                account_pay_origins::origin.eq(o.clone()),
            )
        })
        .collect();
    db.transaction(move |conn| {
        Box::pin(async move {
            on!(&mut *conn, |c| diesel::delete(
                account_pay_origins::table.filter(account_pay_origins::account_id.eq(&account))
            )
            .execute(c)
            .await)?;
            for row in rows {
                on!(&mut *conn, |c| diesel::insert_into(
                    account_pay_origins::table
                )
                .values(row.clone())
                .execute(c)
                .await)?;
            }
            Ok(())
        })
    })
    .await
    .map_err(|e| store_error(e, "setting an account's Lune Pay origins"))
}

pub(super) async fn record(
    db: &Db,
    temporary_id: uuid::Uuid,
    order: OrderId,
    at: OffsetDateTime,
) -> Result<uuid::Uuid, StoreError> {
    let order = order.to_string();
    let at = to_sql_time(at);
    db.transaction(move |conn| {
        Box::pin(async move {
            let existing: Option<String> = on!(&mut *conn, |c| pay_temporary_ids::table
                .filter(pay_temporary_ids::order_id.eq(&order))
                .select(pay_temporary_ids::id)
                .first(c)
                .await
                .optional())?;
            if let Some(id) = existing {
                return parse_id::<uuid::Uuid>("temporary id", &id);
            }
            on!(&mut *conn, |c| diesel::insert_into(
                pay_temporary_ids::table
            )
            .values((
                pay_temporary_ids::id.eq(temporary_id.to_string()),
                pay_temporary_ids::order_id.eq(&order),
                pay_temporary_ids::created_at.eq(at),
            ))
            .execute(c)
            .await)?;
            Ok(temporary_id)
        })
    })
    .await
    .map_err(|e| store_error(e, "recording a Lune Pay temporary id"))
}

pub(super) async fn order_of(
    db: &Db,
    temporary_id: uuid::Uuid,
    since: OffsetDateTime,
) -> Result<Option<OrderId>, StoreError> {
    let id = temporary_id.to_string();
    let since = to_sql_time(since);
    db.query(move |conn| {
        Box::pin(async move {
            let order: Option<String> = on!(conn, |c| pay_temporary_ids::table
                .filter(pay_temporary_ids::id.eq(&id))
                .filter(pay_temporary_ids::created_at.ge(since))
                .select(pay_temporary_ids::order_id)
                .first(c)
                .await
                .optional())?;
            order
                .map(|o| parse_id::<OrderId>("order id", &o))
                .transpose()
        })
    })
    .await
    .map_err(|e| store_error(e, "reading a Lune Pay temporary id"))
}
