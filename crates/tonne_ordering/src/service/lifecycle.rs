//! Use case: moving orders along their lifecycle — payment, retirement at the
//! registry, completion — by hand (admin) or on a timer (test mode).

use std::sync::Arc;

use anyhow::anyhow;
use tonne_kernel::{AccountMode, Actor, AuditEntry, Clock, OrganisationId, Snapshot};

use super::catalogue::CatalogueReads;
use super::support::event;
use crate::allocation_events;
use crate::catalogue::BundleId;
use crate::errors::{RecordError, TransitionError};
use crate::orders::{
    Order, OrderId, OrderStatus, ProjectAllocation, RetirementRecord, allocate_projects,
};
use crate::ports::{AccountDirectory, Fulfilment, OrderRepository, PaymentOutcome, StoreError};

/// Order transitions.
#[derive(Clone)]
pub(super) struct Lifecycle {
    pub(super) live: Fulfilment,
    pub(super) test: Fulfilment,
    pub(super) orders: Arc<dyn OrderRepository>,
    pub(super) accounts: Arc<dyn AccountDirectory>,
    pub(super) catalogue: CatalogueReads,
    pub(super) clock: Arc<dyn Clock>,
}

impl Lifecycle {
    /// One recorded step: collects payment entering `paid`, retires entering
    /// `retiring`; a concurrent move of the same order answers `Conflict`.
    async fn step(
        &self,
        order: &Order,
        to: OrderStatus,
        reference: Option<&str>,
        by: Option<&Author<'_>>,
    ) -> Result<Order, TransitionError> {
        if !order.status.can_become(to) {
            return Err(TransitionError::Illegal {
                from: order.status.as_str(),
                to: to.as_str(),
            });
        }
        if let Some(why) = &order.held
            && !matches!(to, OrderStatus::Cancelled | OrderStatus::Failed)
        {
            return Err(TransitionError::OnHold(why.clone()));
        }
        let fulfilment = match order.mode {
            AccountMode::Live => &self.live,
            AccountMode::Test => &self.test,
        };
        let (to, projects) = match to {
            OrderStatus::Paid => match fulfilment.payments.collect(order).await? {
                PaymentOutcome::Paid => (OrderStatus::Paid, None),
                PaymentOutcome::Declined { .. } => (OrderStatus::Failed, None),
            },
            OrderStatus::Retiring => {
                let mut projects = self.allocation(order, self.clock.now()).await?;
                let serials = fulfilment
                    .registry
                    .retire(order, &projects, reference.map(str::to_owned))
                    .await?;
                for (project, serial) in projects.iter_mut().zip(serials) {
                    project.serial = serial;
                }
                (OrderStatus::Retiring, Some(projects))
            }
            other => (other, None),
        };
        if matches!(to, OrderStatus::Cancelled | OrderStatus::Failed)
            && order.payment_reference.is_some()
        {
            fulfilment.payments.give_back(order).await?;
        }
        let moved = event(self.clock.as_ref(), to);
        let allocations =
            allocation_events::on_transition(order, to, projects.as_deref(), moved.at);
        let audit = by.map(|by| audit(self.clock.now(), order, to, projects.as_deref(), by));
        match self
            .orders
            .transition(order.id, order.status, moved, projects, allocations, audit)
            .await
        {
            Ok(order) => Ok(order),
            Err(StoreError::NotFound) => Err(TransitionError::Conflict),
            Err(e) => Err(e.unexpected().into()),
        }
    }

    /// The organisation an order's account belongs to (for its audit entries).
    async fn organisation_of(&self, order: &Order) -> Result<Option<OrganisationId>, StoreError> {
        Ok(self
            .accounts
            .holder(order.account_id)
            .await?
            .map(|h| h.organisation_id))
    }

