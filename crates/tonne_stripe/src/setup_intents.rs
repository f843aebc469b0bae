//! SetupIntents: how the hosted page's Stripe.js turns the card typed into
//! Stripe's own frame into a PaymentMethod (`confirmCardSetup`), so that the
//! server then authorises the order's amount with it and the card never
//! reaches Tonne.

use serde::Deserialize;

use crate::client::{StripeClient, checked_id};
use crate::error::StripeError;

/// A SetupIntent.
#[derive(Clone, PartialEq, Eq, Deserialize)]
pub struct SetupIntent {
    pub id: String,
    /// `requires_payment_method`, `succeeded`, …
    pub status: String,
    /// The secret Stripe.js confirms the intent with in the browser (given to
    /// the page, never logged).
    #[serde(default)]
    pub client_secret: Option<String>,
    /// The PaymentMethod made once it succeeded.
    #[serde(default)]
    pub payment_method: Option<String>,
}

impl std::fmt::Debug for SetupIntent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetupIntent")
            .field("id", &self.id)
            .field("status", &self.status)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("payment_method", &self.payment_method)
            .finish()
    }
}

impl StripeClient {
    /// Creates a SetupIntent for one card used while the customer is on the
    /// page (`usage=on_session`).
    pub async fn create_setup_intent(
        &self,
        idempotency_key: &str,
    ) -> Result<SetupIntent, StripeError> {
        let form = [
            ("usage".to_owned(), "on_session".to_owned()),
            ("payment_method_types[]".to_owned(), "card".to_owned()),
        ];
        self.post("/v1/setup_intents", &form, idempotency_key).await
    }

    /// The SetupIntent as Stripe holds it now.
    pub async fn setup_intent(&self, id: &str) -> Result<SetupIntent, StripeError> {
        self.get(&format!("/v1/setup_intents/{}", checked_id(id)?))
            .await
    }
}
