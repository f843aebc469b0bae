//! What every ordering use case shares: turning a store failure into an
//! unexpected error, and stamping a new order event.

use anyhow::anyhow;
use tonne_kernel::Clock;

use crate::orders::{NewEvent, OrderStatus};
use crate::ports::StoreError;

/// A store failure the use case has no answer for.
pub(super) fn unexpected(e: StoreError) -> anyhow::Error {
    match e {
        StoreError::Unexpected(e) => e,
        other => anyhow!(other),
    }
}

/// A new event moving an order to `status`, now.
pub(super) fn event(clock: &dyn Clock, status: OrderStatus) -> NewEvent {
    NewEvent {
        event_id: uuid::Uuid::new_v4(),
        status,
        at: clock.now(),
    }
}
