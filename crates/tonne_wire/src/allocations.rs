//! The contract's allocation events' data: `AllocationEventDetails` with its
//! `OrderAllocation` snapshot (`WebhookEvent.data` for `allocation.new` and
//! `allocation.retired`).

use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use tonne_ordering::{AllocationStatus, OrderId, ProjectAllocation};

/// The contract's `OrderAllocation`: one project's share of an order.
#[derive(Debug, Clone, Serialize)]
pub struct OrderAllocationResponse {
    /// The allocation's id.
    pub id: String,
    pub order_id: String,
    pub project_id: String,
    /// Tonnes, as a decimal string.
    pub quantity: String,
    /// `new` or `retired`.
    pub status: &'static str,
    /// When the allocation was made (RFC 3339).
    pub created_at: String,
}

impl OrderAllocationResponse {
    /// The snapshot of `allocation`, of order `order`, in `status`.
    pub fn of(order: OrderId, allocation: &ProjectAllocation, status: AllocationStatus) -> Self {
        Self {
            id: allocation.id.to_string(),
            order_id: order.to_string(),
            project_id: allocation.project_id.to_string(),
            quantity: allocation.quantity.to_tonnes_string(),
            status: status.as_str(),
            created_at: allocation.allocated_at.format(&Rfc3339).unwrap_or_default(),
        }
    }
}

/// The contract's `AllocationEventDetails`. Tonne never splits an allocation,
/// so its optional `splitFrom` is never present.
#[derive(Debug, Clone, Serialize)]
pub struct AllocationEventData {
    /// The allocation as it was when the event happened.
    pub allocation: OrderAllocationResponse,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use tonne_kernel::{Currency, Mass, Money};
    use tonne_ordering::{AllocationId, ProjectId, Registry};
    use uuid::Uuid;

    #[test]
    fn renders_the_contracts_order_allocation() {
        let gbp = |m| Money::from_minor(m, Currency::Gbp);
        let allocation = ProjectAllocation {
            id: AllocationId::from_uuid(Uuid::from_u128(1)),
            allocated_at: time::macros::datetime!(2026-11-27 01:20:00 UTC),
            project_id: ProjectId::from_uuid(Uuid::from_u128(2)),
            project_name: "P".into(),
            project_type: "Biochar".into(),
            project_slug: "p".into(),
            registry: Registry::PuroEarth,
            quantity: Mass::from_grams(222_667),
            unit_price: gbp(1),
            offset_cost: gbp(1),
            serial: None,
            registry_record: None,
        };
        let order = OrderId::from_uuid(Uuid::from_u128(3));
        let data = AllocationEventData {
            allocation: OrderAllocationResponse::of(order, &allocation, AllocationStatus::Retired),
        };
        assert_eq!(
            serde_json::to_value(&data).unwrap(),
            serde_json::json!({"allocation": {
                "id": "00000000000000000000000000000001",
                "order_id": "00000000000000000000000000000003",
                "project_id": "00000000000000000000000000000002",
                "quantity": "0.222667",
                "status": "retired",
                "created_at": "2026-11-27T01:20:00Z"
            }})
        );
    }
}
