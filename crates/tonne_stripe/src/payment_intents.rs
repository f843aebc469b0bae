//! PaymentIntents with manual capture: created when the hosted page asks
//! for a card, authorised in the browser by Stripe.js, captured when the
//! order becomes `paid`, cancelled when it is `cancelled` before that.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::client::{StripeClient, checked_id};
use crate::error::StripeError;

/// What a PaymentIntent is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPaymentIntent {
    /// In the currency's smallest unit (cents), as Stripe counts.
    pub amount_minor: i64,
    /// ISO 4217, any case (sent lower case).
    pub currency: String,
    /// Shown in Stripe's dashboard and receipts (`None`: not sent; the
    /// `localstripe` fake refuses the field).
    pub description: Option<String>,
    /// Kept by Stripe and echoed in webhook events (Tonne's references).
    pub metadata: BTreeMap<String, String>,
    /// The card to authorise, when Stripe.js already made its PaymentMethod
    /// (`pm_…`); the intent is then confirmed with `confirm_payment_intent`.
    pub payment_method: Option<String>,
}

/// A PaymentIntent's state, as Stripe names it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntentStatus {
    RequiresPaymentMethod,
    RequiresConfirmation,
    RequiresAction,
    Processing,
    /// Authorised: the amount is held on the card until captured.
    RequiresCapture,
    Canceled,
    Succeeded,
    /// A status this adapter does not know.
    #[serde(other)]
    Other,
}

/// A PaymentIntent.
#[derive(Clone, PartialEq, Eq, Deserialize)]
pub struct PaymentIntent {
    pub id: String,
    pub status: IntentStatus,
    pub amount: i64,
    pub currency: String,
    /// The secret Stripe.js confirms the intent with in the browser (given
    /// to the page, never logged).
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
}

impl std::fmt::Debug for PaymentIntent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentIntent")
            .field("id", &self.id)
            .field("status", &self.status)
            .field("amount", &self.amount)
            .field("currency", &self.currency)
            .field(
                "client_secret",
                &self.client_secret.as_ref().map(|_| "[redacted]"),
            )
            .field("metadata", &self.metadata)
            .finish()
    }
}

impl StripeClient {
    /// Creates a card PaymentIntent to be captured later.
    pub async fn create_payment_intent(
        &self,
        intent: &NewPaymentIntent,
        idempotency_key: &str,
    ) -> Result<PaymentIntent, StripeError> {
        if intent.amount_minor <= 0 {
            return Err(StripeError::Config("the amount must be positive".into()));
        }
        let mut form = vec![
            ("amount".to_owned(), intent.amount_minor.to_string()),
            ("currency".to_owned(), intent.currency.to_ascii_lowercase()),
            ("capture_method".to_owned(), "manual".to_owned()),
            ("payment_method_types[]".to_owned(), "card".to_owned()),
        ];
        if let Some(d) = &intent.description {
            form.push(("description".to_owned(), d.clone()));
        }
        if let Some(pm) = &intent.payment_method {
            form.push(("payment_method".to_owned(), checked_id(pm)?.to_owned()));
        }
        for (k, v) in &intent.metadata {
            form.push((format!("metadata[{k}]"), v.clone()));
        }
        self.post("/v1/payment_intents", &form, idempotency_key)
            .await
    }

    /// The PaymentIntent as Stripe holds it now.
    pub async fn payment_intent(&self, id: &str) -> Result<PaymentIntent, StripeError> {
        self.get(&format!("/v1/payment_intents/{}", checked_id(id)?))
            .await
    }

    /// Confirms a PaymentIntent with its PaymentMethod: a card is authorised
    /// (`RequiresCapture`), declined (an error `is_card_declined`), or asks
    /// for the customer's authentication (`RequiresAction`).
    pub async fn confirm_payment_intent(
        &self,
        id: &str,
        idempotency_key: &str,
    ) -> Result<PaymentIntent, StripeError> {
        let path = format!("/v1/payment_intents/{}/confirm", checked_id(id)?);
        self.post(&path, &[], idempotency_key).await
    }

    /// Captures an authorised PaymentIntent in full.
    pub async fn capture_payment_intent(
        &self,
        id: &str,
        idempotency_key: &str,
    ) -> Result<PaymentIntent, StripeError> {
        let path = format!("/v1/payment_intents/{}/capture", checked_id(id)?);
        self.post(&path, &[], idempotency_key).await
    }

    /// Cancels a PaymentIntent not captured yet: the hold on the card is
    /// released.
    pub async fn cancel_payment_intent(
        &self,
        id: &str,
        idempotency_key: &str,
    ) -> Result<PaymentIntent, StripeError> {
        let path = format!("/v1/payment_intents/{}/cancel", checked_id(id)?);
        self.post(&path, &[], idempotency_key).await
    }
}
