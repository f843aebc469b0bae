//! The built-in payment and registry adapters. Real payment providers and carbon
//! registries are outside Tonne: for live orders the operator is the adapter
//! (`tonne orders advance` confirms a payment and records the registry's serial);
//! test orders use a simulation.

use std::sync::Arc;

use async_trait::async_trait;
use tonne_kernel::{AccountMode, Money};
use tonne_links::{Card, CardOutcome};
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

/// The live and test adapters.
pub fn built_in() -> (Fulfilment, Fulfilment) {
    (
        Fulfilment {
            payments: Arc::new(OperatorConfirmedPayments),
            registry: Arc::new(OperatorRecordedRegistry),
        },
        Fulfilment {
            payments: Arc::new(SimulatedPayments),
            registry: Arc::new(SimulatedRegistry),
        },
    )
}

/// The hosted pages' card step without a card processor. Test mode simulates
/// one with the usual test numbers: `4242 4242 4242 4242` (and any other number
/// passing the Luhn check) is authorised, `4000 0000 0000 0002` is declined, a
/// malformed number is refused. Live mode collects no card: the order is placed
/// and waits for the operator to confirm payment (`tonne orders advance --to paid`).
/// A real provider implements `tonne_links::ports::CardPayments` (authorise on
/// the page) and `PaymentGateway` (capture on `paid`); see docs/offset-links.md.
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
    async fn authorise(
        &self,
        mode: AccountMode,
        _amount: Money,
        card: Option<Card>,
    ) -> Result<CardOutcome, anyhow::Error> {
        if mode == AccountMode::Live {
            return Ok(CardOutcome::AwaitingOperator);
        }
        let Some(card) = card else {
            return Ok(CardOutcome::Declined {
                reason: "Enter a card number.".into(),
            });
        };
        let n = card.number.as_str();
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
                CardOutcome::Authorised
            },
        )
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
        let try_card = |n: &str| Some(Card { number: n.into() });
        let cards = BuiltInCards;
        let ok = cards.authorise(AccountMode::Test, amount, try_card("4242424242424242"));
        assert_eq!(ok.await.unwrap(), CardOutcome::Authorised);
        let declined = cards.authorise(AccountMode::Test, amount, try_card("4000000000000002"));
        assert!(matches!(
            declined.await.unwrap(),
            CardOutcome::Declined { .. }
        ));
        let bad = cards.authorise(AccountMode::Test, amount, try_card("4242424242424241"));
        assert!(matches!(bad.await.unwrap(), CardOutcome::Declined { .. }));
        let none = cards.authorise(AccountMode::Test, amount, None);
        assert!(matches!(none.await.unwrap(), CardOutcome::Declined { .. }));
        let live = cards.authorise(AccountMode::Live, amount, None);
        assert_eq!(live.await.unwrap(), CardOutcome::AwaitingOperator);
    }
}
