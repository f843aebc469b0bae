//! The transactional outbox: an order's event, and its allocations' events,
//! appended with the account's next gap-free sequence number on the
//! connection (and so in the transaction) of the change they announce.

use diesel::prelude::*;
use time::OffsetDateTime;
use tonne_ordering::{AllocationEvent, NewEvent, Order};
use tonne_wire::{AllocationEventData, OrderAllocationResponse, OrderEventData, OrderResponse};

use crate::db::error::{corrupt, encode_error};
use crate::db::{AnyConnection, sqlite_placeholders};
use crate::mapping::to_sql_time;
use crate::schema::order_events;

#[derive(QueryableByName)]
struct Sequence {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    last_sequence: i64,
}

/// The account's next event sequence number, in one statement: the counter
/// row is made at 1 or bumped (never failing on a concurrent first insert).
/// The row lock serialises concurrent writers of one account until their
/// transactions end, so numbers are gap-free and monotonic per account.
fn next_sequence(conn: &mut AnyConnection, account: &str) -> QueryResult<i64> {
    // An upsert with RETURNING is not in Diesel's multi-backend dialect: the
    // same SQL runs on the concrete connection (PostgreSQL; SQLite ≥ 3.35).
    const BUMP: &str = "INSERT INTO account_event_sequences (account_id, last_sequence) \
        VALUES ($1, 1) ON CONFLICT (account_id) \
        DO UPDATE SET last_sequence = account_event_sequences.last_sequence + 1 \
        RETURNING last_sequence";
    let bumped: Sequence = match conn {
        AnyConnection::Postgresql(c) => diesel::sql_query(BUMP)
            .bind::<diesel::sql_types::Text, _>(account)
            .get_result(c)?,
        AnyConnection::Sqlite(c) => diesel::sql_query(sqlite_placeholders(BUMP))
            .bind::<diesel::sql_types::Text, _>(account)
            .get_result(c)?,
    };
    Ok(bumped.last_sequence)
}

pub(crate) fn append_event(
    conn: &mut AnyConnection,
    order: &Order,
    event: &NewEvent,
) -> QueryResult<()> {
    let payload = serde_json::to_string(&OrderEventData {
        order: OrderResponse::from(order),
    })
    .map_err(encode_error)?;
    let event = Outgoing {
        event_id: event.event_id,
        event_type: event.status.event_type(),
        payload,
        at: event.at,
    };
    append(conn, order, &event)
}

/// Appends each allocation event after the order's own, with the allocation's
/// snapshot as `order` (the order after the change) has it; an allocation the
/// order does not have is an error (the transaction rolls back).
pub(crate) fn append_allocation_events(
    conn: &mut AnyConnection,
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
        append(conn, order, &event)?;
    }
    Ok(())
}

/// One outbox row to write: its type and its rendered `data`.
struct Outgoing {
    event_id: uuid::Uuid,
    event_type: &'static str,
    payload: String,
    at: OffsetDateTime,
}

fn append(conn: &mut AnyConnection, order: &Order, event: &Outgoing) -> QueryResult<()> {
    let account = order.account_id.to_string();
    let sequence = next_sequence(conn, &account)?;
    diesel::insert_into(order_events::table)
        .values((
            order_events::event_id.eq(event.event_id.simple().to_string()),
            order_events::event_type.eq(event.event_type),
            order_events::account_id.eq(account),
            order_events::sequence.eq(sequence),
            order_events::order_id.eq(order.id.to_string()),
            order_events::payload.eq(&event.payload),
            order_events::created_at.eq(to_sql_time(event.at)),
            order_events::traceparent.eq(tonne_telemetry::current_traceparent()),
        ))
        .execute(conn)?;
    Ok(())
}
