//! The payment and registry adapters of each mode. With Stripe connected for
//! a mode (`TONNE_STRIPE_*`), its hosted pages take cards through Stripe and
//! card orders are captured there; otherwise live payments are confirmed by
//! the operator (`tonne orders advance` to `paid`) and test ones simulated.
//! Carbon registries are outside Tonne: the operator records live serials.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{AccountMode, Money};
use tonne_links::{Card, CardForm, CardOutcome};
use tonne_ordering::ports::{CarbonRegistry, Fulfilment, PaymentGateway, PaymentOutcome};
use tonne_ordering::{Order, ProjectAllocation};

/// Live payments confirmed by the operator: running `tonne orders advance` to
/// `paid` is the confirmation that the money arrived.
struct OperatorConfirmedPayments;

#[async_trait]
impl PaymentGateway for OperatorConfirmedPayments {
    async fn collect(&self, _order: &Order) -> Result<PaymentOutcome, anyhow::Error> {
        Ok(PaymentOutcome::Paid)
    }

    /// Money paid outside Tonne goes back outside Tonne.
    async fn give_back(&self, _order: &Order) -> Result<(), anyhow::Error> {
        Ok(())
    }
}

/// Live retirements recorded by the operator: the serial given with
/// `--registry-serial S` becomes `S-1`, `S-2`, … per project; without one the
/// serials stay unknown.
struct OperatorRecordedRegistry;

#[async_trait]
impl CarbonRegistry for OperatorRecordedRegistry {
    async fn retire(
        &self,
        _order: &Order,
        projects: &[ProjectAllocation],
        reference: Option<String>,
    ) -> Result<Vec<Option<String>>, anyhow::Error> {
        Ok((1..=projects.len())
            .map(|n| reference.as_ref().map(|r| format!("{r}-{n}")))
            .collect())
    }
}

/// Test mode: every payment succeeds.
struct SimulatedPayments;

#[async_trait]
impl PaymentGateway for SimulatedPayments {
    async fn collect(&self, _order: &Order) -> Result<PaymentOutcome, anyhow::Error> {
        Ok(PaymentOutcome::Paid)
    }

    async fn give_back(&self, _order: &Order) -> Result<(), anyhow::Error> {
        Ok(())
    }
}

/// Test mode: serials `TEST-<first 8 of the order id>-<n>`, plainly not real.
struct SimulatedRegistry;

#[async_trait]
impl CarbonRegistry for SimulatedRegistry {
    async fn retire(
        &self,
        order: &Order,
        projects: &[ProjectAllocation],
        _reference: Option<String>,
    ) -> Result<Vec<Option<String>>, anyhow::Error> {
        let short = order
            .id
            .to_string()
            .chars()
            .take(8)
            .collect::<String>()
            .to_uppercase();
        Ok((1..=projects.len())
            .map(|n| Some(format!("TEST-{short}-{n}")))
            .collect())
    }
}

/// Stripe for one mode: its client, and what the hosted page loads.
#[derive(Debug, Clone)]
pub struct StripeMode {
    /// The client over the mode's secret key.
    pub client: tonne_stripe::StripeClient,
    /// The mode's publishable key (Stripe.js on the page).
    pub publishable_key: String,
    /// Where the page loads Stripe.js from.
    pub js_url: String,
}

/// The card processors connected, per mode (`None`: the built-in behaviour —
/// operator confirmation in live mode, the simulator in test mode).
#[derive(Debug, Clone, Default)]
pub struct CardProcessors {
    /// Live mode's Stripe.
    pub live: Option<StripeMode>,
    /// Test mode's Stripe.
    pub test: Option<StripeMode>,
    /// The signing secrets of Stripe's webhook endpoints (live, test).
    pub webhook_secrets: Vec<String>,
}

impl CardProcessors {
    /// How a mode's hosted-page orders are paid, as the console says it.
    pub fn describe(&self, mode: AccountMode) -> &'static str {
        let stripe = match mode {
            AccountMode::Live => self.live.is_some(),
            AccountMode::Test => self.test.is_some(),
        };
        match (stripe, mode) {
            (true, _) => {
                "by card through Stripe (authorised on the page, captured when the order is placed)"
            }
            (false, AccountMode::Live) => "confirmed by the operator (no card processor connected)",
            (false, AccountMode::Test) => "by the built-in test card simulator",
        }
    }
}

/// The live and test adapters, and the hosted pages' card step.
pub fn adapters(
    processors: &CardProcessors,
) -> (
    Fulfilment,
    Fulfilment,
    Arc<dyn tonne_links::ports::CardPayments>,
) {
    let gateway = |stripe: &Option<StripeMode>,
                   otherwise: Arc<dyn PaymentGateway>|
     -> Arc<dyn PaymentGateway> {
        match stripe {
            Some(s) => Arc::new(tonne_stripe::StripeGateway::new(
                s.client.clone(),
                otherwise,
            )),
            None => otherwise,
        }
    };
    let cards = |stripe: &Option<StripeMode>| -> Arc<dyn tonne_links::ports::CardPayments> {
        match stripe {
            Some(s) => Arc::new(tonne_stripe::StripeCards::new(
                s.client.clone(),
                &s.publishable_key,
                &s.js_url,
            )),
            None => Arc::new(BuiltInCards),
        }
    };
    (
        Fulfilment {
            payments: gateway(&processors.live, Arc::new(OperatorConfirmedPayments)),
            registry: Arc::new(OperatorRecordedRegistry),
        },
        Fulfilment {
            payments: gateway(&processors.test, Arc::new(SimulatedPayments)),
            registry: Arc::new(SimulatedRegistry),
        },
        Arc::new(CardsByMode {
            live: cards(&processors.live),
            test: cards(&processors.test),
        }),
    )
}

