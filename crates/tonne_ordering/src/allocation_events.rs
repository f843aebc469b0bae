//! The events of an order's allocations (the contract's `allocation.new` and
//! `allocation.retired`): which of an order's per-project allocations a change
//! makes new or retired. Pure rules; the outbox records the events in the
//! transaction of the change they announce, after the order's own event.

use time::OffsetDateTime;
use uuid::Uuid;

pub use crate::ids::AllocationId;
use crate::orders::{Order, OrderStatus, ProjectAllocation, ProjectStatus, RetirementRecord};

/// What happened to an allocation: the contract's `OrderAllocation.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AllocationStatus {
    /// The order's tonnes were allocated to the project.
    New,
    /// The project's credits for the order were retired.
    Retired,
}

impl AllocationStatus {
    /// The contract's spelling of the status.
    pub fn as_str(self) -> &'static str {
        match self {
            AllocationStatus::New => "new",
            AllocationStatus::Retired => "retired",
        }
    }

    /// The webhook event type announcing it.
    pub fn event_type(self) -> &'static str {
        match self {
            AllocationStatus::New => "allocation.new",
            AllocationStatus::Retired => "allocation.retired",
        }
    }
}

/// An allocation event to record with a change, in the same transaction and
/// after the order's own event (the outbox). The store renders the
/// allocation's snapshot from the order as the change left it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocationEvent {
    /// Unique event id (receivers deduplicate on it).
    pub event_id: Uuid,
    /// The allocation it is about.
    pub allocation: AllocationId,
    /// New or retired.
    pub status: AllocationStatus,
    pub at: OffsetDateTime,
}

impl AllocationEvent {
    fn now(allocation: AllocationId, status: AllocationStatus, at: OffsetDateTime) -> Self {
        Self {
            event_id: Uuid::new_v4(),
            allocation,
            status,
            at,
        }
    }
}

/// The allocation events of `order` moving to `to`, where `allocated` is the
/// per-project split stored with the move (entering `retiring`):
///
/// - entering `retiring`: every allocation is new; those the registry already
///   retired (a serial came back) are then retired too;
/// - entering `complete`: every allocation not yet retired is retired
///   (completion is the operator's word that the credits are retired);
/// - any other move: none (an order failing while retiring leaves its
///   allocations new: nothing was retired).
///
/// Each allocation is new once and retired at most once, when its status on
/// the order (`ProjectAllocation::status`) turns `retired`.
pub fn on_transition(
    order: &Order,
    to: OrderStatus,
    allocated: Option<&[ProjectAllocation]>,
    at: OffsetDateTime,
) -> Vec<AllocationEvent> {
    match (to, allocated) {
        (OrderStatus::Retiring, Some(projects)) => {
            let new = projects
                .iter()
                .map(|p| AllocationEvent::now(p.id, AllocationStatus::New, at));
            let retired = projects
                .iter()
                .filter(|p| p.status(OrderStatus::Retiring) == ProjectStatus::Retired)
                .map(|p| AllocationEvent::now(p.id, AllocationStatus::Retired, at));
            new.chain(retired).collect()
        }
        (OrderStatus::Complete, _) => order
            .projects
            .iter()
            .filter(|p| p.status(order.status) != ProjectStatus::Retired)
            .map(|p| AllocationEvent::now(p.id, AllocationStatus::Retired, at))
            .collect(),
        _ => Vec::new(),
    }
}

