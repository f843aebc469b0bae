//! The orders' storage port (orders, their outbox, payment events).

use async_trait::async_trait;
use time::OffsetDateTime;
use tonne_kernel::StoreError;
use tonne_kernel::{AccountId, AuditEntry, Cursor, Page, PageRequest};

use crate::allocation_events::AllocationEvent;
use crate::errors::PlaceError;
use crate::orders::{
    AwaitingFilter, IdempotencyKey, NewEvent, Order, OrderId, OrderStatus, ProjectAllocation,
    RetirementRecord,
};
use crate::stats::OrderStats;

/// Storage of orders and their event outbox.
#[cfg_attr(any(test, feature = "mock"), mockall::automock)]
#[async_trait]
pub trait OrderRepository: Send + Sync {
    /// In one transaction: reserves inventory for each line (a conditional update
    /// that never takes a bundle below zero; a line it cannot cover is flagged
    /// `insufficient_available_quantity` and reserves nothing), inserts the order
    /// and its lines, and appends the `event` to the outbox with the account's next
    /// sequence number and the final order as its snapshot. Returns the order as
    /// stored. MUST return `IdempotencyKeyTaken` when the account already has an
    /// order with the same idempotency key, and `EstimateAlreadyOrdered` when the
    /// order names an estimate that is ordered already or whose mass is no longer
    /// the order's (the store's constraints decide, inside the transaction, not a read;
    /// when both apply, the key is named).
    async fn place(&self, order: &Order, event: NewEvent) -> Result<Order, PlaceError>;
    /// The order, or `None`.
    async fn get(&self, id: OrderId) -> Result<Option<Order>, StoreError>;
    /// The account's order with this idempotency key, or `None`.
    async fn by_idempotency_key(
        &self,
        account: AccountId,
        key: &IdempotencyKey,
    ) -> Result<Option<Order>, StoreError>;
    /// The account's orders, most recent first, strictly after the cursor order.
    /// MUST return `NotFound` when the cursor names no order of the account.
    async fn list(
        &self,
        account: AccountId,
        offset_link_id: Option<String>,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError>;
    /// Live orders in the filter's statuses, of every account (or the filter's
    /// organisation's), most recent first, strictly after the cursor order.
    /// MUST return `NotFound` when the cursor names no such order.
    async fn awaiting(
        &self,
        filter: AwaitingFilter,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError>;
    /// An organisation's orders of one mode (every account and client account of
    /// it), most recent first, strictly after the cursor order. MUST return
    /// `NotFound` when the cursor names no such order.
    async fn of_organisation(
        &self,
        organisation: tonne_kernel::OrganisationId,
        mode: tonne_kernel::AccountMode,
        page: &PageRequest<Cursor>,
    ) -> Result<Page<Order>, StoreError>;
    /// The order, if one of the organisation's accounts placed it.
    async fn in_organisation(
        &self,
        organisation: tonne_kernel::OrganisationId,
        id: OrderId,
    ) -> Result<Option<Order>, StoreError>;
    /// In one transaction: moves the order from `from` to `event.status` only if it
    /// is still in `from`, and appends the event to the outbox. MUST return
    /// `NotFound` when the order does not exist or is no longer in `from`. When
    /// `projects` is given (on entering `retiring`), the order's per-project
    /// allocation is stored in the same transaction, and so is `audit` when a
    /// person or the command line made the move. `allocations` are appended to
    /// the outbox right after the order's event, in their order, each with the
    /// allocation's snapshot as the move left it (an id the order does not
    /// have is an error, and nothing is written).
    async fn transition(
        &self,
        id: OrderId,
        from: OrderStatus,
        event: NewEvent,
        projects: Option<Vec<ProjectAllocation>>,
        allocations: Vec<AllocationEvent>,
        audit: Option<AuditEntry>,
    ) -> Result<Order, StoreError>;
    /// Live orders created at or after `since`, not cancelled or failed: per
    /// UTC day (days without orders left out), and their total cost per
    /// currency. One grouped query each, whatever the number of orders.
    async fn live_stats(&self, since: OffsetDateTime) -> Result<OrderStats, StoreError>;
    /// In one transaction: records the processor's event id (with its type
    /// and `at`) unless it is recorded already — then `Repeated`, and nothing
    /// else is done — and, with `hold`, puts the order whose
    /// `payment_reference` is its first element on hold with its second as
    /// the reason.
    /// In one transaction: clears the order's hold and writes `audit`;
    /// the order as it is now, or `None` when it was not held (nothing written).
    async fn release_hold(
        &self,
        id: OrderId,
        audit: AuditEntry,
    ) -> Result<Option<Order>, StoreError>;
    async fn apply_payment_event(
        &self,
        id: &str,
        kind: &str,
        at: OffsetDateTime,
        hold: Option<(String, String)>,
    ) -> Result<crate::PaymentEventApplied, StoreError>;
    /// Sets each record's serial and record address (where given) on the
    /// order's project rows, appends `allocations` to the outbox (as for
    /// `transition`) and writes the audit entry, in one transaction.
    /// `NotFound` when the order does not exist.
    async fn record_retirement(
        &self,
        id: OrderId,
        records: Vec<RetirementRecord>,
        allocations: Vec<AllocationEvent>,
        audit: AuditEntry,
    ) -> Result<Order, StoreError>;
    /// Test-mode orders not final and unchanged since `updated_before`, oldest first.
    async fn stale_test_orders(
        &self,
        updated_before: time::OffsetDateTime,
        limit: u32,
    ) -> Result<Vec<Order>, StoreError>;
}
