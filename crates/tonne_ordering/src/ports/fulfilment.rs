//! The payment and registry adapters each mode uses, and the accounts ordering reads.

use async_trait::async_trait;
use tonne_kernel::StoreError;
use tonne_kernel::{AccountId, Currency};

use crate::orders::{Order, ProjectAllocation};
use crate::views::AccountHolder;

/// What a payment attempt decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentOutcome {
    /// Collected: the order becomes `paid`.
    Paid,
    /// Refused: the order becomes `failed`.
    Declined { reason: String },
}

/// Collects payment for an order about to become `paid`.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Collects (or confirms) payment of the order's total cost.
    async fn collect(&self, order: &Order) -> Result<PaymentOutcome, anyhow::Error>;
    /// Gives back what was taken or held for an order with a card processor's
    /// reference that is becoming `cancelled` or `failed`: a hold released, a
    /// captured payment refunded in full. Called before the transition, so a
    /// failure leaves the order where it was (and the step can be retried).
    async fn give_back(&self, order: &Order) -> Result<(), anyhow::Error>;
}

/// Retires credits at the carbon registry for an order about to become `retiring`.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait CarbonRegistry: Send + Sync {
    /// Retires each allocation; returns one serial number per allocation, in order
    /// (`None` while the registry has not issued one). `reference` is what the
    /// operator supplied, if anything.
    async fn retire(
        &self,
        order: &Order,
        projects: &[ProjectAllocation],
        reference: Option<String>,
    ) -> Result<Vec<Option<String>>, anyhow::Error>;
}

/// The payment and registry adapters used for one mode.
#[derive(Clone)]
pub struct Fulfilment {
    pub payments: std::sync::Arc<dyn PaymentGateway>,
    /// The registry.
    pub registry: std::sync::Arc<dyn CarbonRegistry>,
}

/// What ordering needs to know about accounts.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait AccountDirectory: Send + Sync {
    /// The account's currency, or `None` if there is no such account.
    async fn currency(&self, account: AccountId) -> Result<Option<Currency>, StoreError>;
    /// The account as certificates present it (name, beneficiary, logo), or
    /// `None` if there is no such account.
    async fn holder(&self, account: AccountId) -> Result<Option<AccountHolder>, StoreError>;
}
