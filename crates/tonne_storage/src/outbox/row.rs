//! One outbox row to write, and an order's event rendered as one.

use diesel::QueryResult;
use time::OffsetDateTime;
use tonne_ordering::{NewEvent, Order};
use tonne_wire::{OrderEventData, OrderResponse};

use crate::db::error::encode_error;

/// One outbox row to write: its type and its rendered `data`.
pub(super) struct Outgoing {
    pub(super) event_id: uuid::Uuid,
    pub(super) event_type: &'static str,
    pub(super) payload: String,
    pub(super) at: OffsetDateTime,
}

/// An order's event: the order as it is after the change.
pub(super) fn order_event(order: &Order, event: &NewEvent) -> QueryResult<Outgoing> {
    let payload = serde_json::to_string(&OrderEventData {
        order: OrderResponse::from(order),
    })
    .map_err(encode_error)?;
    Ok(Outgoing {
        event_id: event.event_id,
        event_type: event.status.event_type(),
        payload,
        at: event.at,
    })
}
