//! Use case: the card processor's events, acted on once — a dispute puts
//! its order on hold.

use super::lifecycle::Lifecycle;
use crate::ports::StoreError;
use crate::{DISPUTE_HOLD, PaymentEvent, PaymentEventApplied};

impl Lifecycle {
    pub(super) async fn payment_event(
        &self,
        event: PaymentEvent,
    ) -> Result<PaymentEventApplied, anyhow::Error> {
        let hold = event
            .disputed_payment
            .map(|payment| (payment, DISPUTE_HOLD.to_owned()));
        let applied = self
            .orders
            .apply_payment_event(&event.id, &event.kind, self.clock.now(), hold)
            .await
            .map_err(StoreError::unexpected)?;
        if let PaymentEventApplied::New { held: Some(order) } = &applied {
            tracing::warn!(%order, "a card payment is disputed: the order is on hold");
        }
        Ok(applied)
    }
}
