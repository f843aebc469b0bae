//! The built-in payment and registry adapters. Real payment providers and carbon
//! registries are outside Tonne: for live orders the operator is the adapter
//! (`tonne orders advance` confirms a payment and records the registry's serial);
//! test orders use a simulation.

use std::sync::Arc;

use async_trait::async_trait;
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
