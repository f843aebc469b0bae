//! What a card processor tells about payments after the fact, as the
//! ordering domain acts on it: each event once (by the processor's event
//! id), and a disputed payment's order put on hold.

use crate::OrderId;

/// An event from the card processor (Stripe), already authenticated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentEvent {
    /// The processor's event id (`evt_…`): an event delivered twice acts once.
    pub id: String,
    /// Its type (`charge.dispute.created`, …), kept for the record.
    pub kind: String,
    /// The payment (a PaymentIntent id, an order's `payment_reference`) whose
    /// charge the customer disputes, for a new dispute.
    pub disputed_payment: Option<String>,
}

/// The hold a dispute puts on an order.
pub const DISPUTE_HOLD: &str = "the card payment is disputed";

/// What recording an event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentEventApplied {
    /// Seen before: nothing done.
    Repeated,
    /// Recorded; the order put on hold, if the event disputed one of them.
    New {
        /// The order now on hold.
        held: Option<OrderId>,
    },
}
