//! The hosted pages' card step over Stripe (`tonne_links::ports::CardPayments`):
//! the confirmation page gets a SetupIntent's client secret, Stripe.js turns
//! the card typed into Stripe's frame into a PaymentMethod, and the order's
//! submit authorises the amount with it (a PaymentIntent with manual
//! capture) before the order is placed. Every write's idempotency key derives
//! from the checkout's, so a repeated submit — or one after a crash —
//! authorises once.

use std::collections::BTreeMap;

use async_trait::async_trait;
use tonne_kernel::{AccountMode, Money};
use tonne_links::ports::{Card, CardForm, CardOutcome, CardPayments, ProcessorForm};

use crate::client::StripeClient;
use crate::payment_intents::{IntentStatus, NewPaymentIntent, PaymentIntent};

/// Stripe for one mode's hosted pages.
#[derive(Debug, Clone)]
pub struct StripeCards {
    stripe: StripeClient,
    publishable_key: String,
    script_url: String,
}

impl StripeCards {
    /// Cards through `stripe`; the pages load Stripe.js from `script_url`
    /// with `publishable_key`.
    pub fn new(stripe: StripeClient, publishable_key: &str, script_url: &str) -> Self {
        Self {
            stripe,
            publishable_key: publishable_key.to_owned(),
            script_url: script_url.to_owned(),
        }
    }

    /// What a confirm answered, as the customer hears it.
    async fn outcome(&self, intent: PaymentIntent, key: &str) -> anyhow::Result<CardOutcome> {
        Ok(match intent.status {
            IntentStatus::RequiresCapture => CardOutcome::Authorised {
                reference: Some(intent.id),
            },
            IntentStatus::RequiresAction => {
                // 3-D Secure at this point would need the page back: the
                // hold is released and the customer told.
                self.stripe
                    .cancel_payment_intent(&intent.id, &format!("{key}-cancel"))
                    .await?;
                CardOutcome::Declined {
                    reason: "Your bank asks to confirm this payment in a way this page does not offer; nothing was charged. Try another card.".into(),
                }
            }
            other => anyhow::bail!("Stripe left the card's authorisation {other:?}"),
        })
    }
}

/// Scheme, host and port of an address (what a CSP names).
fn origin(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    Some(url.origin().ascii_serialization())
}

#[async_trait]
impl CardPayments for StripeCards {
    async fn form(
        &self,
        _mode: AccountMode,
        _amount: Money,
        key: &str,
    ) -> Result<CardForm, anyhow::Error> {
        let setup = self
            .stripe
            .create_setup_intent(&format!("{key}-setup"))
            .await?;
        let client_secret = setup
            .client_secret
            .ok_or_else(|| anyhow::anyhow!("Stripe gave the SetupIntent no client secret"))?;
        let origins = [
            origin(&self.script_url),
            origin(self.stripe.config.api_url.as_str()),
        ]
        .into_iter()
        .flatten()
        .fold(Vec::new(), |mut all, o| {
            if !all.contains(&o) {
                all.push(o);
            }
            all
        });
        Ok(CardForm::Processor(ProcessorForm {
            script_url: self.script_url.clone(),
            origins,
            publishable_key: self.publishable_key.clone(),
            client_secret,
        }))
    }

    async fn authorise(
        &self,
        _mode: AccountMode,
        amount: Money,
        card: Option<Card>,
        key: &str,
    ) -> Result<CardOutcome, anyhow::Error> {
        let Some(Card::PaymentMethod(payment_method)) = card else {
            return Ok(CardOutcome::Declined {
                reason: "Enter your card in the card field (it needs JavaScript on for this page)."
                    .into(),
            });
        };
        let intent = NewPaymentIntent {
            amount_minor: amount.minor(),
            currency: amount.currency().code().to_owned(),
            description: None,
            metadata: BTreeMap::from([("tonne_checkout".to_owned(), key.to_owned())]),
            payment_method: Some(payment_method),
        };
        let created = self
            .stripe
            .create_payment_intent(&intent, &format!("{key}-authorise"))
            .await?;
        if created.amount != intent.amount_minor
            || !created.currency.eq_ignore_ascii_case(&intent.currency)
        {
            anyhow::bail!(
                "Stripe's PaymentIntent {} is not for this checkout's amount",
                created.id
            );
        }
        if created.status == IntentStatus::RequiresCapture {
            // authorised by an earlier submit of the same checkout
            return self.outcome(created, key).await;
        }
        match self
            .stripe
            .confirm_payment_intent(&created.id, &format!("{key}-confirm"))
            .await
        {
            Ok(confirmed) => self.outcome(confirmed, key).await,
            Err(e) if e.is_card_declined() => Ok(CardOutcome::Declined {
                reason: "Your card was declined; nothing was charged.".into(),
            }),
            Err(e) => Err(e.into()),
        }
    }

    async fn release(&self, _mode: AccountMode, reference: &str) -> Result<(), anyhow::Error> {
        self.stripe
            .cancel_payment_intent(reference, &format!("{reference}-release"))
            .await?;
        Ok(())
    }
}