/// The card step of each mode.
struct CardsByMode {
    live: Arc<dyn tonne_links::ports::CardPayments>,
    test: Arc<dyn tonne_links::ports::CardPayments>,
}

impl CardsByMode {
    fn of(&self, mode: AccountMode) -> &dyn tonne_links::ports::CardPayments {
        match mode {
            AccountMode::Live => self.live.as_ref(),
            AccountMode::Test => self.test.as_ref(),
        }
    }
}

#[async_trait]
impl tonne_links::ports::CardPayments for CardsByMode {
    async fn form(
        &self,
        mode: AccountMode,
        amount: Money,
        key: &str,
    ) -> Result<CardForm, anyhow::Error> {
        self.of(mode).form(mode, amount, key).await
    }

    async fn authorise(
        &self,
        mode: AccountMode,
        amount: Money,
        card: Option<Card>,
        key: &str,
    ) -> Result<CardOutcome, anyhow::Error> {
        self.of(mode).authorise(mode, amount, card, key).await
    }

    async fn release(&self, mode: AccountMode, reference: &str) -> Result<(), anyhow::Error> {
        self.of(mode).release(mode, reference).await
    }
}

/// The hosted pages' card step without a card processor. Test mode simulates
/// one with the usual test numbers: `4242 4242 4242 4242` (and any other number
/// passing the Luhn check) is authorised, `4000 0000 0000 0002` is declined, a
/// malformed number is refused. Live mode collects no card: the order is placed
/// and waits for the operator to confirm payment (`tonne orders advance --to paid`).
/// Stripe (`tonne_stripe`) replaces it for a mode it is connected for; see
/// docs/offset-links.md.
pub struct BuiltInCards;

/// The Luhn check of a card number (digits only).
fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                let twice = d * 2;
                if twice > 9 { twice - 9 } else { twice }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[async_trait]
impl tonne_links::ports::CardPayments for BuiltInCards {
    async fn form(
        &self,
        mode: AccountMode,
        _amount: Money,
        _key: &str,
    ) -> Result<CardForm, anyhow::Error> {
        Ok(match mode {
            AccountMode::Live => CardForm::Operator,
            AccountMode::Test => CardForm::Number,
        })
    }

    async fn authorise(
        &self,
        mode: AccountMode,
        _amount: Money,
        card: Option<Card>,
        _key: &str,
    ) -> Result<CardOutcome, anyhow::Error> {
        if mode == AccountMode::Live {
            return Ok(CardOutcome::AwaitingOperator);
        }
        let Some(Card::Number(n)) = card else {
            return Ok(CardOutcome::Declined {
                reason: "Enter a card number.".into(),
            });
        };
        let n = n.as_str();
        Ok(
            if !(12..=19).contains(&n.len()) || !n.bytes().all(|b| b.is_ascii_digit()) || !luhn(n) {
                CardOutcome::Declined {
                    reason: "The card number is not valid.".into(),
                }
            } else if n == "4000000000000002" {
                CardOutcome::Declined {
                    reason: "Your card was declined; nothing was charged.".into(),
                }
            } else {
                CardOutcome::Authorised { reference: None }
            },
        )
    }

    async fn release(&self, _mode: AccountMode, _reference: &str) -> Result<(), anyhow::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use tonne_kernel::Currency;
    use tonne_links::ports::CardPayments as _;

    use super::*;

    #[tokio::test]
    async fn test_cards_follow_the_usual_numbers_and_live_waits_for_the_operator() {
        let amount = Money::from_minor(100, Currency::Gbp);
        let try_card = |n: &str| Some(Card::Number(n.into()));
        let cards = BuiltInCards;
        let ok = cards.authorise(AccountMode::Test, amount, try_card("4242424242424242"), "k");
        assert_eq!(
            ok.await.unwrap(),
            CardOutcome::Authorised { reference: None }
        );
        let declined =
            cards.authorise(AccountMode::Test, amount, try_card("4000000000000002"), "k");
        assert!(matches!(
            declined.await.unwrap(),
            CardOutcome::Declined { .. }
        ));
        let bad = cards.authorise(AccountMode::Test, amount, try_card("4242424242424241"), "k");
        assert!(matches!(bad.await.unwrap(), CardOutcome::Declined { .. }));
        let none = cards.authorise(AccountMode::Test, amount, None, "k");
        assert!(matches!(none.await.unwrap(), CardOutcome::Declined { .. }));
        let live = cards.authorise(AccountMode::Live, amount, None, "k");
        assert_eq!(live.await.unwrap(), CardOutcome::AwaitingOperator);
    }
}
