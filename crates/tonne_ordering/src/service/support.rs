//! What every ordering use case shares: stamping a new order event.

use tonne_kernel::Clock;

use crate::orders::{NewEvent, OrderStatus};

/// A new event moving an order to `status`, now.
pub(super) fn event(clock: &dyn Clock, status: OrderStatus) -> NewEvent {
    NewEvent {
        event_id: uuid::Uuid::new_v4(),
        status,
        at: clock.now(),
    }
}
