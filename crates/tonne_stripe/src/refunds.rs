//! Refunds of a captured PaymentIntent.

use serde::Deserialize;

use crate::client::{StripeClient, checked_id};
use crate::error::StripeError;

/// A refund.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Refund {
    pub id: String,
    pub amount: i64,
    /// `succeeded`, `pending`, `failed`, …
    pub status: String,
}

impl StripeClient {
    /// Refunds a captured PaymentIntent in full.
    pub async fn refund_payment_intent(
        &self,
        payment_intent: &str,
        idempotency_key: &str,
    ) -> Result<Refund, StripeError> {
        let form = vec![(
            "payment_intent".to_owned(),
            checked_id(payment_intent)?.to_owned(),
        )];
        self.post("/v1/refunds", &form, idempotency_key).await
    }
}