/// The allocation events of recording retirement serials on `order`: a
/// project that gets its first serial while the order is `retiring` is
/// retired now; once the order is complete every allocation already was.
pub fn on_recording(
    order: &Order,
    records: &[RetirementRecord],
    at: OffsetDateTime,
) -> Vec<AllocationEvent> {
    let mut out: Vec<AllocationEvent> = Vec::new();
    for project in &order.projects {
        let gets_serial = records
            .iter()
            .any(|r| r.project_id == project.project_id && r.serial.is_some());
        if gets_serial
            && project.status(order.status) != ProjectStatus::Retired
            && !out.iter().any(|e| e.allocation == project.id)
        {
            out.push(AllocationEvent::now(
                project.id,
                AllocationStatus::Retired,
                at,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::ProjectId;
    use crate::orders::ProjectAllocation;
    use tonne_kernel::{AccountId, AccountMode, Currency, Mass, Money};

    fn allocation(n: u128, serial: Option<&str>) -> ProjectAllocation {
        let gbp = |m| Money::from_minor(m, Currency::Gbp);
        ProjectAllocation {
            quantity: Mass::from_grams(1_000),
            unit_price: gbp(1),
            offset_cost: gbp(1),
            ..ProjectAllocation::sample(n, serial, OffsetDateTime::UNIX_EPOCH)
        }
    }

    fn order(status: OrderStatus, projects: Vec<ProjectAllocation>) -> Order {
        let account = (AccountId::from_uuid(Uuid::from_u128(9)), AccountMode::Test);
        let mut order = Order::sample(status, account, OffsetDateTime::UNIX_EPOCH);
        order.projects = projects;
        order
    }

    fn kinds(events: &[AllocationEvent]) -> Vec<(u128, &'static str)> {
        events
            .iter()
            .map(|e| {
                (
                    e.allocation.as_uuid().as_u128() - 100,
                    e.status.event_type(),
                )
            })
            .collect()
    }

    #[test]
    fn entering_retiring_makes_every_allocation_new_then_retires_those_with_serials() {
        let paid = order(OrderStatus::Paid, vec![]);
        let split = [allocation(1, Some("R-1")), allocation(2, None)];
        let events = on_transition(
            &paid,
            OrderStatus::Retiring,
            Some(&split),
            OffsetDateTime::UNIX_EPOCH,
        );
        assert_eq!(
            kinds(&events),
            [
                (1, "allocation.new"),
                (2, "allocation.new"),
                (1, "allocation.retired")
            ]
        );
        let ids: std::collections::HashSet<_> = events.iter().map(|e| e.event_id).collect();
        assert_eq!(ids.len(), 3, "each event its own id");
    }

    #[test]
    fn completing_retires_only_what_is_not_retired_yet_and_other_moves_emit_nothing() {
        let retiring = order(
            OrderStatus::Retiring,
            vec![allocation(1, Some("R-1")), allocation(2, None)],
        );
        let at = OffsetDateTime::UNIX_EPOCH;
        assert_eq!(
            kinds(&on_transition(&retiring, OrderStatus::Complete, None, at)),
            [(2, "allocation.retired")]
        );
        // a failure while retiring retires nothing; earlier moves have no allocations
        assert!(on_transition(&retiring, OrderStatus::Failed, None, at).is_empty());
        for to in [
            OrderStatus::Placed,
            OrderStatus::Paid,
            OrderStatus::Cancelled,
        ] {
            assert!(on_transition(&order(OrderStatus::Received, vec![]), to, None, at).is_empty());
        }
    }

    #[test]
    fn a_first_serial_while_retiring_retires_its_allocation_once() {
        let at = OffsetDateTime::UNIX_EPOCH;
        let p1 = ProjectId::from_uuid(Uuid::from_u128(1));
        let p2 = ProjectId::from_uuid(Uuid::from_u128(2));
        let record = |p, serial: &str| RetirementRecord::parse(p, serial, "").unwrap();
        let retiring = order(
            OrderStatus::Retiring,
            vec![allocation(1, Some("R-1")), allocation(2, None)],
        );
        // project 1 had a serial (already retired); project 2 gets its first
        let records = [record(p1, "R-1b"), record(p2, "R-2"), record(p2, "R-2")];
        assert_eq!(
            kinds(&on_recording(&retiring, &records, at)),
            [(2, "allocation.retired")]
        );
        // an address alone retires nothing
        let url = RetirementRecord::parse(p2, "", "https://registry.example/r/2").unwrap();
        assert!(on_recording(&retiring, &[url], at).is_empty());
        // once complete, every allocation already was retired
        let complete = order(OrderStatus::Complete, retiring.projects.clone());
        assert!(on_recording(&complete, &records, at).is_empty());
    }
}
