//! Use cases: the card processor's events, acted on once — a dispute puts
//! its order on hold — and the operator releasing a hold.

use super::lifecycle::Lifecycle;
use tonne_kernel::{Actor, AuditEntry, Snapshot};

use crate::errors::TransitionError;
use crate::orders::{Order, OrderId};
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

    pub(super) async fn release_hold(
        &self,
        id: &str,
        by: &Actor,
    ) -> Result<Order, TransitionError> {
        let id: OrderId = id.parse().map_err(|_| TransitionError::NotFound)?;
        let order = self.stored(id).await?;
        let Some(reason) = &order.held else {
            return Err(TransitionError::Illegal {
                from: order.status.as_str(),
                to: "released from a hold it does not have",
            });
        };
        let organisation = self
            .accounts
            .holder(order.account_id)
            .await
            .map_err(StoreError::unexpected)?
            .map(|h| h.organisation_id);
        let entry = AuditEntry::new(
            self.clock.now(),
            by.clone(),
            "order.hold_released",
            "order",
            order.id,
        )
        .before(Snapshot::new().with("held", reason))
        .after(Snapshot::new().with("held", "no"));
        let entry = match organisation {
            Some(o) => entry.in_organisation(o),
            None => entry,
        };
        self.orders
            .release_hold(order.id, entry)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(TransitionError::Conflict)
    }
}
