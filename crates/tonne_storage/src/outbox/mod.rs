//! The transactional outbox: an order's event, and its allocations' events,
//! appended with the account's next gap-free sequence number on the
//! connection (and so in the transaction) of the change they announce. The
//! rows (`row`) are written here in two statements; PostgreSQL's one (`pg`).

mod pg;
mod row;

pub(crate) use pg::append_event_pg;
use row::{Outgoing, order_event};

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;
use tonne_ordering::{AllocationEvent, NewEvent, Order};
use tonne_wire::{AllocationEventData, OrderAllocationResponse};

use crate::db::error::{corrupt, encode_error};
use crate::db::{Conn, KeepPrepared, sqlite_placeholders};
use crate::mapping::to_sql_time;
use crate::schema::order_events;

#[derive(QueryableByName)]
struct Sequence {
    #[diesel(sql_type = BigInt)]
    last_sequence: i64,
}

/// The account's next event sequence number, in one statement: the counter
/// row is made at 1 or bumped (never failing on a concurrent first insert).
/// The row lock serialises concurrent writers of one account until their
/// transactions end, so numbers are gap-free and monotonic per account.
const BUMP: &str = "INSERT INTO account_event_sequences (account_id, last_sequence) \
    VALUES ($1, 1) ON CONFLICT (account_id) \
    DO UPDATE SET last_sequence = account_event_sequences.last_sequence + 1 \
    RETURNING last_sequence";

/// Appends an order's event, announcing its new state.
pub(crate) async fn append_event(
    conn: &mut Conn,
    order: &Order,
    event: &NewEvent,
) -> QueryResult<()> {
    append(conn, order, &order_event(order, event)?).await
}

/// Appends each allocation event after the order's own, with the allocation's
/// snapshot as `order` (the order after the change) has it; an allocation the
/// order does not have is an error (the transaction rolls back).
pub(crate) async fn append_allocation_events(
    conn: &mut Conn,
    order: &Order,
    events: &[AllocationEvent],
) -> QueryResult<()> {
    for event in events {
        let allocation = order
            .projects
            .iter()
            .find(|p| p.id == event.allocation)
            .ok_or_else(|| corrupt("allocation", &event.allocation.to_string()))?;
        let payload = serde_json::to_string(&AllocationEventData {
            allocation: OrderAllocationResponse::of(order.id, allocation, event.status),
        })
        .map_err(encode_error)?;
        let event = Outgoing {
            event_id: event.event_id,
            event_type: event.status.event_type(),
            payload,
            at: event.at,
        };
        append(&mut *conn, order, &event).await?;
    }
    Ok(())
}

/// One round trip on PostgreSQL (the sequence and the event in one
/// statement), two on SQLite (which has no `INSERT` in a `WITH`).
async fn append(conn: &mut Conn, order: &Order, event: &Outgoing) -> QueryResult<()> {
    match conn {
        Conn::Pg(c) => pg::append(c, order, event).await,
        Conn::Sqlite(_) => {
            append_sqlite(
                conn,
                &order.account_id.to_string(),
                &order.id.to_string(),
                event,
            )
            .await
        }
    }
}

/// Appends an event that is not an order's (`invoice.issued`) to the
/// account's outbox: `subject` fills the outbox's order column (an order the
/// event concerns), `payload` is its rendered `data`.
pub(crate) async fn append_raw(
    conn: &mut Conn,
    account: &str,
    subject: &str,
    event_type: &'static str,
    payload: String,
    at: OffsetDateTime,
) -> QueryResult<()> {
    let event = Outgoing {
        event_id: uuid::Uuid::new_v4(),
        event_type,
        payload,
        at,
    };
    match conn {
        Conn::Pg(c) => pg::bump_and_append(c, account, subject, &event).await,
        Conn::Sqlite(_) => append_sqlite(conn, account, subject, &event).await,
    }
}

async fn append_sqlite(
    conn: &mut Conn,
    account: &str,
    subject: &str,
    event: &Outgoing,
) -> QueryResult<()> {
    let Conn::Sqlite(c) = conn else {
        return Err(diesel::result::Error::BrokenTransactionManager);
    };
    let event_id = event.event_id.simple().to_string();
    let at = to_sql_time(event.at);
    let traceparent = tonne_telemetry::current_traceparent();
    let c = &mut **c;
    let sequence = diesel::sql_query(sqlite_placeholders(BUMP))
        .bind::<Text, _>(account)
        .kept()
        .get_result::<Sequence>(&mut *c)
        .await?
        .last_sequence;
    diesel::insert_into(order_events::table)
        .values((
            order_events::event_id.eq(event_id),
            order_events::event_type.eq(event.event_type),
            order_events::account_id.eq(account),
            order_events::sequence.eq(sequence),
            order_events::order_id.eq(subject),
            order_events::payload.eq(&event.payload),
            order_events::created_at.eq(at),
            order_events::traceparent.eq(traceparent),
        ))
        .execute(c)
        .await?;
    Ok(())
}
