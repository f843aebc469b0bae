//! Use case: hosted-page orders nobody confirmed within the hold are cancelled,
//! so that the stock they reserved returns to the catalogue.

use tonne_ordering::TransitionError;

use crate::ports::StoreError;

use super::OffsetLinks;

impl OffsetLinks {
    /// Cancels, through the ordering domain (one transition each: status,
    /// released stock and `order.cancelled` event together), the link orders
    /// still `received` after `Settings::hold`; at most `limit`. An order that
    /// moved on meanwhile (an operator confirmed it) is left alone.
    pub(super) async fn expire(&self, limit: u32) -> Result<usize, anyhow::Error> {
        let before = self.clock.now() - self.settings.hold;
        let due = self
            .links
            .unconfirmed_orders(before, limit)
            .await
            .map_err(StoreError::unexpected)?;
        let mut cancelled = 0;
        for id in due {
            match self.ordering.cancel_unconfirmed(id).await {
                Ok(_) => cancelled += 1,
                // confirmed, cancelled by someone else, or gone: nothing to return
                Err(
                    TransitionError::Illegal { .. }
                    | TransitionError::Conflict
                    | TransitionError::NotFound
                    | TransitionError::OnHold(_),
                ) => {}
                Err(TransitionError::Unexpected(e)) => return Err(e),
                // a cancellation names no serial
                Err(e @ TransitionError::InvalidSerial(_)) => return Err(e.into()),
            }
        }
        Ok(cancelled)
    }
}
