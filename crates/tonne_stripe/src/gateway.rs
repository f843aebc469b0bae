//! Collecting an order over Stripe (`tonne_ordering::ports::PaymentGateway`):
//! an order whose card the hosted page authorised is captured when it becomes
//! `paid`, and given back — its hold released, or its payment refunded in
//! full — when it becomes `cancelled` or `failed`; any other order is left to
//! the mode's other gateway (the operator's confirmation, or the test
//! simulation).

use std::sync::Arc;

use async_trait::async_trait;
use tonne_ordering::ports::{PaymentGateway, PaymentOutcome};
use tonne_ordering::{Order, PaymentMethod};

use crate::client::StripeClient;
use crate::payment_intents::IntentStatus;

/// Captures card-authorised orders; hands the rest to `otherwise`.
pub struct StripeGateway {
    stripe: StripeClient,
    otherwise: Arc<dyn PaymentGateway>,
}

impl StripeGateway {
    /// Captures through `stripe`, other orders through `otherwise`.
    pub fn new(stripe: StripeClient, otherwise: Arc<dyn PaymentGateway>) -> Self {
        Self { stripe, otherwise }
    }
}

#[async_trait]
impl PaymentGateway for StripeGateway {
    async fn collect(&self, order: &Order) -> Result<PaymentOutcome, anyhow::Error> {
        let Some(intent) = order
            .payment_reference
            .as_deref()
            .filter(|_| order.payment_method == PaymentMethod::Card)
        else {
            return self.otherwise.collect(order).await;
        };
        let captured = self
            .stripe
            .capture_payment_intent(intent, &format!("order-{}-capture", order.id))
            .await;
        let status = match captured {
            Ok(i) => i.status,
            Err(e) if e.is_card_declined() => {
                return Ok(PaymentOutcome::Declined {
                    reason: "the card's capture was declined".into(),
                });
            }
            // captured before (a retry after a lost answer), or gone meanwhile
            Err(_) => self.stripe.payment_intent(intent).await?.status,
        };
        Ok(match status {
            IntentStatus::Succeeded => PaymentOutcome::Paid,
            IntentStatus::Canceled => PaymentOutcome::Declined {
                reason: "the card's authorisation was cancelled or expired".into(),
            },
            other => anyhow::bail!("Stripe left the capture of {intent} {other:?}"),
        })
    }

    async fn give_back(&self, order: &Order) -> Result<(), anyhow::Error> {
        let Some(intent) = order.payment_reference.as_deref() else {
            return self.otherwise.give_back(order).await;
        };
        match self.stripe.payment_intent(intent).await?.status {
            IntentStatus::Canceled => {}
            IntentStatus::Succeeded => {
                self.stripe
                    .refund_payment_intent(intent, &format!("order-{}-refund", order.id))
                    .await?;
            }
            _ => {
                self.stripe
                    .cancel_payment_intent(intent, &format!("order-{}-release", order.id))
                    .await?;
            }
        }
        Ok(())
    }
}