    /// The per-project split of an order entering `retiring`.
    async fn allocation(
        &self,
        order: &Order,
        at: time::OffsetDateTime,
    ) -> Result<Vec<ProjectAllocation>, TransitionError> {
        let ids: Vec<BundleId> = order.lines.iter().map(|l| l.bundle_id).collect();
        let views = self
            .catalogue
            .bundle_views_of(&ids)
            .await
            .map_err(|e| anyhow!(e))?;
        Ok(allocate_projects(order, at, |bundle| {
            views
                .iter()
                .find(|v| v.bundle.id == bundle)
                .map(|v| v.projects.clone())
                .unwrap_or_default()
        }))
    }

    /// Moves an order to `to` (or its next status), walking the happy path one
    /// recorded step at a time.
    pub(super) async fn advance(
        &self,
        id: &str,
        to: Option<OrderStatus>,
        registry_serial: Option<String>,
        by: &Actor,
    ) -> Result<Order, TransitionError> {
        let registry_serial = match registry_serial.as_deref() {
            Some(raw) => {
                crate::orders::registry_serial(raw).map_err(TransitionError::InvalidSerial)?
            }
            None => None,
        };
        let serial = registry_serial.as_deref();
        let id: OrderId = id.parse().map_err(|_| TransitionError::NotFound)?;
        let mut order = self.stored(id).await?;
        // one look-up for every step's audit entry
        let author = Author {
            by,
            organisation: self
                .organisation_of(&order)
                .await
                .map_err(StoreError::unexpected)?,
        };
        let illegal = |from: OrderStatus, to: &'static str| TransitionError::Illegal {
            from: from.as_str(),
            to,
        };
        let target = match to {
            Some(target) => target,
            None => order
                .status
                .next()
                .ok_or_else(|| illegal(order.status, "a next status"))?,
        };
        if matches!(target, OrderStatus::Cancelled | OrderStatus::Failed) {
            return self.step(&order, target, serial, Some(&author)).await;
        }
        if order.status == target {
            return Err(illegal(order.status, target.as_str()));
        }
        while order.status != target {
            let next = order
                .status
                .next()
                .ok_or_else(|| illegal(order.status, target.as_str()))?;
            order = self.step(&order, next, serial, Some(&author)).await?;
            if order.status == OrderStatus::Failed {
                // A declined payment ends the walk: the order failed instead.
                return Ok(order);
            }
        }
        Ok(order)
    }

    /// Records serials and registry addresses of an order's retired projects.
    pub(super) async fn record_retirement(
        &self,
        id: &str,
        records: Vec<RetirementRecord>,
        by: &Actor,
    ) -> Result<Order, RecordError> {
        let id: OrderId = id.parse().map_err(|_| RecordError::NotFound)?;
        let order = self
            .orders
            .get(id)
            .await
            .map_err(|e| RecordError::Unexpected(e.unexpected()))?
            .ok_or(RecordError::NotFound)?;
        if !matches!(order.status, OrderStatus::Retiring | OrderStatus::Complete) {
            return Err(RecordError::NotRetiring(order.status.as_str()));
        }
        let (mut before, mut after) = (Snapshot::new(), Snapshot::new());
        let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".to_owned());
        let mut changes = Vec::new();
        for record in records {
            let project = order
                .projects
                .iter()
                .find(|p| p.project_id == record.project_id)
                .ok_or_else(|| {
                    RecordError::Invalid(format!(
                        "project {} is not one this order retires",
                        record.project_id
                    ))
                })?;
            let name = &project.project_name;
            if record.serial.is_some() && record.serial != project.serial {
                before = before.with(&format!("serial {name}"), shown(&project.serial));
                after = after.with(&format!("serial {name}"), shown(&record.serial));
            }
            if record.url.is_some() && record.url != project.registry_record {
                before = before.with(&format!("record {name}"), shown(&project.registry_record));
                after = after.with(&format!("record {name}"), shown(&record.url));
            }
            if record.serial.is_some() || record.url.is_some() {
                changes.push(record);
            }
        }
        if after.is_empty() {
            // nothing new (a double submit, an unchanged form): nothing written
            return Ok(order);
        }
        let audit = AuditEntry::new(
            self.clock.now(),
            by.clone(),
            "order.retirement_recorded",
            "order",
            order.id,
        )
        .before(before)
        .after(after);
        let audit = match self
            .organisation_of(&order)
            .await
            .map_err(|e| RecordError::Unexpected(e.unexpected()))?
        {
            Some(organisation) => audit.in_organisation(organisation),
            None => audit,
        };
        let allocations = allocation_events::on_recording(&order, &changes, self.clock.now());
        match self
            .orders
            .record_retirement(order.id, changes, allocations, audit)
            .await
        {
            Ok(order) => Ok(order),
            Err(StoreError::NotFound) => Err(RecordError::NotFound),
            Err(e) => Err(RecordError::Unexpected(e.unexpected())),
        }
    }

    /// The order, or `NotFound`.
    pub(super) async fn stored(&self, id: OrderId) -> Result<Order, TransitionError> {
        self.orders
            .get(id)
            .await
            .map_err(StoreError::unexpected)?
            .ok_or(TransitionError::NotFound)
    }

    /// Cancels an order still `received`, without an author (automatic).
    pub(super) async fn cancel_unconfirmed(&self, id: OrderId) -> Result<Order, TransitionError> {
        let order = self.stored(id).await?;
        if order.status != OrderStatus::Received {
            return Err(TransitionError::Illegal {
                from: order.status.as_str(),
                to: OrderStatus::Cancelled.as_str(),
            });
        }
        self.step(&order, OrderStatus::Cancelled, None, None).await
    }

    /// Collects a card-authorised order still `received`, without an author (automatic).
    pub(super) async fn collect_authorised(&self, id: OrderId) -> Result<Order, TransitionError> {
        let order = self.stored(id).await?;
        if order.status != OrderStatus::Received || order.payment_reference.is_none() {
            return Err(TransitionError::Illegal {
                from: order.status.as_str(),
                to: OrderStatus::Paid.as_str(),
            });
        }
        // received → placed → paid, each its own recorded step and event
        let collected = match self.step(&order, OrderStatus::Placed, None, None).await {
            Ok(placed) => self.step(&placed, OrderStatus::Paid, None, None).await,
            Err(e) => Err(e),
        };
        if let Err(e) = &collected {
            tracing::warn!(order = %order.id, error = %e, "collecting an authorised card failed; the operator's advance collects it later");
        }
        collected
    }

    /// Moves test-mode orders idle for `step` one status on; at most `limit`.
    pub(super) async fn advance_test_orders(
        &self,
        step: time::Duration,
        limit: u32,
    ) -> Result<usize, TransitionError> {
        let due = self
            .orders
            .stale_test_orders(self.clock.now() - step, limit)
            .await
            .map_err(StoreError::unexpected)?;
        let mut moved = 0;
        for order in due {
            let Some(next) = order.status.next() else {
                continue;
            };
            match self.step(&order, next, None, None).await {
                Ok(_) => moved += 1,
                // Another process moved it first, or a dispute holds it: fine.
                Err(TransitionError::Conflict | TransitionError::OnHold(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(moved)
    }
}

/// Who made a step, and the organisation its audit entries belong to.
struct Author<'a> {
    by: &'a Actor,
    organisation: Option<OrganisationId>,
}

/// The audit entry of one step made by a person or the command line: the
/// status (and, entering `retiring`, each project's serial) before and after.
fn audit(
    at: time::OffsetDateTime,
    order: &Order,
    to: OrderStatus,
    projects: Option<&[ProjectAllocation]>,
    author: &Author<'_>,
) -> AuditEntry {
    let before = Snapshot::new().with("status", order.status.as_str());
    let mut after = Snapshot::new().with("status", to.as_str());
    for project in projects.unwrap_or_default() {
        if let Some(serial) = &project.serial {
            after = after.with(&format!("serial {}", project.project_name), serial);
        }
    }
    let entry = AuditEntry::new(
        at,
        author.by.clone(),
        &format!("order.{}", to.as_str()),
        "order",
        order.id,
    )
    .before(before)
    .after(after);
    match author.organisation {
        Some(organisation) => entry.in_organisation(organisation),
        None => entry,
    }
}
