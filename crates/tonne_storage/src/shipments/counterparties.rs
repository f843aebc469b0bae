//! Counterparties: read by id, found or created by an account's internal id.

use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_kernel::{AccountId, UuidV7Generator};
use tonne_shipments::{Counterparty, CounterpartyId};

use super::rows::{CounterpartyRow, counterparty};
use crate::db::Conn;
use crate::mapping::to_sql_time;
use crate::schema::shipment_counterparties as cp;

/// The account's counterparty by id (`None` for a text that is no id).
pub(super) async fn by_id(
    conn: &mut Conn,
    account: AccountId,
    id: &str,
) -> Result<Option<Counterparty>, DieselError> {
    let Ok(id) = id.parse::<CounterpartyId>() else {
        return Ok(None);
    };
    on!(conn, |c| cp::table
        .filter(cp::id.eq(id.to_string()))
        .filter(cp::account_id.eq(account.to_string()))
        .select((cp::id, cp::name))
        .first::<(String, String)>(c)
        .await)
    .optional()?
    .map(|(id, name)| counterparty(&id, name))
    .transpose()
}

/// The account's counterparty known by `internal_id`, created if new: an
/// insert that does nothing when another made it first (the unique index
/// decides, whoever races), then the one that exists.
pub(super) async fn by_internal_id(
    conn: &mut Conn,
    account: AccountId,
    internal_id: &str,
    name: Option<String>,
) -> Result<Counterparty, DieselError> {
    let account = account.to_string();
    let row = CounterpartyRow {
        id: CounterpartyId::generate(&UuidV7Generator).to_string(),
        account_id: account.clone(),
        internal_id: Some(internal_id.to_owned()),
        name: name.unwrap_or_else(|| internal_id.to_owned()),
        created_at: to_sql_time(OffsetDateTime::now_utc()),
    };
    let insert = diesel::insert_into(cp::table)
        .values(&row)
        .on_conflict((cp::account_id, cp::internal_id))
        .do_nothing();
    on!(&mut *conn, |c| insert.execute(c).await)?;
    let (id, name) = on!(conn, |c| cp::table
        .filter(cp::account_id.eq(&account))
        .filter(cp::internal_id.eq(internal_id))
        .select((cp::id, cp::name))
        .first::<(String, String)>(c)
        .await)?;
    counterparty(&id, name)
}
