//! PostgreSQL's road: the sequence number taken and the event appended in
//! one statement, which can go out with the transaction's others.

use diesel::QueryResult;
use diesel::sql_types::{Nullable, Text, Timestamp};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use tonne_ordering::{NewEvent, Order};

use super::row::{Outgoing, order_event};
use crate::db::KeepPrepared;
use crate::mapping::to_sql_time;

/// PostgreSQL takes the number and appends the event in one statement.
const BUMP_AND_APPEND: &str = "WITH s AS (\
    INSERT INTO account_event_sequences (account_id, last_sequence) \
    VALUES ($1, 1) ON CONFLICT (account_id) \
    DO UPDATE SET last_sequence = account_event_sequences.last_sequence + 1 \
    RETURNING last_sequence) \
    INSERT INTO order_events \
    (event_id, event_type, account_id, sequence, order_id, payload, created_at, traceparent) \
    SELECT $2, $3, $1, s.last_sequence, $4, $5, $6, $7 FROM s";

/// [`append_event`](super::append_event) on PostgreSQL, on a shared connection: its statement can
/// go out with the transaction's others.
pub(crate) async fn append_event_pg(
    c: &AsyncPgConnection,
    order: &Order,
    event: &NewEvent,
) -> QueryResult<()> {
    append(c, order, &order_event(order, event)?).await
}

/// An order's event.
pub(super) async fn append(
    c: &AsyncPgConnection,
    order: &Order,
    event: &Outgoing,
) -> QueryResult<()> {
    bump_and_append(
        c,
        &order.account_id.to_string(),
        &order.id.to_string(),
        event,
    )
    .await
}

/// An event of `subject` in `account`'s outbox.
pub(super) async fn bump_and_append(
    c: &AsyncPgConnection,
    account: &str,
    subject: &str,
    event: &Outgoing,
) -> QueryResult<()> {
    diesel::sql_query(BUMP_AND_APPEND)
        .bind::<Text, _>(account)
        .bind::<Text, _>(event.event_id.simple().to_string())
        .bind::<Text, _>(event.event_type)
        .bind::<Text, _>(subject)
        .bind::<Text, _>(&event.payload)
        .bind::<Timestamp, _>(to_sql_time(event.at))
        .bind::<Nullable<Text>, _>(tonne_telemetry::current_traceparent())
        .kept()
        .execute(&mut &*c)
        .await
        .map(drop)
}
